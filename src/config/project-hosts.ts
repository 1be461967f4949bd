import { MIRRORS, UPSTREAMS } from '../mirrors/index.js'
import type { Ecosystem } from '../mirrors/types.js'
import type { LoadedConfig } from './load.js'

function hostOf(url: string): string | undefined {
  try {
    return /^https?:\/\//i.test(url) ? new URL(url).hostname.toLowerCase() : undefined
  } catch {
    return undefined
  }
}

/**
 * Hosts outside the catalog that the project config (a cloned repository may carry one) sends installs of
 * `ecosystem` to. They are announced once: a .mirrorrc is an easy place to slip in a malicious index.
 */
export function unknownProjectHosts(loaded: LoadedConfig, ecosystem: Ecosystem): string[] {
  const project = loaded.layers.find(layer => layer.kind === 'project')
  const section = project?.values[ecosystem] as { index?: string; mirrors?: string[]; custom?: Record<string, string> } | undefined
  if (!section) return []
  const known = new Set([UPSTREAMS[ecosystem], ...MIRRORS[ecosystem].map(mirror => mirror.url)].map(hostOf))
  const urls = [section.index, ...(section.mirrors ?? []), ...Object.values(section.custom ?? {})].filter((url): url is string => Boolean(url))
  // Loopback is a local proxy (devpi, verdaccio) or a test server: nothing leaves the machine.
  const loopback = (host: string) => host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)
  const hosts = urls.map(hostOf).filter((host): host is string => host !== undefined && !known.has(host) && !loopback(host))
  return [...new Set(hosts)]
}

/** Announces, once per project config and host, that installs go to hosts outside the catalog. */
export async function announceProjectHosts(loaded: LoadedConfig, ecosystem: Ecosystem, tool: string,
  firstTime: (key: string) => Promise<boolean>, warn: (message: string) => void): Promise<void> {
  const fresh: string[] = []
  for (const host of unknownProjectHosts(loaded, ecosystem)) if (await firstTime(`project-host ${loaded.projectFile} ${host}`)) fresh.push(host)
  if (fresh.length === 0) return
  warn(`${loaded.projectFile} (a project config) sends ${tool} installs to ${fresh.join(', ')}, which ${fresh.length > 1 ? 'are' : 'is'} not in resilient's mirror catalog. `
    + 'This is said once; if you did not put it there, remove it from that file (a cloned repository can carry one).')
}
