import { firstCapture, linesMatching } from '../evidence.js'
import { NODE_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// Node: "Error: Cannot find module 'x'" (CommonJS, MODULE_NOT_FOUND), "Cannot find package 'x' imported from"
// (ESM, ERR_MODULE_NOT_FOUND). Often a published package that imports a dependency it does not declare.
export const nodeModuleNotFound = {
  id: 'node-module-not-found',
  category: 'module_not_found',
  tools: NODE_FAMILY,
  summary: 'A Node.js module is missing',
  match: failure => {
    const evidence = linesMatching(failure, /ERR_MODULE_NOT_FOUND|Cannot find (?:module|package) '|\bMODULE_NOT_FOUND\b/, 2)
    if (!evidence.length) return null
    const name = firstCapture(failure.lines, /Cannot find (?:module|package) '([^']{1,200})'/)
    return { evidence, facts: { package: name }, summary: name ? `The Node.js module ${name} is missing` : undefined }
  },
} satisfies Rule
