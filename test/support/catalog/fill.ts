import { STATUS_CODES } from 'node:http'

// What varies in a message, in the forms users' logs show: public and private hosts, non-default ports, scoped
// names, pre-release versions, POSIX and Windows paths. A template is filled with one value per name, so that the
// URL, its host and its port agree as they do in a real line.
export const PLACEHOLDER_VALUES = {
  package: ['left-pad', '@acme/ui-kit', 'requests', 'torch_vision', 'Django', 'serde-json', 'golang.org/x/net', 'numpy'],
  version: ['1.0.0', '2.31.0', '0.0.1-beta.3', '10.2', '1.26.4'],
  range: ['^1.2.3', '>=2,<3', '~0.4.0', '*', '4.17.21'],
  host: ['registry.npmjs.org', 'pypi.org', 'mirrors.aliyun.com', 'localhost', 'nexus.corp.example', 'registry.npmmirror.com', 'files.pythonhosted.org'],
  port: ['443', '80', '4873', '8081', '3141'],
  ip: ['127.0.0.1', '104.16.3.35', '10.20.30.40', '::1'],
  status: ['401', '403', '404', '429', '500', '502', '503'],
  'status:5xx': ['500', '502', '503', '504'],
  'status:4xx': ['401', '403', '404', '429'],
  integrity: ['sha512-YKWu/+YVUNuZsvhj4CDcoU0BW+Zk/Lnxs0fq8QFhxyWdrKLX7oZlTQ59lwqMqB7PDVeiUi8Hxsic0Il2oRkO3A==', 'sha1-LM4onbGaxorhWIvmiI3gTzmzQFA='],
  path: ['/home/dev/.cache/pip/wheels/ab', 'C:\\Users\\Dev\\AppData\\Local\\Yarn\\Cache\\v6', '/usr/local/lib/node_modules/acme', '/opt/conda/pkgs/cache/7f3a.json'],
  pid: ['1234', '98765'],
  n: ['15', '30', '271', '120'],
  python: ['3.8.18', '3.12.1', '3.11'],
} as const satisfies Record<string, readonly string[]>

export type Placeholder = keyof typeof PLACEHOLDER_VALUES
const PLACEHOLDER = /\{(status:[45]xx|[a-z]+)\}/g

/** The placeholders a template uses, once each (`url` and `reason` are made from others). */
export function placeholdersOf(template: string): Placeholder[] {
  const names = new Set<Placeholder>(['host', 'port'])
  for (const [, name] of template.matchAll(PLACEHOLDER)) if (name! in PLACEHOLDER_VALUES) names.add(name as Placeholder)
  if (template.includes('{reason}') && !template.includes('{status')) names.add('status')
  return [...names]
}

/** The template with one value per placeholder; `choose` picks among PLACEHOLDER_VALUES (a generator, a seed). */
export function fillTemplate(template: string, choose: (name: Placeholder, values: readonly string[]) => string): string {
  const value = new Map(placeholdersOf(template).map(name => [name, choose(name, PLACEHOLDER_VALUES[name])]))
  const status = value.get('status:5xx') ?? value.get('status:4xx') ?? value.get('status') ?? '500'
  const port = value.get('port')!
  const scheme = port === '80' ? 'http' : 'https'
  const authority = port === '443' || port === '80' ? value.get('host')! : `${value.get('host')}:${port}`
  const url = `${scheme}://${authority}/${value.get('package') ?? 'simple'}`
  return template.replace(/\{(status:[45]xx|[a-z]+)\}/g, (whole, name: string) =>
    name === 'url' ? url : name === 'reason' ? (STATUS_CODES[status] ?? 'Error') : name.startsWith('status') ? status : value.get(name as Placeholder) ?? whole)
}

/** What CI systems and terminals put around a tool's line (src/diagnose/normalize.ts removes all of it). */
export const DECORATIONS = {
  ci: ['', '2024-05-01T12:00:00.1234567Z ', '##[error]', '[12:01:02] ', '#12 3.456 ', 'app-1  | '],
  colour: ['', '\x1b[31m', '\x1b[1m\x1b[31m'],
  ending: ['\n', '\r\n'],
} as const

export interface Decoration {
  ci: string
  colour: string
  ending: string
}

/** A filled message as a log shows it: CI prefix, the tool's own prefix in colour, and the line ending. */
export function decorate(line: string, prefix: string, { ci, colour, ending }: Decoration): string {
  const reset = colour ? '\x1b[39m\x1b[22m' : ''
  const body = line.split('\n').map(part => `${ci}${colour}${prefix}${reset}${part}`).join(ending)
  return `${body}${ending}`
}
