import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startPypiServer, type PypiServer } from '../../../src/demo/pypi-server.js'
import { buildWheel } from '../../../src/demo/wheel.js'
import { isolatedEnv } from '../../helpers/isolated-env.js'

/**
 * The transcripts of README.md and docs/ that come from a real run: each starts its servers on 127.0.0.1, runs the
 * built `bin/resilient` as a person would (stdout and stderr into one file, in the order written), and gives what it
 * printed under the command line, with what changes from run to run made stable: ports (in order of appearance,
 * 8001 on), the relay's loopback address (127.2.87.216), the temporary folder (`/tmp`), the home folder (`/home/me`), run directories and file names that carry a
 * process id or a random part. `npm run docs:transcripts` writes them into the documents;
 * test/e2e/transcripts.e2e.test.ts runs them again and compares.
 */
export interface Scenario {
  id: string
  /** The document its block is in. */
  file: string
  /** Commands it needs besides node (pip, npm, openssl). */
  needs: string[]
  run(root: string): Promise<string>
}

interface Scene {
  /** What the reader sees after `$ resilient`. */
  shown: string
  args: string[]
  env: Record<string, string>
  cwd: string
  home: string
  temp: string
}

/** Runs bin/resilient with stdout and stderr as one file, as `2>&1` into a file would; resolves with that file's text. */
async function recorded(root: string, scene: Scene): Promise<string> {
  const file = join(scene.temp, 'output.txt')
  const fd = openSync(file, 'w')
  try {
    const child = spawn(join(root, 'bin', 'resilient'), scene.args, { cwd: scene.cwd, env: scene.env, stdio: ['ignore', fd, fd] })
    await new Promise<void>((resolve, reject) => {
      child.once('error', reject)
      child.once('exit', () => resolve())
    })
    return stable(`$ resilient ${scene.shown}\n${readFileSync(file, 'utf8')}`, scene)
  } finally {
    closeSync(fd)
    rmSync(scene.temp, { recursive: true, force: true })
  }
}

/** The text with what differs from run to run replaced, the same way every time (see Scenario). */
export function stable(text: string, scene: Pick<Scene, 'home' | 'temp'>): string {
  const ports = new Map<string, string>()
  const hosts = new Map<string, string>()
  return text
    .split(scene.home).join('/home/me')
    .split(scene.temp).join('/tmp')
    .replace(/\/tmp\/resilient-run-\d+-\w{6}/g, '/tmp/resilient-run-28533-AUTV3c')
    .replace(/\b((?:netrc|npmrc|pip|config)-)[0-9a-f]{8}\b/g, '$1c0ffee1')
    .replace(/(127\.\d+\.\d+\.\d+|localhost)(:|', port=)(\d{2,5})\b/g, (_, host: string, between: string, port: string) => {
      if (!ports.has(port)) ports.set(port, String(8001 + ports.size))
      // The relay's own loopback address (127.x.y.z, one per user) as one fixed address.
      if (host !== '127.0.0.1' && host !== 'localhost' && !hosts.has(host)) hosts.set(host, `127.2.87.${216 + hosts.size}`)
      return `${hosts.get(host) ?? host}${between}${ports.get(port)}`
    })
    .trimEnd()
}

/** A scene in a fresh temporary folder: an isolated HOME (no settings of this machine), TMPDIR inside it. */
function scene(shown: string, extra: Record<string, string> = {}): Scene {
  const temp = mkdtempSync(join(tmpdir(), 'resilient-transcript-'))
  const env = isolatedEnv({ TMPDIR: temp, ...extra })
  const cwd = join(temp, 'project')
  mkdirSync(cwd)
  return { shown, args: shown.split(' '), env, cwd, home: env.HOME!, temp }
}

/** resilient's user config, as a person writes it (a project config naming other hosts would need trust). */
function userConfig(at: Scene, config: unknown): void {
  const dir = join(at.env.XDG_CONFIG_HOME!, 'resilient')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config))
}

/**
 * `at` run with a black-holed index and a healthy mirror on 127.0.0.1, both named in the user config (a run can
 * replace that index by that mirror), as `npm run demo` stages it.
 */
