import { describe, expect, it } from 'vitest'
import { currentNetwork } from '../../../src/state/network.js'

const files = (table: Record<string, string>) => (path: string) => table[path]

describe('currentNetwork', () => {
  it('tells networks apart by resolver', () => {
    const home = currentNetwork({}, files({ '/etc/resolv.conf': 'nameserver 192.168.1.1\n' }))
    const office = currentNetwork({}, files({ '/etc/resolv.conf': 'search corp\nnameserver 10.0.0.2\nnameserver 10.0.0.3\n' }))
    expect(home.label).toBe('resolver 192.168.1.1')
    expect(office.label).toBe('resolver 10.0.0.2 10.0.0.3')
    expect(home.key).not.toBe(office.key)
    expect(currentNetwork({}, files({ '/etc/resolv.conf': 'nameserver 192.168.1.1\n' })).key).toBe(home.key)
  })

  it("reads systemd-resolved's upstream servers behind its stub", () => {
    const network = currentNetwork({}, files({ '/etc/resolv.conf': 'nameserver 127.0.0.53\n', '/run/systemd/resolve/resolv.conf': 'nameserver 9.9.9.9\n' }))
    expect(network.label).toBe('resolver 9.9.9.9')
  })

  it('includes the proxy without its credentials', () => {
    const network = currentNetwork({ HTTPS_PROXY: 'http://alice:s3cret@proxy.corp:3128' }, files({}))
    expect(network.label).toBe('proxy proxy.corp:3128')
    expect(JSON.stringify(network)).not.toContain('s3cret')
    expect(currentNetwork({}, files({})).key).not.toBe(network.key)
  })

  it('falls back to one unknown network', () => {
    expect(currentNetwork({}, files({})).label).toBe('unknown network')
  })
})
