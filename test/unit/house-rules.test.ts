import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// Rules of the house that a reader can check by looking: they are checked here so that they stay true.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const filesUnder = (dir: string): string[] => readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
  .filter(entry => entry.isFile() && /\.(ts|mjs)$/.test(entry.name)).map(entry => relative(ROOT, join(entry.parentPath, entry.name))).sort()
const SRC = filesUnder('src')
const linesOf = (path: string) => readFileSync(join(ROOT, path), 'utf8').split('\n')

describe('the house rules', () => {
  it('no comment cites a document that is not in this repository (reference §N, ../shared, an issue number)', () => {
    const citing = [...SRC, ...filesUnder('test/unit'), ...filesUnder('test/e2e'), ...filesUnder('test/helpers')]
      .flatMap(path => linesOf(path).flatMap((line, index) => /§|\.\.\/shared\/reference|package-managers\.md|auto-install-safety\.md/.test(line) && !path.endsWith('house-rules.test.ts') ? [`${path}:${index + 1}`] : []))
    expect(citing).toEqual([])
    // The issue tracker is not in the repository either: comments and test names say why, not which issue asked
    // (a public thread named with its repository, `cnpm/mirrors#284`, is a source anyone can read).
    const issueNumber = /\b[Ii]ssues? #?\d+|\bitem \d+:|(?:\/\/|^\s*\*).*(?<![\w/'`-])#\d+\b/
    const citingIssues = [...SRC, ...filesUnder('test/unit'), ...filesUnder('test/e2e'), ...filesUnder('test/helpers'), ...filesUnder('bench')]
      .filter(path => !path.endsWith('house-rules.test.ts'))
      .flatMap(path => linesOf(path).flatMap((line, index) => issueNumber.test(line) ? [`${path}:${index + 1}`] : []))
    expect(citingIssues).toEqual([])
  })

  it('one home for URL knowledge: hostOf, sameIndex and friends are defined in src/url.ts only', () => {
    const defined = SRC.flatMap(path => linesOf(path).flatMap(line => /(?:function|const)\s+(hostOf|hostAndPortOf|labelOf|sameIndex|sameRegistry|sameUrl|sameHost|hostnameOf|portlessHost)\b/.exec(line) ? [`${path}: ${line.trim().slice(0, 60)}`] : []))
    expect(defined.filter(line => !line.startsWith('src/url.ts:'))).toEqual([])
  })

  it('one home for locking and atomic writes: only src/files/locked-file.ts uses proper-lockfile or write-file-atomic', () => {
    const users = SRC.filter(path => /from '(proper-lockfile|write-file-atomic)'|import\('(proper-lockfile|write-file-atomic)'\)/.test(readFileSync(join(ROOT, path), 'utf8')))
    expect(users).toEqual(['src/files/locked-file.ts'])
    // State, logs and config never hand-roll a temp file and a rename.
    const handRolled = SRC.filter(path => /^src\/(state|logs|config)\//.test(path) && /renameSync|\.tmp`/.test(readFileSync(join(ROOT, path), 'utf8')))
    expect(handRolled).toEqual([])
  })

  // Every import counts, `import type` included: a type shared back and forth is a circle for the reader too.
  const importsOf = (path: string) => [...readFileSync(join(ROOT, path), 'utf8').matchAll(/^(?:import|export)\s[^;]*?from '(\.{1,2}\/[^']+)\.js'|import\('(\.{1,2}\/[^']+)\.js'\)/gm)]
    .map(match => relative(ROOT, join(ROOT, dirname(path), `${match[1] ?? match[2]}.ts`)))
  const GRAPH = new Map(SRC.map(path => [path, importsOf(path)]))

  it('no import circle in src/, type imports included', () => {
    const circles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const visit = (path: string, trail: string[]): void => {
      if (state.get(path) === 'done') return
      if (state.get(path) === 'open') return void circles.push([...trail.slice(trail.indexOf(path)), path].join(' > '))
      state.set(path, 'open')
      for (const next of GRAPH.get(path) ?? []) visit(next, [...trail, path])
      state.set(path, 'done')
    }
    for (const path of SRC) visit(path, [])
    expect(GRAPH.get('src/exec/run-child.ts')?.length).toBeGreaterThan(3)
    expect(GRAPH.get('src/tools/types.ts')).toContain('src/tools/context.ts')
    expect(circles).toEqual([])
  })

  // The floors of src/, lowest first: a module imports its own floor and those below, never one above. Leaves know
  // nothing of the rest; the indexes and tool adapters are data; the diagnosis reads a failure, the child runs one
  // command, the relay serves one request; the plan decides, pure; what is remembered and the attempts loop sit on the
  // plan; a run assembles them; the commands and the CLI face the person.
  const FLOORS = [
    ['url', 'errors', 'redact', 'secrets', 'files', 'clock-time', 'paths', 'proxies', 'own-text', 'own-trust', 'version', 'closest-name', 'docs', 'npm-names'],
    ['mirrors'],
    ['config', 'tools'],
    ['diagnose', 'exec', 'logs', 'relay'],
    ['plan'],
    ['state', 'retry'],
    ['run'],
    ['autoinstall', 'doctor', 'shims', 'completion', 'demo'],
    ['cli', 'index'],
  ]
  const floorOf = (path: string) => FLOORS.findIndex(floor => floor.includes(path.split('/')[1]!.replace(/\.ts$/, '')))

  it('every module of src/ has a floor, and imports run down the floors (at most one runs back up)', () => {
    expect(SRC.filter(path => floorOf(path) < 0)).toEqual([])
    const upward = [...GRAPH].flatMap(([path, imports]) => imports.filter(target => floorOf(target) > floorOf(path)).map(target => `${path} > ${target}`))
    expect(upward.length, upward.join('\n')).toBeLessThanOrEqual(1)
  })

  it('the CLI is a face: it calls a tool run (src/run/), it does not assemble one from the child, the plan or the loop', () => {
    const reaching = [...GRAPH].filter(([path, imports]) => path.startsWith('src/cli/') && imports.some(target => /^src\/(exec|plan|retry|relay)\//.test(target)))
      .map(([path]) => path)
    expect(reaching, reaching.join('\n')).toEqual([])
  })

  it('no file in src/ is over 200 lines', () => {
    const long = SRC.flatMap(path => {
      const lines = readFileSync(join(ROOT, path), 'utf8').replace(/\n$/, '').split('\n').length
      return lines > 200 ? [`${path}: ${lines}`] : []
    })
    expect(long).toEqual([])
  })
})

