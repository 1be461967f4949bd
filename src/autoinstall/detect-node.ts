import { outputLines } from './detect-python.js'
import { packageOfSpecifier } from './node-specifier.js'
import type { Detection } from './types.js'

// Message formats: Node's lib/internal/modules/cjs/loader.js and lib/internal/errors.js (v20), Bun's, Yarn PnP's.
// Node prints an uncaught error as a header line (`Error: …`, `Error [CODE]: …`) followed by indented frames;
// only the last header counts, so an error the script caught and logged earlier is never acted on.
const HEADER = /^(?:[A-Z]\w*Error|Error)(?: \[(\w+)\])?: (.*)$|^error: (.*)$/
const CJS = /^Cannot find module '([^']+)'$/
const ESM = /^Cannot find (package|module) '([^']+)' imported from (.+)$/
const BUN = /^Cannot find (package|module) "([^"]+)" from "([^"]+)"$/
const PNP = /^Your application tried to access ([^\s,]+)(?: \(a peer dependency\))?, but it isn't declared in your dependencies/

function refusal(reason: string, hint: string | undefined, evidence: string[]): Detection {
  return { kind: 'not-installable', refusal: { reason, hint, evidence } }
}

/** The first file of `Require stack:` (the file whose require failed), when Node printed one. */
function requireStack(lines: string[], index: number): string[] {
  if (lines[index + 1] !== 'Require stack:') return []
  const files: string[] = []
  for (let i = index + 2; i < lines.length && lines[i]!.startsWith('- '); i++) files.push(lines[i]!.slice(2))
  return files
}

function fromSpecifier(specifier: string, importer: string | undefined, evidence: string[]): Detection {
  const resolved = packageOfSpecifier(specifier)
  if ('refused' in resolved) return refusal(resolved.refused, resolved.hint, evidence)
  if (importer && /[\\/]node_modules[\\/]/.test(importer)) {
    return refusal(`A dependency is missing "${resolved.package}", not your code: the install in node_modules is incomplete.`,
      'Run your package manager\'s install (npm install / npm ci), or add the missing peer dependency yourself.', evidence)
  }
  return { kind: 'missing', module: { ecosystem: 'node', reported: specifier, name: resolved.package, importer, evidence } }
}

/** The package a Node script failed to load, from its output; undefined when its final error is something else. */
export function detectNodeMissing(output: string): Detection | undefined {
  const lines = outputLines(output)
  let index = lines.length - 1
  while (index >= 0 && !HEADER.test(lines[index]!)) index--
  if (index < 0) return undefined
  const [, code, message = '', bunMessage] = HEADER.exec(lines[index]!)!
  const line = lines[index]!
  const text = bunMessage ?? message
  const pnp = PNP.exec(text)
  if (pnp) return refusal(`Yarn Plug'n'Play: "${pnp[1]}" is not declared in package.json.`, `Add it with yarn add ${pnp[1]}.`, [line])
  if (code === 'ERR_UNKNOWN_BUILTIN_MODULE') return refusal('This Node has no such builtin module.', 'Upgrade Node (check `node --version`).', [line])
  const cjs = CJS.exec(text)
  if (cjs) {
    const stack = requireStack(lines, index)
    // No require stack: the entry file itself is missing (`node nope.js`), not a package.
    if (!stack.length && !/^[\w@]/.test(cjs[1]!)) return refusal(`The file ${cjs[1]} does not exist.`, 'Check the path of the script.', [line])
    return fromSpecifier(cjs[1]!, stack[0], [line, ...stack.slice(0, 1).map(file => `Require stack: ${file}`)])
  }
  const esm = ESM.exec(text) ?? BUN.exec(text)
  if (esm) {
    const [, kind, specifier, importer] = esm
    const from = importer!.replace(/^file:\/\//, '')
    // ESM says "module" with an absolute path for a missing file, "package" for a bare specifier.
    if (kind === 'module' && /^(\/|[A-Za-z]:|\.)/.test(specifier!)) return refusal(`The file ${specifier} does not exist.`, 'Check the path and the extension (ESM needs ./file.js).', [line])
    return fromSpecifier(specifier!, from, [line])
  }
  return undefined
}
