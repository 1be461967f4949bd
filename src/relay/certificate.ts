import { generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import { isIP } from 'node:net'

/**
 * A TLS certificate for one run's relay, for the tools that send credentials over https only (go: cmd/go/internal/web
 * http.go adds netrc credentials when the scheme is https, and refuses userinfo on an http URL; seen with go 1.19).
 * Self-signed, for the relay's loopback address alone, valid for a day; its key never leaves this process's memory.
 * Node can read certificates but not write them, so the few DER structures of RFC 5280 are spelled out here.
 */
export interface RelayCertificate {
  /** PEM, for the tool's trust store (a file in the run's private directory). */
  cert: string
  /** PEM: held by the relay only. */
  key: string
}

function length(size: number): Buffer {
  if (size < 0x80) return Buffer.from([size])
  const bytes: number[] = []
  for (let rest = size; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}
const der = (tag: number, ...content: Buffer[]) => {
  const body = Buffer.concat(content)
  return Buffer.concat([Buffer.from([tag]), length(body.length), body])
}
const sequence = (...content: Buffer[]) => der(0x30, ...content)
const oid = (hex: string) => der(0x06, Buffer.from(hex, 'hex'))
// 1.2.840.10045.4.3.2 ecdsa-with-SHA256, 2.5.4.3 commonName, 2.5.29.17 subjectAltName, 2.5.29.19 basicConstraints.
const ECDSA_SHA256 = sequence(oid('2a8648ce3d040302'))
const COMMON_NAME = oid('550403')
const SUBJECT_ALT_NAME = oid('551d11')
const BASIC_CONSTRAINTS = oid('551d13')

/**
 * A DER INTEGER for a positive number given as big-endian bytes: the shortest form (X.690 8.3.2; OpenSSL refuses a
 * leading zero byte the next byte does not need as "illegal padding"), with a zero byte where the top bit is set.
 */
export function positiveInteger(bytes: Buffer): Buffer {
  let start = 0
  while (start < bytes.length - 1 && bytes[start] === 0) start++
  const digits = bytes.subarray(start)
  return der(0x02, digits[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), digits]) : digits)
}
const utcTime = (date: Date) => der(0x17, Buffer.from(`${date.toISOString().slice(2, 19).replace(/[-T:]/g, '')}Z`))
const name = (text: string) => sequence(der(0x31, sequence(COMMON_NAME, der(0x0c, Buffer.from(text)))))

function altName(host: string): Buffer {
  if (isIP(host) === 4) return der(0x87, Buffer.from(host.split('.').map(Number)))
  return der(0x82, Buffer.from(host))
}

/** A certificate naming `hosts` (IPv4 addresses or host names), self-signed with a new P-256 key. */
export function relayCertificate(hosts: readonly string[], now = new Date(), random: (size: number) => Buffer = randomBytes): RelayCertificate {
  const host = hosts[0] ?? '127.0.0.1'
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  // RFC 5280 4.1.2.2: positive, at most 20 bytes; a random one so no two runs' certificates share a serial.
  const serial = Buffer.from(random(16))
  serial[15]! |= 1
  const extensions = der(0xa3, sequence(
    sequence(SUBJECT_ALT_NAME, der(0x04, sequence(...[...new Set(hosts)].map(altName)))),
    // Not a CA: it can vouch for nothing but itself.
    sequence(BASIC_CONSTRAINTS, der(0x01, Buffer.from([0xff])), der(0x04, sequence())),
  ))
  const tbs = sequence(
    der(0xa0, der(0x02, Buffer.from([2]))),
    positiveInteger(serial),
    ECDSA_SHA256,
    name(`resilient relay ${host}`),
    sequence(utcTime(new Date(now.getTime() - 3_600_000)), utcTime(new Date(now.getTime() + 86_400_000))),
    name(`resilient relay ${host}`),
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions,
  )
  const signature = sign('sha256', tbs, privateKey)
  const cert = sequence(tbs, ECDSA_SHA256, der(0x03, Buffer.from([0]), signature))
  const pem = cert.toString('base64').replace(/.{1,64}/g, '$&\n')
  return { cert: `-----BEGIN CERTIFICATE-----\n${pem}-----END CERTIFICATE-----\n`, key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }
}
