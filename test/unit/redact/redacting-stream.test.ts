import { PassThrough } from 'node:stream'
import { setTimeout as wait } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { RedactingStream } from '../../../src/cli/redacting-stream.js'

function capture() {
  const target = new PassThrough()
  const chunks: Buffer[] = []
  target.on('data', (chunk: Buffer) => chunks.push(chunk))
  return { target, text: () => Buffer.concat(chunks).toString('utf8'), bytes: () => Buffer.concat(chunks) }
}

describe('RedactingStream', () => {
  it('masks a secret split across two chunks', async () => {
    const out = capture()
    const stream = new RedactingStream(out.target)
    stream.write('Looking in indexes: https://alice:hun')
    stream.write('ter22@pypi.corp.example/simple\nnext line\n')
    stream.end()
    await wait(10)
    expect(out.text()).toBe('Looking in indexes: https://****@pypi.corp.example/simple\nnext line\n')
  })

  it('lets a prompt without a newline through after a short idle time', async () => {
    const out = capture()
    const stream = new RedactingStream(out.target, 20)
    stream.write('User for pypi.corp.example: ')
    await wait(5)
    expect(out.text()).toBe('')
    await wait(60)
    expect(out.text()).toBe('User for pypi.corp.example: ')
  })

  it('passes bytes untouched when there is nothing to mask, even invalid UTF-8', async () => {
    const out = capture()
    const stream = new RedactingStream(out.target)
    const bytes = Buffer.from([0x66, 0xff, 0xfe, 0x0a, 0x1b, 0x5b, 0x33, 0x31, 0x6d, 0x0d])
    stream.write(bytes)
    stream.end()
    await wait(10)
    expect(out.bytes().equals(bytes)).toBe(true)
  })

  it('redacts progress redraws ending in carriage returns', async () => {
    const out = capture()
    const stream = new RedactingStream(out.target)
    stream.write('GET https://u:passw0rd@h/x 10%\rGET https://u:passw0rd@h/x 100%\r')
    await wait(5)
    expect(out.text()).toBe('GET https://****@h/x 10%\rGET https://****@h/x 100%\r')
  })

  it('flush() writes the held-back rest at once', () => {
    const out = capture()
    const stream = new RedactingStream(out.target, 10_000)
    stream.write('token ghp_0123456789abcdefghijABCDEFGHIJ012345')
    stream.flush()
    return wait(5).then(() => expect(out.text()).toBe('token ****'))
  })
})
