import { firstCapture, linesMatching } from '../evidence.js'
import { PIP_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// Building an sdist failed: pip 9 ("Command "python setup.py egg_info" failed with error code 1", "Complete output
// from command"), pip 20+ ("Failed building wheel for x", subprocess-exited-with-error), pip 24.1+ ("Failed to
// build installable wheels"). A ModuleNotFoundError inside the build is a build failure too, not a missing module.
const BUILD = /Failed building wheel for|Failed to build (?:installable wheels|\S)|Could not build wheels for|subprocess-exited-with-error|metadata-generation-failed|setup\.py[^\n]{0,80} (?:egg_info|install|bdist_wheel)[^\n]{0,300}failed with error code|Complete output from command [^\n]{0,200}setup\.py|error: command '[^'\n]{1,300}' failed|This error originates from a subprocess|fatal error: [\w/.-]{1,100}\.h: No such file|Microsoft Visual C\+\+ [\d.]{1,6} (?:or greater )?is required|Running setup\.py install for \S+ \.\.\. error|Command errored out with exit status|did not run successfully|legacy-install-failure|\[BuildError\]|Build backend raised error|pip seemed to fail to build package/

export const pipBuildFailure = {
  id: 'pip-build-failure',
  category: 'build_failure',
  tools: PIP_FAMILY,
  summary: 'Building a package from source failed',
  match: failure => {
    const evidence = linesMatching(failure, BUILD, 3)
    if (!evidence.length) return null
    const name = firstCapture(failure.lines, /Failed building wheel for (\S+)|Failed to build (\S+)|Running setup\.py install for (\S+)/)
    const cause = linesMatching(failure, /fatal error: |error: (?:Microsoft|can't find|command ')|No such file or directory/, 1)
    return { evidence: [...evidence, ...cause].slice(0, 4), facts: { package: name },
      summary: name && name !== 'installable' ? `Building ${name} from source failed` : undefined }
  },
} satisfies Rule