async function againstDeadIndex(root: string, at: Scene): Promise<string> {
  const wheels = [buildWheel('demo-pkg', '1.0')]
  const servers: PypiServer[] = [await startPypiServer({ wheels, fault: { kind: 'blackhole' } }), await startPypiServer({ wheels })]
  try {
    userConfig(at, { pypi: { index: servers[0]!.url, mirrors: [servers[1]!.url] } })
    return await recorded(root, at)
  } finally {
    await Promise.all(servers.map(server => server.close()))
  }
}

/** An HTTPS index whose certificate nothing trusts (a self-signed one, made with openssl for 127.0.0.1). */
async function untrustedIndex(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')]
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' })
  if (made.status !== 0) throw new Error('openssl could not make a certificate')
  const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_request, response) => response.writeHead(404).end())
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return { url: `https://127.0.0.1:${port}/simple`, close: () => new Promise(resolve => server.close(() => resolve())) }
}

export const SCENARIOS: Scenario[] = [
  {
    id: 'no-relay-mirror',
    file: 'README.md',
    needs: ['pip'],
    run(root) {
      const at = scene('--no-relay pip download --no-deps -d /tmp/wheels demo-pkg')
      at.args = ['--no-relay', 'pip', 'download', '--no-deps', '-d', join(at.temp, 'wheels'), 'demo-pkg']
      return againstDeadIndex(root, at)
    },
  },
  {
    id: 'tls-untrusted',
    file: 'README.md',
    needs: ['pip', 'openssl'],
    async run(root) {
      const at = scene('')
      const index = await untrustedIndex(at.temp)
      try {
        at.shown = `--no-input pip download --index-url ${index.url} internal-lib`
        at.args = at.shown.split(' ')
        return await recorded(root, at)
      } finally {
        await index.close()
      }
    },
  },
  {
    id: 'ci-github-actions',
    file: 'docs/ci.md',
    needs: ['pip'],
    run(root) {
      return againstDeadIndex(root, scene('--no-relay pip download --no-deps -d wheels demo-pkg', { GITHUB_ACTIONS: 'true', CI: 'true' }))
    },
  },
  {
    id: 'plan-dry-run',
    file: 'docs/plan.md',
    needs: ['npm'],
    run(root) {
      const at = scene('-n npm ci')
      userConfig(at, { npm: { index: 'https://npm.company.example/', mirrors: ['npmmirror'] } })
      writeFileSync(join(at.cwd, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { 'left-pad': '^1.3.0' } }))
      writeFileSync(join(at.cwd, 'package-lock.json'), JSON.stringify({ name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true, packages: {
        '': { name: 'app', version: '1.0.0', dependencies: { 'left-pad': '^1.3.0' } },
        'node_modules/left-pad': { version: '1.3.0', resolved: 'https://npm.company.example/left-pad/-/left-pad-1.3.0.tgz', integrity: 'sha512-XI5MPzVNApjAyhQzphX8BkmKsKUxD4LdyK24iZeQEhslQaAzmcfx0eHu9Owd27QxnR+N3ApZLpxJN8QSZeBgrA==' },
      } }, null, 2))
      return recorded(root, at)
    },
  },
  {
    id: 'shim-install',
    file: 'docs/shims.md',
    needs: [],
    run(root) {
      const at = scene('shim install', { SHELL: '/bin/bash' })
      // The tools found on PATH: pip, pip3 and npm (stand-ins; a shim is written for any executable of the name).
      const bin = join(at.temp, 'bin')
      mkdirSync(bin)
      for (const name of ['pip', 'pip3', 'npm']) {
        writeFileSync(join(bin, name), '#!/bin/sh\nexit 0\n')
        chmodSync(join(bin, name), 0o755)
      }
      // node, which bin/resilient starts, alone in a folder of its own: no other tool of this machine is on PATH.
      const node = join(at.temp, 'node-bin')
      mkdirSync(node)
      symlinkSync(process.execPath, join(node, 'node'))
      at.env.PATH = `${bin}:${node}`
      return recorded(root, at)
    },
  },
  {
    id: 'relay-dry-run',
    file: 'docs/relay.md',
    needs: ['pip'],
    run(root) {
      return recorded(root, scene('-n pip install torch'))
    },
  },
]
