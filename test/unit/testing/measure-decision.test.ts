import { describe, expect, it } from 'vitest'
import { diagnose } from '../../../src/diagnose/index.js'
import { commandArgv, couldContact, loopRetries } from '../../support/measure-decision.js'

// The measured decision is the retry loop's: planRun and decideNext on the diagnosis of a pasted output.
const RETRYING = "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by"
const timeout = `${RETRYING} 'ReadTimeoutError("HTTPSConnectionPool(host='pypi.org', port=443): Read timed out. (read timeout=15)")': /simple/requests/\n`
const forbidden = 'ERROR: HTTP error 403 while getting https://pypi.corp.example/simple/acme-tools/\nERROR: 403 Client Error: Forbidden for url: https://pypi.corp.example/simple/acme-tools/\n'

describe('the decision the retry loop makes on a paste', () => {
  it('retries a timeout on the public index on another source', () => {
    expect(loopRetries('pip', diagnose({ tool: 'pip', output: timeout }))).toBe(true)
  })

  it("stops on a 403 from the person's own index, named by the command", () => {
    const argv = commandArgv('pip', 'pip install --index-url https://pypi.corp.example/simple acme-tools', forbidden)
    expect(argv).toEqual(['pip', 'install', '--index-url', 'https://pypi.corp.example/simple', 'acme-tools'])
    expect(loopRetries('pip', diagnose({ tool: 'pip', output: forbidden, command: argv }), argv)).toBe(false)
  })

  it("stops on npm's login challenge although the command named the public registry", () => {
    const challenge = 'npm ERR! code E401\nnpm ERR! Unable to authenticate, need: Basic realm="Artifactory Realm"\n'
    const argv = commandArgv('npm', 'npm install --registry https://registry.npmjs.org', challenge)
    expect(loopRetries('npm', diagnose({ tool: 'npm', output: challenge, command: argv }), argv)).toBe(false)
  })

  it('reads the command a paste shows on its first lines', () => {
    expect(commandArgv('uv', null, '$ uv pip install --index-url "https://x.example/simple" y\nerror: ...')).toEqual(['uv', 'pip', 'install', '--index-url', 'https://x.example/simple', 'y'])
    expect(commandArgv('uv', null, 'error: no command here')).toBeUndefined()
  })

  it('leaves a tool the loop does not run to the diagnosis', () => {
    expect(loopRetries('python', diagnose({ tool: 'python', output: timeout }))).toBeUndefined()
  })

  it("fills the catalog's messages only with hosts the tool could have contacted", () => {
    expect(couldContact('pip', 'mirrors.aliyun.com')).toBe(true)
    expect(couldContact('npm', 'mirrors.aliyun.com')).toBe(false)
    expect(couldContact('npm', 'nexus.corp.example')).toBe(true)
  })
})
