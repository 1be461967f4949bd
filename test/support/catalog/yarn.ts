import { messages } from './types.js'

// yarn classic prints `error <message>` and wraps Node's own errors: `error An unexpected error occurred:
// "<url>: <Node message>".` (unexpectedError, with request-manager's `${params.url}: ${err.message}`), or
// `error Error: <url>: <registry body.error>` when the registry answers an error body. Read in the published
// bundle of 1.22.22 (lib/cli.js), built from these files.
const LANGUAGE = { repo: 'yarnpkg/yarn', file: 'src/reporters/lang/en.js', version: '1.22.22' }
const REQUESTS = { repo: 'yarnpkg/yarn', file: 'src/util/request-manager.js', version: '1.22.22' }

export const YARN = [
  ...messages(LANGUAGE, [
    ['yarn-no-matching-version', 'Couldn\'t find any versions for "{package}" that matches "{range}"'],
    ['yarn-no-matching-version', 'Couldn\'t find package "{package}" on the "npm" registry.'],
    ['yarn-no-matching-version', 'Couldn\'t find package "{package}@{range}" required by "{package}@{version}" on the "npm" registry.'],
    ['yarn-checksum-mismatch', 'Integrity check failed for "{package}" (computed integrity doesn\'t match our records, got "{integrity}")'],
    ['yarn-checksum-mismatch', 'Incorrect integrity when fetching from the cache for "{package}". Cache has "{integrity}" and remote has "{integrity}". Run `yarn cache clean` to fix the problem'],
    ['yarn-checksum-mismatch', 'Extracting tar content of {url} failed, the file appears to be corrupt: "unexpected end of file"'],
    ['yarn-incompatible-engine', '{package}@{version}: The engine "node" is incompatible with this module. Expected version "{range}". Got "{version}"'],
    ['any-server-error', 'Received malformed response from registry for "{package}". The registry may be down.'],
    ['any-server-error', 'An unexpected error occurred: "{url}: Request failed \\"{status:5xx} {reason}\\"".'],
    ['any-permission', 'Cannot create "{path}" due to insufficient permissions.'],
    ['any-disk-full', 'An unexpected error occurred: "ENOSPC: no space left on device, write".'],
  ], 'error '),
  ...messages(LANGUAGE, [
    ['any-connection', 'There appears to be trouble with your network connection. Retrying...'],
    ['any-server-error', 'There appears to be trouble with the npm registry (returned undefined). Retrying...'],
    ['yarn-mutex-busy', 'Waiting for the other yarn instance to finish (pid {pid}, inside "{path}")'],
  ], 'info '),
  ...messages(REQUESTS, [
    ['any-connection', 'Error: connect ECONNREFUSED {ip}:{port}'],
    ['any-connection', 'An unexpected error occurred: "{url}: connect ECONNREFUSED {ip}:{port}".'],
    ['any-connection', 'An unexpected error occurred: "{url}: read ECONNRESET".'],
    ['any-connection', 'An unexpected error occurred: "{url}: socket hang up".'],
    ['any-timeout', 'An unexpected error occurred: "{url}: ESOCKETTIMEDOUT".'],
    ['any-timeout', 'An unexpected error occurred: "{url}: connect ETIMEDOUT {ip}:{port}".'],
    ['any-dns', 'An unexpected error occurred: "{url}: getaddrinfo ENOTFOUND {host}".'],
    ['any-dns', 'Error: getaddrinfo EAI_AGAIN {host}'],
    ['any-ssl', 'An unexpected error occurred: "{url}: unable to get local issuer certificate".'],
    ['any-ssl', 'An unexpected error occurred: "{url}: self signed certificate in certificate chain".'],
    ['any-ssl', 'An unexpected error occurred: "{url}: certificate has expired".'],
    ['status', 'An unexpected error occurred: "{url}: Request {url} returned a {status}".'],
    ['yarn-no-matching-version', 'Error: {url}: Not found'],
    ['any-http-auth', 'Error: {url}: forbidden'],
  ], 'error '),
]
