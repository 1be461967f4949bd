// Names resilient never installs, whatever the person answers, each with what to do instead. Sources: a PyPI and
// npm name-list snapshot (2026-11), and the squatted or misleading names each entry's own text explains.

export interface Refusal {
  reason: string
  /** The right name, when there is one. */
  use?: string
}

/** Python import names whose same-named PyPI project is a typosquat, a hallucinated name or unrelated. */
const PYTHON_IMPORTS: Record<string, Refusal> = {
  request: { reason: 'a typo of "requests": a typosquat of that name was downloaded about 12,000 times before PyPI removed it, and the name is free again', use: 'requests' },
  urlib3: { reason: 'a typo of "urllib3" registered as a typosquat in 2017', use: 'urllib3' },
  jeIlyfish: { reason: 'a 2019 typosquat of "jellyfish" (a capital I for the l) that carried malware', use: 'jellyfish' },
  huggingface_cli: { reason: 'a name language models invent; a researcher registered it to show the risk and it was downloaded 30,000 times', use: 'huggingface-hub' },
  crypto: { reason: 'the PyPI "crypto" is an unrelated GPG tool; the PyCrypto API is imported as "Crypto"', use: 'pycryptodome' },
  cv: { reason: 'the PyPI "cv" is an unrelated version checker; OpenCV is imported as "cv2"', use: 'opencv-python' },
  pytorch: { reason: 'the PyPI "pytorch" is a placeholder that fails on purpose; PyTorch is imported as "torch"', use: 'torch' },
}

/** PyPI projects that are dummies, deprecated shims or placeholders: the last check before anything is installed. */
const PYTHON_PROJECTS: Record<string, Refusal> = {
  sklearn: { reason: 'a deprecated shim that refuses to install', use: 'scikit-learn' },
  skimage: { reason: 'a dummy project', use: 'scikit-image' },
  bs4: { reason: 'a dummy project', use: 'beautifulsoup4' },
  zmq: { reason: 'a placeholder ("you are probably looking for pyzmq")', use: 'pyzmq' },
  dotenv: { reason: 'a deprecated project', use: 'python-dotenv' },
  discord: { reason: 'a mirror shim', use: 'discord.py' },
  grpc: { reason: 'a placeholder that asks for grpcio', use: 'grpcio' },
  'tensorflow-gpu': { reason: 'removed; TensorFlow ships GPU support itself', use: 'tensorflow' },
  google: { reason: 'unrelated search-engine bindings, not Google\'s libraries', use: 'the project of the submodule (protobuf, google-cloud-…)' },
  ...PYTHON_IMPORTS,
}

/** npm names held by npm security after the 2017 typosquatting campaign, and other squats of popular packages. */
const NODE_PACKAGES: Record<string, Refusal> = {
  crossenv: { reason: 'a typosquat that stole environment variables (now an npm security holding package)', use: 'cross-env' },
  'cross-env.js': { reason: 'an npm security holding package (typosquat)', use: 'cross-env' },
  babelcli: { reason: 'an npm security holding package (typosquat)', use: 'babel-cli' },
  'fabric-js': { reason: 'an npm security holding package (typosquat)', use: 'fabric' },
  gruntcli: { reason: 'an npm security holding package (typosquat)', use: 'grunt-cli' },
  'jquery.js': { reason: 'an npm security holding package (typosquat)', use: 'jquery' },
  monent: { reason: 'an npm security holding package (typosquat)', use: 'moment' },
  'mssql-node': { reason: 'an npm security holding package (typosquat)', use: 'mssql' },
  'mssql.js': { reason: 'an npm security holding package (typosquat)', use: 'mssql' },
  nodemssql: { reason: 'an npm security holding package (typosquat)', use: 'mssql' },
  sqlserver: { reason: 'an npm security holding package (typosquat)', use: 'mssql' },
  mysqljs: { reason: 'an npm security holding package (typosquat)', use: 'mysql' },
  'nodemailer.js': { reason: 'an npm security holding package (typosquat)', use: 'nodemailer' },
  nodesass: { reason: 'an npm security holding package (typosquat)', use: 'node-sass' },
  sqliter: { reason: 'an npm security holding package (typosquat)', use: 'sqlite3' },
  'node-openssl': { reason: 'an npm security holding package (typosquat); OpenSSL is built into Node (node:crypto)' },
  'node-opencv': { reason: 'an npm security holding package (typosquat)' },
  nodecaffe: { reason: 'an npm security holding package (typosquat)' },
  tkinter: { reason: 'an npm security holding package (typosquat); tkinter is Python\'s' },
  mongose: { reason: 'a typo of "mongoose"; the package of that name is someone else\'s', use: 'mongoose' },
}

export function refusedPythonImport(topLevel: string): Refusal | undefined {
  return Object.hasOwn(PYTHON_IMPORTS, topLevel) ? PYTHON_IMPORTS[topLevel] : undefined
}

/** PEP 503 normalisation, so `Scikit_Learn` and `scikit-learn` are one project. */
export function normalizeProject(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-')
}

const PROJECTS_NORMALIZED = new Map(Object.entries(PYTHON_PROJECTS).map(([name, refusal]) => [normalizeProject(name), refusal]))

export function refusedPythonProject(project: string): Refusal | undefined {
  return PROJECTS_NORMALIZED.get(normalizeProject(project))
}

export function refusedNodePackage(name: string): Refusal | undefined {
  return Object.hasOwn(NODE_PACKAGES, name) ? NODE_PACKAGES[name] : undefined
}

/** Said to the person: the reason, then the right name. */
export function describeRefusal(name: string, refusal: Refusal): { reason: string; hint?: string } {
  return { reason: `"${name}" is ${refusal.reason}.`, hint: refusal.use ? `Did you mean ${refusal.use}? Install it yourself if so, and fix the import if it has a typo.` : undefined }
}
