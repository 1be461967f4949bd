import type { Fault, FaultChoice } from '../../../src/demo/fault-server.js'
import type { Subject, Want } from './subjects.js'

/** Where the install may go: its index alone (an index of the person's own), or the index and a healthy mirror. */
export type Topology = 'sole' | 'mirror'

/**
 * One network condition of the differential matrix (the table): what the index does, on which tools and
 * topologies it is run. The plain tool always talks to the index alone; resilient gets the same command, and in the
 * `mirror` topology a configuration that names the index and one mirror (test/support/differential/run.ts).
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
   * What is installed: the public package's oldest version unless said. `private`: a source of the person's own
   * beside the index serves it (Subject.privateSource), and the mirror has a look-alike of a higher version.
   */
  want?: Want
  /** With `want.version: 'any'`, what the index lists makes the tool pick: what the plain tool installs, and what resilient must. */
  installs?: 'oldest' | 'newest'
  /** Which sources lack the public package's newest version: a lagging mirror; an index that took the release down. */
  lacksNewest?: { index?: boolean; mirror?: boolean }
  /** The mirror is put first with --mirror; the plain tool is pointed at that mirror, as `--mirror` asks. */
  mirrorFirst?: boolean
  /** An HTTP proxy in HTTP_PROXY and http_proxy for both runs, tunnelling (CONNECT) to port 443 only, as Squid by default. */
  proxy443?: boolean
  /**
   * Every source on https, its self-signed certificate trusted by the tool's own option (Subject.trust); with
   * `clientCertificate`, answering only a client that presents the person's certificate.
   */
  tls?: { clientCertificate: boolean }
  /**
   * Two runs, each in a new project: the second with the tool's cache kept and, for resilient, a new state directory
   * (CI restoring the tool's cache only). The files fetched again on the second run are judged.
   */
  cacheRestored?: boolean
  /**
   * Why pip's and npm's runs in the `mirror` topology do not go through the relay, where the relay steps aside by
   * design; otherwise they must (the e2e test checks resilient's report).
   */
  relayStepsAside?: string
  /**
   * With a mirror, a case resilient should win (the matrix's goal for every tool): complete where the plain tool
   * fails, or in at most half its time; `bytesAtMost`: fetching at most that many times the file's bytes. Where a
   * tool cannot, by design, its subject says why (Subject.notWon).
   */
  shouldWin?: { bytesAtMost?: number }
  /** Arguments added to the command for both runs (a constraints file, the person's own timeout). */
  extra?: (subject: Subject) => readonly string[]
  /** Files written into both working directories first. */
  files?: Record<string, string>
}

const ok: Fault = { kind: 'ok' }
/** `fault` on the first `times` requests of the project page, everything else served. */
const onPage = (fault: Fault, times = 1) => (subject: Subject): FaultChoice => ({ path, count }) => path === subject.page && count <= times ? fault : ok
/** Every page (not a file) `ms` late. */
const slowPages = (ms: number) => (): FaultChoice => ({ isFile }) => isFile ? ok : { kind: 'delay', ms }
/** Every file at a rate that makes the public package's download last `seconds`. */
const slowFiles = (seconds: number) => (subject: Subject): FaultChoice => ({ isFile }) => isFile ? { kind: 'trickle', bytesPerSecond: Math.round(subject.fileBytes / seconds) } : ok
/**
 * The index fails the private name's page, as public indexes do at times, which tempts a fail-over to the mirror and
 * its look-alike: pip's index one 503, then its usual 404 (issue 37's row); npm's always 503 (plain npm never asks
 * it: the scope's registry answers for the name).
 */
const failsPrivateName = (subject: Subject): FaultChoice => ({ path, count }) =>
  path.includes(subject.privateName) && (subject.tool !== 'pip' || count === 1) ? { kind: 'status', status: 503 } : ok
const PY = ['pip'] as const
const PIP_AND_NPM = ['pip', 'npm'] as const
const ALL = ['pip', 'npm', 'pnpm', 'yarn', 'berry', 'bun'] as const
/** cargo, go and the Python applications: the six faults, the index alone and with a mirror. */
const OTHERS = ['cargo', 'go', 'pipx', 'pdm', 'poetry'] as const
const EVERY = [...ALL, ...OTHERS] as const
const BOTH: readonly Topology[] = ['sole', 'mirror']
const ANY: Want = { package: 'public', version: 'any' }

