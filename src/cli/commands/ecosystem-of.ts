import { UsageError } from '../../errors.js'
import { TOOLS } from '../../tools/index.js'
import { ECOSYSTEMS, MIRRORS, UPSTREAMS } from '../../mirrors/index.js'
import type { Ecosystem } from '../../mirrors/types.js'
import { hostAndPortOf, sameIndex } from '../../url.js'

/** An ecosystem from its name or from a tool that uses it (`pypi`, `pip`, `npm`). */
export function parseEcosystem(name: string): Ecosystem {
  const lower = name.toLowerCase()
  if ((ECOSYSTEMS as string[]).includes(lower)) return lower as Ecosystem
  const tool = (TOOLS as Record<string, { ecosystem: Ecosystem }>)[lower]
  if (tool) return tool.ecosystem
  throw new UsageError(`"${name}" is not an ecosystem resilient knows.`, `Use one of: ${ECOSYSTEMS.join(', ')} (or a tool name such as pip).`)
}

// The shapes of index URLs, for a URL that is in no catalog: PEP 503's /simple, the usual words in a host or path.
const SHAPES: [Ecosystem, RegExp][] = [
  ['pypi', /\/simple\/?$|pypi/i],
  ['npm', /npm|registry/i],
  ['crates', /crates/i],
  ['go', /goproxy|\/go\/?$/i],
  ['conda', /conda/i],
]

/** The ecosystem an index URL serves: a catalog or upstream host first, then the URL's shape. */
export function guessEcosystem(url: string): Ecosystem | undefined {
  const host = hostAndPortOf(url)
  const exact = ECOSYSTEMS.filter(ecosystem => [UPSTREAMS[ecosystem], ...MIRRORS[ecosystem].map(mirror => mirror.url)]
    .some(known => sameIndex(known, url)))
  if (exact.length === 1) return exact[0]
  const byHost = ECOSYSTEMS.filter(ecosystem => host !== undefined && [UPSTREAMS[ecosystem], ...MIRRORS[ecosystem].map(mirror => mirror.url)].some(known => hostAndPortOf(known) === host))
  if (byHost.length === 1) return byHost[0]
  return SHAPES.find(([, shape]) => shape.test(url))?.[0]
}
