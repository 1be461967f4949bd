import { hostFacts } from '../evidence.js'
import { statusEvidence } from '../http-status.js'
import type { Rule } from '../types.js'

// A public mirror's 403 is usually an anti-abuse block (another mirror helps); a private index's 401/403 wants
// credentials. A WAF's 405 "Not Allowed" to a GET is a block too (tuna/issues#2082). pip asks "User for <host>:"
// after a 401. The rule reads the status; src/retry/policy.ts decides by the source. "Forbidden" and "Unauthorized"
// count as the HTTP reason phrases (capitalised) or a registry's error body after the URL (yarn's "<url>: forbidden"):
// poetry's solver says "numpy is forbidden" (mixology). uv says "Missing credentials for <url>" (crates/uv-auth/src/
// middleware.rs); conda explains a 401/403 below its CondaHTTPError line ("The token given for the URL is invalid",
// "The credentials you have provided for this URL are invalid", "... insufficient permissions to access this
// resource", "You do not have permission to access this resource": conda/gateways/repodata/__init__.py); pdm, asked
// for credentials it may not prompt for, "The credentials for <host> are not provided" (pdm/models/auth.py). A 401/403
// explains the "not found" a tool says next (uv: "was not found in the package registry" + an index hint), so this
// rule comes before every package_not_found rule in RULES.
const WORDS = /\bUnauthorized\b|\bForbidden\b|\bFORBIDDEN\b|https?:\/\/\S{1,500}: (?:forbidden|unauthorized)\b|[Aa]uthentication [Ff]ailed|[Uu]nable to authenticate|User for [\w.-]{1,253}:|\bE40[13]\b|[Aa]uthorization error accessing|terminal prompts disabled|could not read Username|authenticated registries require|no token found for|Missing credentials for |The token given for the URL is invalid|The credentials you have provided for this URL are invalid|insufficient permissions to access this resource|do not have permission to access this resource|The credentials for \S{1,260} are not provided/

export const anyHttpAuth = {
  id: 'any-http-auth',
  category: 'http_auth',
  tools: 'any',
  summary: 'The index refused access (HTTP 401/403)',
  match: failure => {
    const { hits, evidence } = statusEvidence(failure, [401, 403, 405], WORDS)
    if (!evidence.length) return null
    const facts = { ...hostFacts(evidence), status: hits[0]?.status }
    return { evidence, facts, summary: facts.host ? `${facts.host} refused access (HTTP ${facts.status ?? '401/403'})` : undefined }
  },
} satisfies Rule