export const CASES: readonly DifferentialCase[] = [
  { id: 'one-503', fault: 'one 503 on the project page', tools: EVERY, topologies: BOTH, index: onPage({ kind: 'status', status: 503 }), shouldWin: {} },
  { id: 'one-reset', fault: 'one connection reset on the project page', tools: EVERY, topologies: BOTH, index: onPage({ kind: 'reset' }) },
  // npm waits 10 s, then 60 s between its 2 retries: 2 resets are what it survives.
  { id: 'resets', fault: 'resets on the project page (pip: 3, npm: 2)', tools: PIP_AND_NPM, topologies: BOTH, index: subject => onPage({ kind: 'reset' }, subject.tool === 'pip' ? 3 : 2)(subject) },
  { id: '429', fault: 'one 429 with Retry-After: 1', tools: EVERY, topologies: BOTH, index: onPage({ kind: 'status', status: 429, retryAfter: 1 }) },
  { id: 'long-haul', fault: 'every index answers after 3.5 s', tools: PIP_AND_NPM, topologies: BOTH, index: () => ({ kind: 'delay', ms: 3500 }), mirror: () => ({ kind: 'delay', ms: 3500 }) },
  { id: 'slow-8', fault: 'the index answers after 8 s (a cache miss on each first request)', tools: PIP_AND_NPM, topologies: BOTH,
    index: () => ({ count }) => count === 1 ? { kind: 'delay', ms: 8000 } : ok },
  { id: 'trickle', fault: 'the download trickles in over ~5 s', tools: PIP_AND_NPM, topologies: BOTH, index: slowFiles(5) },
  { id: 'break-80', fault: 'the download breaks at 80 % (once)', tools: EVERY, topologies: BOTH,
    index: () => ({ isFile, count }) => isFile && count === 1 ? { kind: 'truncate', atFraction: 0.8 } : ok, shouldWin: { bytesAtMost: 1.1 } },
  // The tool's waits between its retries short where a person may set them (pnpm's): they only stretch its failure.
  { id: 'dead', fault: 'a dead index (connection refused)', tools: EVERY, topologies: BOTH, index: () => 'refused', shouldWin: {}, extra: subject => subject.shortRetryWaits ?? [] },
  { id: 'hang-own-timeout', fault: 'the index hangs; your own short timeout', tools: PIP_AND_NPM, topologies: BOTH,
    index: () => ({ kind: 'blackhole' }), extra: subject => subject.ownTimeout },
  { id: 'all-hang', fault: 'every source hangs; your own short timeout', tools: PIP_AND_NPM, topologies: ['mirror'],
    index: () => ({ kind: 'blackhole' }), mirror: () => ({ kind: 'blackhole' }), extra: subject => subject.ownTimeout },
  { id: 'lagging-mirror', fault: 'a mirror put first lacks the version', tools: PIP_AND_NPM, topologies: ['mirror'], index: () => ok,
    want: { package: 'public', version: 'newest' }, lacksNewest: { mirror: true }, mirrorFirst: true },
  { id: 'constraints', fault: 'one 503, with a constraints file', tools: PY, topologies: BOTH, index: onPage({ kind: 'status', status: 503 }),
    extra: () => ['-c', 'constraints.txt'], files: { 'constraints.txt': 'demo-pkg==1.0\n' } },
  // Issue 37: the index decides what exists; mirrors only carry bytes it vouches for. No version asked: which one
  // is installed is what the index lists.
  { id: 'slow-index-lagging-mirror', fault: 'index pages 1.5 s late, the mirror lacks the newest version; no version asked', tools: EVERY, topologies: ['mirror'],
    index: slowPages(1500), lacksNewest: { mirror: true }, want: ANY, installs: 'newest' },
  { id: 'one-503-lagging-mirror', fault: 'one 503 on the project page, the mirror lacks the newest version; no version asked', tools: ALL, topologies: ['mirror'],
    index: onPage({ kind: 'status', status: 503 }), lacksNewest: { mirror: true }, want: ANY, installs: 'newest' },
  { id: 'removed-release', fault: 'the index took its newest release down, the mirror still has it; index pages 1.5 s late; no version asked', tools: ALL, topologies: ['mirror'],
    index: slowPages(1500), lacksNewest: { index: true }, want: ANY, installs: 'oldest' },
  { id: 'private-source', fault: 'a private source beside the index (pip --extra-index-url; npm: the scope\'s registry in the environment; pnpm, yarn: in .npmrc), the index failing the name, a look-alike on the mirror', tools: ALL, topologies: ['mirror'],
    index: failsPrivateName, want: { package: 'private', version: 'any' } },
  // The tool's read timeout shorter than the download: it must hear the file's bytes as they come, never silence.
  { id: 'slow-link', fault: 'a slow link: every file trickles in over ~5.5 s, from every source; pip\'s own --timeout 3', tools: PIP_AND_NPM, topologies: ['mirror'],
    index: slowFiles(5.5), mirror: slowFiles(5.5), extra: subject => subject.readTimeout },
  { id: 'proxy-443', fault: 'an HTTP proxy allowing CONNECT to port 443 only, before a plain-http index', tools: PIP_AND_NPM, topologies: BOTH, index: () => ok, proxy443: true },
  { id: 'pinned-lockfile', fault: 'npm ci, the lockfile pinning registry.npmjs.org\'s URLs, the index elsewhere', tools: ['npm'], topologies: ['mirror'], index: () => ok,
    want: { package: 'pinned', version: 'any' } },
  { id: 'client-certificate', fault: 'an https index that wants a client certificate', tools: PY, topologies: ['mirror'], index: () => ok, tls: { clientCertificate: true },
    relayStepsAside: 'the relay has no client certificate to present' },
  // On https, as PyPI and npmjs are: pip keeps no HTTP cache for a plain-http index it was not told to trust.
  { id: 'cache-restored', fault: 'a second run with the tool\'s cache restored and resilient\'s state new (https)', tools: PIP_AND_NPM, topologies: ['mirror'], index: () => ok,
    tls: { clientCertificate: false }, cacheRestored: true },
]
