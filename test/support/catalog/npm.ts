import { messages } from './types.js'

// npm 7+ prints every error line after `npm error ` (npm 6 and older: `npm ERR! `); the code line comes first.
// Read in npm 11.19.1 as installed, with the dependencies that form the messages.
const ERROR_MESSAGE = { repo: 'npm/cli', file: 'lib/utils/error-message.js', version: '11.19.1' }
const FETCH = { repo: 'npm/minipass-fetch', file: 'lib/index.js', version: '4 (npm 11.19.1)' }
const REGISTRY_FETCH = { repo: 'npm/npm-registry-fetch', file: 'lib/errors.js', version: '19 (npm 11.19.1)' }
const SSRI = { repo: 'npm/ssri', file: 'lib/index.js', version: '12 (npm 11.19.1)' }
const PICK_MANIFEST = { repo: 'npm/npm-pick-manifest', file: 'lib/index.js', version: '10 (npm 11.19.1)' }
const NODE_GYP = { repo: 'nodejs/node-gyp', file: 'lib/build.js', version: '11 (npm 11.19.1)' }
const EXPLAIN_ERESOLVE = { repo: 'npm/cli', file: 'lib/utils/explain-eresolve.js', version: '11.19.1' }
const ARBORIST = { repo: 'npm/cli', file: 'workspaces/arborist/lib/arborist/build-ideal-tree.js (@npmcli/arborist)', version: '11.19.1' }

export const NPM = [
  ...messages(FETCH, [
    ['any-connection', 'FetchError: request to {url} failed, reason: connect ECONNREFUSED {ip}:{port}'],
    ['any-connection', 'network request to {url} failed, reason: read ECONNRESET'],
    ['any-connection', 'network request to {url} failed, reason: socket hang up'],
    ['any-dns', 'network request to {url} failed, reason: getaddrinfo ENOTFOUND {host}'],
    ['any-dns', 'network request to {url} failed, reason: getaddrinfo EAI_AGAIN {host}'],
    ['any-timeout', 'network request to {url} failed, reason: connect ETIMEDOUT {ip}:{port}'],
    ['any-timeout', 'network timeout at: {url}'],
    ['any-ssl', 'request to {url} failed, reason: unable to get local issuer certificate'],
    ['any-ssl', 'request to {url} failed, reason: self-signed certificate in certificate chain'],
  ], 'npm error '),
  ...messages(REGISTRY_FETCH, [
    ['status', '{status} {reason} - GET {url}'],
    ['status', 'code E{status}'],
    ['any-credentials-rejected', 'code E401\nUnable to authenticate, need: Basic realm="Sonatype Nexus Repository Manager"'],
  ], 'npm error '),
  ...messages(SSRI, [['npm-integrity', '{integrity} integrity checksum failed when using sha512: wanted {integrity} but got {integrity}. ({n} bytes)']], 'npm error '),
  ...messages(PICK_MANIFEST, [['npm-no-matching-version', 'notarget No matching version found for {package}@{range}.']], 'npm error '),
  ...messages(ARBORIST, [['npm-eresolve', 'ERESOLVE unable to resolve dependency tree']], 'npm error '),
  ...messages(EXPLAIN_ERESOLVE, [['npm-eresolve', 'Conflicting peer dependency: {package}@{version}']], 'npm error '),
  ...messages(ERROR_MESSAGE, [
    ['any-connection', 'code ECONNREFUSED'],
    ['any-permission', "Error: EACCES: permission denied, mkdir '{path}'"],
    ['any-disk-full', 'nospc ENOSPC: no space left on device, write'],
    ['any-proxy', 'code E407'],
    ['npm-unsupported-engine', 'code EBADENGINE'],
    ['npm-unsupported-engine', 'engine Not compatible with your version of node/npm: {package}@{version}'],
    ['any-credentials-rejected', 'code E401\nUnable to authenticate, your authentication token seems to be invalid.\nTo correct this please try logging in again with:\n  npm login'],
    ['any-credentials-rejected', 'code E401\nIncorrect or missing password.\nIf you were trying to login, change your password, create an authentication token or enable two-factor authentication then that means you likely typed your password in incorrectly.'],
  ], 'npm error '),
  ...messages(FETCH, [['any-proxy-host', 'FetchError: request to {url} failed, reason: connect ECONNREFUSED 10.0.0.7:3128']], 'npm error ', ['http://10.0.0.7:3128']),
  ...messages(FETCH, [['any-proxy-host', 'network request to {url} failed, reason: getaddrinfo ENOTFOUND proxy.corp.example']], 'npm error ', ['http://proxy.corp.example:8080']),
  ...messages(NODE_GYP, [['npm-build-failure', 'stack Error: `make` failed with exit code: 2']], 'gyp ERR! '),
]
