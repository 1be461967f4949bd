import { builtinModules, isBuiltin } from 'node:module'

// Builtins of every Node version, not just the running one: a script written for a newer Node names `node:sqlite`,
// and 40 of Node 20's builtin names are also npm packages, some unrelated (`test`, `module`, `timers`), some squats
// (`async_hooks`). Prefix-only builtins (`node:test`...) are not in builtinModules (nodejs/node a3183fb927).
const PREFIX_ONLY = ['sea', 'sqlite', 'test', 'test/reporters']
const OTHER_VERSIONS = ['wasi', 'diagnostics_channel', 'trace_events', 'inspector', 'sys', 'constants', 'punycode', 'smalloc', 'freelist']
const BUILTIN_ROOTS = new Set([...builtinModules, ...PREFIX_ONLY, ...OTHER_VERSIONS].map(name => name.split('/')[0]!))

// npm's rules for new names (validate-npm-package-name): lower case, URL-safe, no leading dot or underscore, ≤ 214.
// A leading `-` or `~` is refused too: `require('-g')` must never reach npm's command line as an option.
const NAME_PART = /^[a-z0-9][a-z0-9-._~]*$/

export type SpecifierPackage = { package: string } | { refused: string; hint?: string }

/**
 * The npm package a bare import specifier belongs to: `lodash/fp` → lodash, `@scope/pkg/sub` → @scope/pkg.
 * Builtins, relative and absolute paths, URLs, `#` subpath imports and `@/` `~/` aliases are never packages.
 */
export function packageOfSpecifier(specifier: string): SpecifierPackage {
  if (specifier.startsWith('node:') || isBuiltin(specifier) || BUILTIN_ROOTS.has(specifier.split('/')[0]!)) {
    const bare = specifier.replace(/^node:/, '')
    const hint = PREFIX_ONLY.includes(bare) ? `Write it as "node:${bare}": this builtin exists only with the node: prefix.` : 'A newer Node may have it: check `node --version`.'
    return { refused: `"${specifier}" is a Node builtin module, not an npm package.`, hint }
  }
  if (/^(\.{1,2}(\/|$)|\/|[A-Za-z]:[\\/]|file:|data:|https?:|npm:)/.test(specifier)) {
    return { refused: `"${specifier}" is a path or URL, not a package: the file is missing.`, hint: 'Check the path and the file name (ESM needs the extension: ./util.js).' }
  }
  if (/^[#~]/.test(specifier) || specifier.startsWith('@/')) {
    return { refused: `"${specifier}" is a path alias or a subpath import, not a package.`, hint: 'Check "imports" in package.json, "paths" in tsconfig.json, or the bundler\'s aliases.' }
  }
  const parts = specifier.split('/')
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
  const valid = name.length <= 214 && (specifier.startsWith('@')
    ? parts.length >= 2 && NAME_PART.test(parts[0]!.slice(1)) && NAME_PART.test(parts[1]!)
    : NAME_PART.test(name))
  if (!valid) return { refused: `"${name}" is not a valid npm package name.`, hint: 'npm names are lower case, with letters, digits and - . _ ~ only.' }
  return { package: name }
}
