import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startPypiServer } from '../../../src/demo/pypi-server.js'
import { buildWheel, type BuiltWheel } from '../../../src/demo/wheel.js'
import { pickVersion, type Subject } from './subject.js'

// Built once: every server given them serves identical bytes, as a real mirror does.
let wheels: { public: [BuiltWheel, BuiltWheel]; private: BuiltWheel; lookAlike: BuiltWheel } | undefined
const pyPackages = () => (wheels ??= {
  public: [buildWheel('demo-pkg', '1.0', { paddingBytes: 100_000 }), buildWheel('demo-pkg', '2.0', { paddingBytes: 100_000 })],
  private: buildWheel('privpkg', '1.0.0'),
  lookAlike: buildWheel('privpkg', '9.9.9'),
})
const PIP_VERSIONS = ['1.0', '2.0'] as const

/** pip download, into the project's `wheels` folder. */
export const pip: Subject = {
  tool: 'pip',
  ecosystem: 'pypi',
  page: '/simple/demo-pkg/',
  privateName: 'privpkg',
  get fileBytes() { return pyPackages().public[0].bytes.length },
  isFile: path => path.startsWith('/files/'),
  start: async ({ role, fault, lacksNewest, cacheable }) => {
    const all = pyPackages()
    const served = role === 'private' ? [all.private] : [...all.public, ...role === 'mirror' ? [all.lookAlike] : []]
    return startPypiServer({ wheels: served, fault, missing: lacksNewest ? ['demo-pkg==2.0'] : [], likePypi: cacheable })
  },
  command: (index, workdir, { want, extra }) => {
    const requirement = want.package === 'private' ? 'privpkg' : want.version === 'any' ? 'demo-pkg' : `demo-pkg==${pickVersion(want, 'oldest', PIP_VERSIONS)}`
    return ['python3', '-m', 'pip', 'download', '--no-deps', '-d', join(workdir, 'wheels'), '--index-url', index, ...extra, requirement]
  },
  // The wheels pip left in the download folder; the look-alike known by its bytes.
  installed: workdir => {
    const dir = join(workdir, 'wheels')
    const lookAlike = pyPackages().lookAlike.sha256
    return (existsSync(dir) ? readdirSync(dir) : []).filter(name => name.endsWith('.whl')).sort().map(name => {
      const [project, version] = name.split('-')
      const digest = createHash('sha256').update(readFileSync(join(dir, name))).digest('hex')
      return `${project!.replace(/_/g, '-')}==${version}${digest === lookAlike ? ' (look-alike)' : ''}`
    })
  },
  expected: (want, version) => [want.package === 'private' ? 'privpkg==1.0.0' : `demo-pkg==${pickVersion(want, version, PIP_VERSIONS)}`],
  privateSource: url => ({ args: ['--extra-index-url', url] }),
  trust: (certificates, clientCertificate) => ({ args: ['--cert', certificates.server, ...clientCertificate ? ['--client-cert', certificates.clientBoth] : []] }),
  ownTimeout: ['--timeout', '3', '--retries', '0'],
  readTimeout: ['--timeout', '3'],
  notWon: { 'one-503': 'pip asks again at once after a 503 itself (its urllib3 retries: the first waits nothing): plain pip loses nothing to it' },
}
