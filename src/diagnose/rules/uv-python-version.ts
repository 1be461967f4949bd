import { linesMatching } from '../evidence.js'
import { UV_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// uv's resolver names the interpreter in its derivation: "the current Python version (3.11.1) does not satisfy
// Python>=3.13", or the project's range: "the requested Python version (>=3.8) does not satisfy Python>=3.10"
// (crates/uv-resolver/src/pubgrub/report.rs), with the hint "The `requires-python` value (...) includes Python
// versions that are not supported by your dependencies". Before resolving, uv refuses an interpreter outside the
// project's range ("... resolved to Python 3.11.10, which is incompatible with the project's Python requirement",
// crates/uv/src/commands/project/mod.rs), finds none ("No interpreter found for Python 3.13 in ...", "No
// interpreter found in registry or search path", crates/uv-python/src/discovery.rs; not a name, a directory or a
// path the command gave, which is the command's mistake), or a source distribution needs another one
// (crates/uv-distribution/src/error.rs).
const PYTHON = /(?:current|requested) Python version \([^)\n]{1,60}\) does not satisfy|Python>=?[\d.]{1,10} (?:and|is not satisfied)|includes Python versions that are not supported by your dependencies|has no wheels with a matching (?:Python|platform)(?: ABI| implementation| version)? tag|No interpreter found (?:for (?!executable name)|in (?!directory ))|incompatible with the (?:project|workspace)'s Python requirement|source distribution requires Python [\d.]{1,20}, but [\d.]{1,20} is installed/

export const uvPythonVersion = {
  id: 'uv-python-version',
  category: 'python_version',
  tools: UV_FAMILY,
  summary: 'A package needs another Python version than this project or interpreter allows',
  match: failure => {
    const evidence = linesMatching(failure, PYTHON, 2)
    return evidence.length ? { evidence } : null
  },
  remedy: { kind: 'give-up', hint: "Not something a retry or a mirror can change. Pick an interpreter the packages support: `uv python pin 3.12` for the project (or `--python 3.12` for one run; uv downloads it if needed), or make the project's `requires-python` in pyproject.toml match what its dependencies support, as uv's hint says." },
} satisfies Rule
