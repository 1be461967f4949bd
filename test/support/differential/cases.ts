import type { Fault, FaultChoice } from '../../../src/demo/fault-server.js'
import type { Subject } from './subjects.js'

/** Where the install may go: its index alone (an index of the person's own), or the index and a healthy mirror. */
export type Topology = 'sole' | 'mirror'

/**
 * One network condition of the differential matrix (the table): what the index does, on which tools and
 * topologies it is run. The plain tool always talks to the index alone; resilient gets the same command, and in the
 * `mirror` topology a configuration that names the index and one mirror.
 */
export interface DifferentialCase {
  id: string
  /** For the table: `one 503 on the project page`. */
  fault: string
  tools: readonly Subject['tool'][]
  topologies: readonly Topology[]
  /** What the index does; `refused`: nothing listens on its port (a dead index). */
  index: (subject: Subject) => FaultChoice | 'refused'
  /** What the mirror does (a long-haul link delays it as well); healthy otherwise. */
  mirror?: (subject: Subject) => FaultChoice
  /**
   * The mirror lacks the newest version, asked for by name, and is put first with --mirror (a lagging mirror); the
   * plain tool is pointed at that mirror, as `--mirror` asks.
   */
  laggingMirror?: boolean
  /** Arguments added to the command for both runs (a constraints file, the person's own timeout). */
  extra?: (subject: Subject) => readonly string[]
  /** Files written into both working directories first. */
  files?: Record<string, string>
}

const ok: Fault = { kind: 'ok' }
/** `fault` on the first `times` requests of the project page, everything else served. */
const onPage = (fault: Fault, times = 1) => (subject: Subject): FaultChoice => ({ path, count }) => path === subject.page && count <= times ? fault : ok
const PY = ['pip'] as const
const PIP_AND_NPM = ['pip', 'npm'] as const
const BOTH: readonly Topology[] = ['sole', 'mirror']

export const CASES: readonly DifferentialCase[] = [
  { id: 'one-503', fault: 'one 503 on the project page', tools: ['pip', 'npm', 'pnpm', 'yarn'], topologies: BOTH, index: onPage({ kind: 'status', status: 503 }) },
  { id: 'one-reset', fault: 'one connection reset on the project page', tools: ['pip', 'npm', 'pnpm', 'yarn'], topologies: BOTH, index: onPage({ kind: 'reset' }) },
  // npm waits 10 s, then 60 s between its 2 retries: 2 resets are what it survives.
  { id: 'resets', fault: 'resets on the project page (pip: 3, npm: 2)', tools: PIP_AND_NPM, topologies: BOTH, index: subject => onPage({ kind: 'reset' }, subject.tool === 'pip' ? 3 : 2)(subject) },
  { id: '429', fault: 'one 429 with Retry-After: 1', tools: PIP_AND_NPM, topologies: BOTH, index: onPage({ kind: 'status', status: 429, retryAfter: 1 }) },
  { id: 'long-haul', fault: 'every index answers after 3.5 s', tools: PIP_AND_NPM, topologies: BOTH, index: () => ({ kind: 'delay', ms: 3500 }), mirror: () => ({ kind: 'delay', ms: 3500 }) },
  { id: 'slow-8', fault: 'the index answers after 8 s (a cache miss on each first request)', tools: PIP_AND_NPM, topologies: BOTH,
    index: () => ({ count }) => count === 1 ? { kind: 'delay', ms: 8000 } : ok },
  { id: 'trickle', fault: 'the download trickles in over ~5 s', tools: PIP_AND_NPM, topologies: BOTH,
    index: subject => ({ isFile }) => isFile ? { kind: 'trickle', bytesPerSecond: Math.round(subject.fileBytes / 5) } : ok },
  { id: 'break-80', fault: 'the download breaks at 80 % (once)', tools: ['pip', 'npm', 'pnpm', 'yarn'], topologies: BOTH,
    index: () => ({ isFile, count }) => isFile && count === 1 ? { kind: 'truncate', atFraction: 0.8 } : ok },
  { id: 'dead', fault: 'a dead index (connection refused)', tools: PIP_AND_NPM, topologies: BOTH, index: () => 'refused' },
  { id: 'hang-own-timeout', fault: 'the index hangs; your own short timeout', tools: PIP_AND_NPM, topologies: BOTH,
    index: () => ({ kind: 'blackhole' }), extra: subject => subject.ownTimeout },
  { id: 'all-hang', fault: 'every source hangs; your own short timeout', tools: PIP_AND_NPM, topologies: ['mirror'],
    index: () => ({ kind: 'blackhole' }), mirror: () => ({ kind: 'blackhole' }), extra: subject => subject.ownTimeout },
  { id: 'lagging-mirror', fault: 'a mirror put first lacks the version', tools: PIP_AND_NPM, topologies: ['mirror'], index: () => ok, laggingMirror: true },
  { id: 'constraints', fault: 'one 503, with a constraints file', tools: PY, topologies: BOTH, index: onPage({ kind: 'status', status: 503 }),
    extra: () => ['-c', 'constraints.txt'], files: { 'constraints.txt': 'demo-pkg==1.0\n' } },
]
