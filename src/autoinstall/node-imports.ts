import type { Node } from '@babel/types'

/** A module a file loads at load time, unconditionally: where it is written. */
export interface FoundImport {
  specifier: string
  line: number
  column: number
}

type Parse = typeof import('@babel/parser').parse

// What a file's module system and syntax are, by its extension: TypeScript's `<T>x` casts forbid JSX in .ts files.
const PLUGINS: Record<string, ('typescript' | 'jsx')[]> = { ts: ['typescript'], mts: ['typescript'], cts: ['typescript'], tsx: ['typescript', 'jsx'] }

// Children that run only when something else happens: a function's body when it is called, a branch when its test
// holds, a try block or handler when it does not throw (`try { require('optional') } catch {}`), a loop's body.
const FUNCTIONS = /Function|Method$|^Class(Private)?Property$|^ClassAccessorProperty$|^StaticBlock$/
const CONDITIONAL: Record<string, readonly string[]> = {
  IfStatement: ['consequent', 'alternate'], ConditionalExpression: ['consequent', 'alternate'], LogicalExpression: ['right'],
  SwitchStatement: ['cases'], TryStatement: ['block', 'handler'], WhileStatement: ['body'], DoWhileStatement: ['body'],
  ForStatement: ['body', 'update', 'test'], ForInStatement: ['body'], ForOfStatement: ['body'], OptionalCallExpression: ['arguments'],
}
// Types and declarations are erased before anything runs.
const TYPE_KEYS = new Set(['typeAnnotation', 'typeParameters', 'typeArguments', 'returnType', 'superTypeParameters', 'implements', 'predicate'])
const ERASED = new Set(['TSInterfaceDeclaration', 'TSTypeAliasDeclaration', 'TSDeclareFunction', 'TSDeclareMethod', 'DeclareModule'])
const SKIP_KEYS = new Set(['loc', 'start', 'end', 'extra', 'leadingComments', 'trailingComments', 'innerComments', 'range'])

const literal = (node: Node | undefined): string | undefined =>
  node?.type === 'StringLiteral' ? node.value : node?.type === 'TemplateLiteral' && node.expressions.length === 0 ? node.quasis[0]?.value.cooked ?? undefined : undefined

/** `(function () { ... })()`, `!function(){...}()`, `(() => {...})()`, `(function(){...}).call(this)`: runs now. */
function invokedNow(call: Node & { type: 'CallExpression' }): Node | undefined {
  const callee = call.callee
  if (callee.type === 'FunctionExpression' || callee.type === 'ArrowFunctionExpression') return callee
  const member = callee.type === 'MemberExpression' && callee.property.type === 'Identifier' && /^(call|apply)$/.test(callee.property.name) ? callee.object : undefined
  return member && (member.type === 'FunctionExpression' || member.type === 'ArrowFunctionExpression') ? member : undefined
}

/** `import('x').catch(...)`, `import('x').then(ok, failed)`: a failure the code handles. */
function handlesRejection(call: Node & { type: 'CallExpression' }): Node | undefined {
  const callee = call.callee
  if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return undefined
  const handled = callee.property.name === 'catch' || (callee.property.name === 'then' && call.arguments.length > 1)
  return handled ? callee.object : undefined
}

function loads(node: Node): string | undefined {
  switch (node.type) {
    case 'ImportDeclaration':
      return node.importKind === 'type' || (node.specifiers.length > 0 && node.specifiers.every(spec => spec.type === 'ImportSpecifier' && spec.importKind === 'type')) ? undefined : node.source.value
    case 'ExportAllDeclaration':
    case 'ExportNamedDeclaration':
      return node.source && node.exportKind !== 'type' ? node.source.value : undefined
    case 'TSImportEqualsDeclaration':
      return node.moduleReference.type === 'TSExternalModuleReference' && node.importKind !== 'type' ? node.moduleReference.expression.value : undefined
    case 'CallExpression':
      if (node.callee.type === 'Import' || (node.callee.type === 'Identifier' && node.callee.name === 'require')) return literal(node.arguments[0] as Node | undefined)
      return undefined
    default:
      return undefined
  }
}

/** The file's syntax tree: with the plugins its extension implies, else with the others (TypeScript in a .js file). */
function parseProgram(parse: Parse, source: string, file: string): Node | undefined {
  const extension = /\.([cm]?[jt]sx?)$/.exec(file)?.[1] ?? 'js'
  const first = PLUGINS[extension] ?? ['jsx']
  for (const plugins of [first, first.includes('typescript') ? ['jsx' as const] : ['typescript' as const]]) {
    try {
      return parse(source, { sourceType: 'unambiguous', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, allowImportExportEverywhere: true,
        errorRecovery: true, plugins }).program as Node
    } catch {
      // the next syntax, if any
    }
  }
  return undefined
}

/**
 * Every module `source` loads when it is loaded, whatever happens: static imports and `export ... from` (not
 * `import type`), and `require()` and `import()` of a string that run at load; those in a function, behind a
 * condition or inside a try are optional by construction and left out. Undefined when the text does not parse.
 */
export function findUnconditionalImports(parse: Parse, source: string, file: string): FoundImport[] | undefined {
  const program = parseProgram(parse, source, file)
  if (!program) return undefined
  const found: FoundImport[] = []
  // Functions invoked where they are written run at load: their bodies are as unconditional as the call.
  const invoked = new WeakSet<Node>()
  const handled = new WeakSet<Node>()
  const visit = (node: Node, optional: boolean): void => {
    if (ERASED.has(node.type) || ('declare' in node && node.declare === true)) return
    const specifier = optional || handled.has(node) ? undefined : loads(node)
    if (specifier !== undefined && node.loc) found.push({ specifier, line: node.loc.start.line, column: node.loc.start.column })
    if (node.type === 'CallExpression') {
      const now = invokedNow(node)
      if (now) invoked.add(now)
      const rejection = handlesRejection(node)
      if (rejection) handled.add(rejection)
    }
    const inFunction = FUNCTIONS.test(node.type) && !invoked.has(node)
    for (const [key, value] of Object.entries(node)) {
      if (SKIP_KEYS.has(key) || TYPE_KEYS.has(key) || !value || typeof value !== 'object') continue
      const branch = inFunction || CONDITIONAL[node.type]?.includes(key) === true
      for (const child of (Array.isArray(value) ? value : [value]) as Node[]) {
        if (child && typeof child.type === 'string') visit(child, optional || branch)
      }
    }
  }
  visit(program, false)
  return found
}
