// Poetry's version constraints in PEP 440 terms, so pip can install what pyproject.toml's [tool.poetry] declares.
// The rules are poetry-core's (poetry.core.constraints.version.parser: caret, tilde, wildcard, bare version):
// https://python-poetry.org/docs/dependency-specification/#version-constraints

function parts(version: string): number[] {
  return version.split('.').map(Number)
}

/** `^1.2.3` → >=1.2.3,<2.0.0; `^0.2.3` → >=0.2.3,<0.3.0; `^0.0.3` → >=0.0.3,<0.0.4: the first non-zero part stays. */
function caret(version: string): string {
  const numbers = parts(version)
  const keep = numbers.findIndex((number, index) => number !== 0 || index === numbers.length - 1)
  const upper = numbers.slice(0, keep + 1).map((number, index) => index === keep ? number + 1 : number)
  while (upper.length < numbers.length) upper.push(0)
  return `>=${version},<${upper.join('.')}`
}

/** `~1.2.3` → >=1.2.3,<1.3.0; `~1.2` → >=1.2,<1.3; `~1` → >=1,<2. */
function tilde(version: string): string {
  const numbers = parts(version)
  const bump = numbers.length === 1 ? 0 : 1
  const upper = numbers.slice(0, bump + 1).map((number, index) => index === bump ? number + 1 : number)
  while (upper.length < numbers.length) upper.push(0)
  return `>=${version},<${upper.join('.')}`
}

const VERSION = /^\d+(\.\d+)*$/

/** One constraint in PEP 440, or undefined when PEP 440 cannot say it (`||`, an unknown form). */
export function poetryToPep440(constraint: string): string | undefined {
  const text = constraint.trim()
  if (text === '' || text === '*') return ''
  if (text.includes('||') || text.includes('|')) return undefined
  const pieces = text.split(/\s*,\s*|\s+(?=[<>=!~^])/).filter(Boolean)
  const converted: string[] = []
  for (const piece of pieces) {
    const match = /^(\^|~(?!=)|~=|==|!=|>=|<=|>|<|=)?\s*(\S+)$/.exec(piece)
    if (!match) return undefined
    const [, operator = '', version = ''] = match
    if (operator === '^' || operator === '~') {
      if (!VERSION.test(version)) return undefined
      converted.push(operator === '^' ? caret(version) : tilde(version))
    } else if (operator === '' || operator === '=') {
      converted.push(`==${version}`)
    } else {
      converted.push(`${operator}${version}`)
    }
  }
  return converted.join(',')
}
