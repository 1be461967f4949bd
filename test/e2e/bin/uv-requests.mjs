// uv's requests for `uv pip install <name>` from a registry, replayed in order from uv's source (astral-sh/uv at
// 26a9dd4, 2026-08-21), so that the relay is tested against what uv asks where uv cannot be installed:
//  1. the project page, `GET <index>/<normalized name>/` with PEP 691 JSON first:
//     crates/uv-client/src/registry_client.rs MediaType::accepts (line 1890);
//  2. the chosen wheel's metadata: `GET <file URL>.metadata` when the page says it has one (PEP 658/714,
//     registry_client.rs wheel_metadata_registry); otherwise `HEAD <file URL>` with `accept-encoding: identity`, then
//     range requests: the last 16 KiB (the zip's central directory), then the METADATA entry rounded up to 8 KiB
//     (wheel_metadata_no_pep658, remote_metadata.rs wheel_metadata_from_remote_zip, async_http_range_reader);
//  3. the wheel itself, `GET <file URL>`, its sha256 checked against the digest uv was given (uv-types hash.rs
//     HashStrategy::Verify; here the page's, the one the relay checks too). A mismatch fails the install.
// Credentials: uv sends a netrc machine's for a URL without userinfo (uv-auth; NETRC names the file).
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'

const ACCEPT = 'application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01'

function netrcAuthorization(url, env) {
  if (!env.NETRC) return {}
  const words = readFileSync(env.NETRC, 'utf8').split(/\s+/)
  const host = new URL(url).hostname
  const at = words.findIndex((word, index) => word === 'machine' && words[index + 1] === host)
  if (at < 0) return {}
  const value = name => words[words.indexOf(name, at) + 1]
  return { authorization: `Basic ${Buffer.from(`${value('login')}:${value('password')}`).toString('base64')}` }
}

async function fetchOk(url, init, env, log) {
  const response = await fetch(url, { ...init, headers: { ...init.headers, ...netrcAuthorization(url, env) } })
  log.push(`${init.method ?? 'GET'} ${new URL(url).pathname}${init.headers?.range ? ` ${init.headers.range}` : ''} ${response.status}`)
  if (!response.ok) throw new Error(`Failed to fetch: \`${url}\`\n  HTTP status server error (${response.status})`)
  return response
}

/** The wheel's METADATA entry from its central directory: where its local header starts and how long it is. */
function metadataEntry(tail, tailStart) {
  const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  let at = tail.readUInt32LE(eocd + 16) - tailStart
  while (tail.readUInt32LE(at) === 0x02014b50) {
    const nameLength = tail.readUInt16LE(at + 28)
    const name = tail.subarray(at + 46, at + 46 + nameLength).toString()
    if (/\.dist-info\/METADATA$/.test(name)) return { offset: tail.readUInt32LE(at + 42), size: tail.readUInt32LE(at + 20) + 30 + nameLength }
    at += 46 + nameLength + tail.readUInt16LE(at + 30) + tail.readUInt16LE(at + 32)
  }
  throw new Error('no METADATA in the wheel')
}

/** Replays the requests; resolves to uv's exit code (2 on a failed fetch or a hash mismatch, as uv exits). */
export async function replayUvInstall(index, name, env) {
  const log = []
  try {
    const page = await fetchOk(`${index.replace(/\/?$/, '/')}${name.toLowerCase().replace(/[-_.]+/g, '-')}/`, { headers: { accept: ACCEPT } }, env, log)
    if (!/json/.test(page.headers.get('content-type') ?? '')) throw new Error('expected a PEP 691 page')
    const { files } = await page.json()
    const wheel = files.filter(file => file.filename.endsWith('.whl') && !file.yanked).at(-1)
    const url = new URL(wheel.url, page.url).href
    if (wheel['core-metadata'] || wheel['dist-info-metadata']) {
      await (await fetchOk(`${url}.metadata`, { headers: {} }, env, log)).arrayBuffer()
    } else {
      const head = await fetchOk(url, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } }, env, log)
      const length = Number(head.headers.get('content-length'))
      const start = Math.max(0, length - 16384)
      const tail = Buffer.from(await (await fetchOk(url, { headers: { 'accept-encoding': 'identity', range: `bytes=${start}-${length - 1}` } }, env, log)).arrayBuffer())
      const entry = metadataEntry(tail, start)
      const end = Math.min(length, entry.offset + Math.ceil(entry.size / 8192) * 8192) - 1
      await (await fetchOk(url, { headers: { 'accept-encoding': 'identity', range: `bytes=${entry.offset}-${end}` } }, env, log)).arrayBuffer()
    }
    const bytes = Buffer.from(await (await fetchOk(url, { headers: {} }, env, log)).arrayBuffer())
    const actual = createHash('sha256').update(bytes).digest('hex')
    if (actual !== wheel.hashes.sha256) throw new Error(`Hash mismatch for \`${wheel.filename}\`\n\nExpected:\n  sha256:${wheel.hashes.sha256}\n\nComputed:\n  sha256:${actual}`)
    process.stderr.write(`Installed 1 package\n + ${wheel.filename}\n`)
    return { exitCode: 0, log }
  } catch (error) {
    process.stderr.write(`error: ${error.message}\n`)
    return { exitCode: 2, log }
  }
}
