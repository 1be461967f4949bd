import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const read = (path: string) => readFileSync(`${root}/${path}`, 'utf8')
const pkg = JSON.parse(read('package.json')) as { name: string; bin: Record<string, string> }

// The npm name `resilient` belongs to an unrelated HTTP client that installs a `resilient` command of its own: a
// newcomer typing `npm i -g resilient` must not get it from our README. (Free on the registry when chosen: `npm view
// resilient-install` answered E404, and `npm publish --dry-run` accepted the package.)
describe('the package name', () => {
  it('is not the unrelated `resilient`, and the command stays `resilient`', () => {
    expect(pkg.name).toBe('resilient-install')
    expect(Object.keys(pkg.bin)).toEqual(['resilient'])
  })
  it('is what the README installs, and what the lockfile and the fresh-machine check name', () => {
    expect(read('README.md')).toContain(`npm install --global ${pkg.name} `)
    expect(read('README.md')).toContain(`npm install --global ./${pkg.name}-*.tgz`)
    expect(JSON.parse(read('package-lock.json')).name).toBe(pkg.name)
    expect(read('.ci/fresh-machine')).toContain(`packed/${pkg.name}-*.tgz`)
    expect(read('.ci/fresh-machine')).toContain(`node_modules/${pkg.name}\n`)
  })
})
