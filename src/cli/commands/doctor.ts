import { runDoctorChecks } from '../../doctor/index.js'
import { redactDeep } from '../../redact.js'
import { ownText } from '../../own-text.js'
import { RESILIENT_VERSION } from '../../version.js'

/** `resilient doctor [--json]`: what resilient sees on this machine; exit 1 when something is broken. */
export async function runDoctor(options: { json?: boolean }): Promise<number> {
  const report = await runDoctorChecks(process.env, process.cwd())
  if (options.json) {
    const value = { resilientVersion: RESILIENT_VERSION, node: process.version, platform: process.platform, broken: report.broken, problems: report.problems,
      sections: Object.fromEntries(report.sections.map(section => [section.title, section.data])) }
    process.stdout.write(`${JSON.stringify(redactDeep(value), null, 2)}\n`)
    return report.broken ? 1 : 0
  }
  const out: string[] = [`resilient ${RESILIENT_VERSION}, node ${process.version}, ${process.platform}`]
  for (const section of report.sections) out.push('', section.title, ...section.lines.map(line => `  ${line}`))
  out.push('')
  if (!report.problems.length) out.push('No problems found.')
  for (const problem of report.problems) {
    out.push(`${problem.severity === 'broken' ? '✖' : '!'} ${problem.message}`, `  → ${problem.fix}`)
  }
  if (report.problems.length) out.push('', report.broken ? 'Something is broken: fix the ✖ lines above.' : 'Nothing is broken; the ! lines are worth a look.')
  process.stdout.write(`${ownText(out.join('\n'))}\n`)
  return report.broken ? 1 : 0
}
