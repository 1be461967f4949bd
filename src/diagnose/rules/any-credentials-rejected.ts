import { hostFacts, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// The tool sent credentials and the index rejected them: conda explains its 401 ("you are using invalid credentials
// for this channel", conda/core/subdir_data.py 4.5.13; "The token given for the URL is invalid", "The credentials you
// have provided for this URL are invalid", conda/gateways/repodata/__init__.py 26.7.1), npm its E401 with a Bearer
// challenge ("Unable to authenticate, your authentication token seems to be invalid", lib/utils/error-message.js
// 11.19.1; with a Basic challenge "Incorrect or missing password."; a challenge it does not know, or any challenge
// before npm 7, as npm-registry-fetch words it: "Unable to authenticate, need: Basic realm=...", lib/errors.js
// 19.1.1), pnpm its ERR_PNPM_FETCH_401/403 ("An authorization header was used", packages/error/src/index.ts 10.34.5;
// pnpm says it after a 404 too, where the package may simply be absent, so only a 401/403 counts).
// No public mirror holds what those credentials open, and sending the install there would hide the stale token:
// the person renews it. A registry that challenges for a login (a realm) is a private one: public registries and
// mirrors serve reads without one.
const REJECTED = /using invalid credentials for this channel|The token given for the URL is invalid|The credentials you have provided for this URL are invalid|your authentication token seems to be invalid|Incorrect or missing password\.|Unable to authenticate, need: (?:Basic|Bearer)\b/
const PNPM_REJECTED = /ERR_PNPM_FETCH_40[13]\b/

export const anyCredentialsRejected = {
  id: 'any-credentials-rejected',
  category: 'http_auth',
  tools: 'any',
  summary: 'The index rejected the credentials sent with the request',
  match: failure => {
    const sent = linesMatching(failure, PNPM_REJECTED, 1).length ? linesMatching(failure, /An authorization header was used/, 1) : []
    const evidence = [...linesMatching(failure, REJECTED, 2), ...sent]
    if (!evidence.length) return null
    const facts = hostFacts(failure.lines.filter(line => /\b40[13]\b/.test(line)).slice(0, 2))
    return { evidence, facts, summary: facts.host ? `${facts.host} rejected the credentials sent with the request` : undefined }
  },
  remedy: { kind: 'give-up', hint: "The index refused the token or password the tool sent. Renew it where the tool keeps it (conda: `anaconda login`, or the token in .condarc; npm/pnpm: `npm login --registry <url>` or the token in .npmrc) and run the command again. A mirror cannot help: it does not hold what those credentials open." },
} satisfies Rule
