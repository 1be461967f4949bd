import { withSection } from '../docs/section.js'
import { MIRRORS, UPSTREAMS } from './index.js'
import type { MirrorRegion } from './types.js'

const WHERE: Record<MirrorRegion, string> = { cn: 'mainland China', kr: 'South Korea', global: 'worldwide CDN' }

/** docs/mirrors.md's table of the built-in catalog, from src/mirrors/ (`npm run docs:mirrors`). */
export function renderMirrorCatalog(): string {
  const rows = (Object.keys(MIRRORS) as (keyof typeof MIRRORS)[]).flatMap(ecosystem => [
    `| ${ecosystem} | upstream | ${UPSTREAMS[ecosystem]} | the index itself | — |`,
    ...MIRRORS[ecosystem].map(mirror => `| ${ecosystem} | \`${mirror.id}\` | ${mirror.url} | ${mirror.region ? WHERE[mirror.region] : '?'} | ${mirror.checkedOn} |`),
  ])
  return ['| ecosystem | name | URL | where | checked |', '| --- | --- | --- | --- | --- |', ...rows].join('\n') + '\n'
}

export function withMirrorCatalog(page: string): string {
  return withSection(page, 'mirror-catalog', renderMirrorCatalog())
}
