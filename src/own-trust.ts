import { readFileSync } from 'node:fs'
import type { SecureContext } from 'node:tls'

// Node reads NODE_EXTRA_CA_CERTS as it starts, before any code runs, and parses every certificate of it whether or not
// the process makes a TLS connection: ~30 ms for a system bundle on the 2-core machine, a tenth of a healthy `pip
// download`. The launcher (bin/resilient) starts Node without it and says so (RESILIENT_LAUNCH_EXTRA_CA_CERTS); the
// CLI entry puts the variable back for every child as it was set, and resilient's own TLS connections trust
// what Node would have: its default store plus that file, read the first time a connection needs it.

let deferred: string | undefined
let context: Promise<SecureContext> | undefined

/** Called once by the CLI entry: the file Node was kept from reading at start (undefined when it read it itself). */
export function deferExtraCaCerts(file: string | undefined): void {
  deferred = file || undefined
  context = undefined
}

/** Whether resilient's own connections need ownTrust: Node was kept from reading NODE_EXTRA_CA_CERTS at start. */
export function extraCaCertsDeferred(): boolean {
  return deferred !== undefined
}

/**
 * TLS options for a connection of resilient's own that trusts what the tool's Node would by default: none where
 * Node's default store is already that; else one secure context, made once, with Node's default store (bundled or
 * OpenSSL's, as Node was started) and the certificates of the deferred file added as Node adds them: each PEM
 * certificate in order, up to the first that does not parse. A file that cannot be read adds nothing, as Node then
 * only warns.
 */
export async function ownTrust(): Promise<{ secureContext?: SecureContext }> {
  const file = deferred
  if (file === undefined) return {}
  context ??= import('node:tls').then(tls => {
    const secure = tls.createSecureContext()
    let pem: string | undefined
    try {
      pem = readFileSync(file, 'utf8')
    } catch {
      // As Node: "Warning: Ignoring extra certs from ..., load failed", and the default store alone.
    }
    // addCACert on a context holding Node's shared store gives it a store of its own first, made as Node makes its
    // default one (node_crypto.cc GetCertStoreOwnedByThisSecureContext, NewRootCertStore): the shared store stays
    // as it was for everything else.
    if (pem) (secure as SecureContext & { context: { addCACert(pem: string): void } }).context.addCACert(pem)
    return secure
  })
  return { secureContext: await context }
}
