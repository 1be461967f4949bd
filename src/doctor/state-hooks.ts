import { configSchema, type Config } from '../config/schema.js'
import { describeHealth } from '../state/breaker.js'
import { currentNetwork } from '../state/network.js'
import { stateFile } from '../paths.js'
import { readState } from '../state/store.js'
import { readAutoInstallRecord } from '../autoinstall/record.js'

export interface HookResult {
  lines: string[]
  /** Said when there are no lines: why (nothing recorded yet, or not recorded by this version). */
  note: string
}

/** Mirror health as `src/state` remembers it for the network this machine is on now. */
export async function readMirrorHealth(env: NodeJS.ProcessEnv, config: Config | undefined): Promise<HookResult> {
  const warnings: string[] = []
  const state = await readState(stateFile(env), message => warnings.push(message))
  const network = currentNetwork(env)
  const mirrors = Object.values(state.networks[network.key]?.mirrors ?? {})
  const settings = (config ?? configSchema.parse({})).breaker
  const now = Date.now()
  const lines = mirrors.map(health => `${health.url}: ${describeHealth(health, now, settings)}`)
  return { lines: [...warnings, ...lines], note: `nothing recorded yet on this network (${network.label})` }
}

/** What `resilient run` installed on its own (src/autoinstall/record.ts), newest first, for review. */
export async function readAutoInstalls(env: NodeJS.ProcessEnv): Promise<HookResult> {
  const { file, entries, error } = await readAutoInstallRecord(env)
  const lines = [...entries].reverse().map(entry => `${entry.at}  ${entry.package} (for import ${entry.module}, ${entry.tier}, consent: ${entry.consent}) into ${entry.environment}`)
  if (error) lines.unshift(`${file} could not be read: ${error}`)
  return { lines, note: `none (\`resilient run\` records here what it installs: ${file})` }
}
