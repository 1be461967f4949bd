import { parse } from 'smol-toml'
import { describe, expect, it } from 'vitest'
import { pixiRelay, relayConfigText } from '../../../../src/tools/relay/pixi-relay.js'
import { folderWith } from '../../../helpers/tool-cases.js'

const RELAY = 'http://127.3.2.1:8001/t/s3cret/'
const support = pixiRelay(undefined, () => undefined)
/** pixi's trust in a folder with these home files and variables. */
const trustWith = (home: Record<string, string>, env: NodeJS.ProcessEnv = {}, cwdFiles: Record<string, string> = {}) =>
  support.trust({ args: ['install'], env, home: folderWith(home), cwd: folderWith(cwdFiles) })

describe('pixi through the relay', () => {
  it('sends the index and what a mirror attempt redirects to the relay; token channels and other settings stay', () => {
    const config = parse(relayConfigText({ concurrency: { downloads: 4 } }, 'https://conda.anaconda.org', RELAY)) as { mirrors: Record<string, string[]>; concurrency: unknown }
    expect(config.mirrors['https://conda.anaconda.org/']).toEqual([RELAY])
    expect(config.mirrors['https://prefix.dev/']).toEqual([RELAY])
    expect(config.mirrors['https://conda.anaconda.org/t/']).toEqual(['https://conda.anaconda.org/t/'])
    expect(config.concurrency).toEqual({ downloads: 4 })
    const own = parse(relayConfigText({}, 'http://127.0.0.1:4001/', RELAY)) as { mirrors: Record<string, string[]> }
    expect(own.mirrors['http://127.0.0.1:4001/']).toEqual([RELAY])
  })

  it('knows where pixi finds credentials by itself: auth files, netrc, a keyring it cannot read', () => {
    expect(trustWith({}).credentials).toEqual({})
    expect(trustWith({ '.rattler/credentials.json': '{"conda.anaconda.org": {"CondaToken": "x"}}' }).credentials).toMatchObject({ 'conda.anaconda.org': expect.stringContaining('credentials.json') })
    expect(trustWith({ '.netrc': 'machine prefix.dev login a password b\n' }).credentials).toMatchObject({ 'prefix.dev': expect.stringContaining('.netrc') })
    expect(trustWith({}, { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1/bus' }).credentials).toMatchObject({ '*': expect.stringContaining('keyring') })
    // Credentials for a host whose channels the relay's config would take keep pixi off the relay.
    expect(trustWith({ '.netrc': 'machine prefix.dev login a password b\n' }).carries).toMatch(/credentials for prefix\.dev/)
  })

  it('says what it cannot carry: its own mirrors, its proxy config, unverified TLS', () => {
    expect(trustWith({ '.pixi/config.toml': '[mirrors]\n"https://conda.anaconda.org" = ["https://m.test"]\n' }).carries).toBe('its own [mirrors] (your pixi config)')
    expect(trustWith({ '.pixi/config.toml': '[proxy-config]\nhttps = "http://proxy.corp:3128"\n' }).proxy).toBe('[proxy-config] in your pixi config')
    expect(trustWith({ '.pixi/config.toml': 'tls-no-verify = true\n' }).unverified).toEqual(['*'])
    expect(trustWith({}, { HTTPS_PROXY: 'http://proxy.corp:3128', NO_PROXY: 'corp' }).noProxy).toBe('corp')
  })

  it('never when pixi would log its mirrors, the relay\'s secret among them: -vv and more, or RUST_LOG without -v/-q', () => {
    const on = (env: NodeJS.ProcessEnv) => pixiRelay({ env, home: '/', scratch: { path: '/' } }, () => undefined)
    expect(on({}).unsupported!(['install', '-v'])).toBeUndefined()
    expect(on({}).unsupported!(['-vv', 'install'])).toMatch(/-vv and more print its mirrors/)
    expect(on({}).unsupported!(['install', '-v', '--verbose'])).toMatch(/-vv/)
    expect(on({}).unsupported!(['run', '--', 'x', '-vv'])).toBeUndefined()
    expect(on({ RUST_LOG: 'debug' }).unsupported!(['install'])).toMatch(/RUST_LOG/)
    expect(on({ RUST_LOG: 'debug' }).unsupported!(['install', '-q'])).toBeUndefined()
  })

  it('waits as pixi does: its five-minute read timeout', () => expect(support.readTimeoutMs({ args: [], env: {}, cwd: '/', home: '/' })).toBe(300_000))
})
