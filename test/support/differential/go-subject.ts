import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Fault, FaultChoice } from '../../../src/demo/fault-server.js'
import { buildGoModule, startGoModuleProxy, type GoModule } from '../go-module-proxy.js'
import { pickVersion, type Subject } from './subject.js'

const MODULE = 'example.test/hello'
const VERSIONS = ['v1.0.0', 'v1.1.0'] as const
// Built once, served the same by every proxy; 1 MB stored in each zip: a break at 80 % has something to resume.
let module: GoModule | undefined
const built = () => (module ??= buildGoModule(MODULE, VERSIONS, 1_000_000))
const ZIP = /\.zip$/

/**
 * A break is the download's: the module's zip. A version's .info and .mod, files too for the proxy protocol, are a few
 * bytes each, and the matrix breaks one file, not three.
 */
function breaksZipsOnly(fault: FaultChoice | undefined): FaultChoice | undefined {
  if (!fault) return fault
  return request => {
    const chosen: Fault = typeof fault === 'function' ? fault(request) : fault
    return chosen.kind === 'truncate' && !ZIP.test(request.path) ? { kind: 'ok' } : chosen
  }
}

/**
 * `go get` in a module of its own, with GOPROXY naming the index (and `direct` after it, as people write it). The
 * module is on no checksum database: GONOSUMDB is the person's setting, as it were, and go still checks every
 * download against go.sum. The module cache in the working directory: nothing cached.
 */
export const go: Subject = {
  tool: 'go',
  ecosystem: 'go',
  // go asks no listing for a version it is given: its first request, the version's .info, stands for the project page.
  page: `/${MODULE}/@v/v1.0.0.info`,
  privateName: 'corp.example/secret',
  get fileBytes() { return built().versions.get('v1.0.0')!.zip.length },
  isFile: path => ZIP.test(path),
  start: ({ role, fault, lacksNewest }) => {
    if (role === 'private') throw new Error('go: no private source case')
    return startGoModuleProxy([built()], { fault: breaksZipsOnly(fault), missing: lacksNewest ? ['v1.1.0'] : [] })
  },
  command: (_index, workdir, { want, extra }) => {
    writeFileSync(join(workdir, 'go.mod'), 'module example.test/app\n\ngo 1.18\n')
    return ['go', 'get', ...extra, want.version === 'any' ? MODULE : `${MODULE}@${pickVersion(want, 'oldest', VERSIONS)}`]
  },
  env: (index, workdir) => ({
    GOPROXY: `${index.replace(/\/$/, '')},direct`, GONOSUMDB: 'example.test', GOFLAGS: '-modcacherw', GO111MODULE: 'on',
    GOMODCACHE: join(workdir, 'modcache'), GOCACHE: join(workdir, 'gocache'),
  }),
  // The version go.mod requires: go writes it once the module was downloaded and checked.
  installed: workdir => {
    const goMod = join(workdir, 'go.mod')
    const required = existsSync(goMod) ? new RegExp(`require ${MODULE} (v\\S+)`).exec(readFileSync(goMod, 'utf8'))?.[1] : undefined
    return required ? [`${MODULE}@${required}`] : []
  },
  expected: (want, version) => [`${MODULE}@${pickVersion(want, version, VERSIONS)}`],
  // go has no timeout or retry setting of its own for a proxy.
  ownTimeout: [],
  readTimeout: [],
}
