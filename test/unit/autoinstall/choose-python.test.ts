import { describe, expect, it } from 'vitest'
import { choosePythonPackage, type PythonContext } from '../../../src/autoinstall/choose-python.js'
import type { PythonFacts } from '../../../src/autoinstall/python-probe.js'
import type { MissingModule } from '../../../src/autoinstall/types.js'

const absent: PythonFacts = { found: false, namespace: false, stdlib: false, version: [3, 11] }

/** `facts: null` stands for an interpreter that could not be asked. */
function choose(name: string, facts: Partial<PythonFacts> | null = {}, extra: Partial<MissingModule> & Partial<PythonContext> = {}) {
  const module: MissingModule = { ecosystem: 'python', reported: extra.reported ?? name.split('.')[0]!, name, evidence: [], ...extra }
  return choosePythonPackage(module, { facts: facts ? { ...absent, ...facts } : undefined, localShadow: extra.localShadow })
}

describe('choosePythonPackage', () => {
  it.each([
    ['cv2', 'opencv-python'], ['PIL', 'Pillow'], ['sklearn', 'scikit-learn'], ['yaml', 'PyYAML'], ['bs4', 'beautifulsoup4'],
    ['dateutil', 'python-dateutil'], ['google.protobuf', 'protobuf'], ['google.protobuf.message', 'protobuf'],
    ['google.cloud.storage', 'google-cloud-storage'], ['yaml.safe_load', 'PyYAML'], ['requests', 'requests'],
    ['pydantic_settings', 'pydantic-settings'], ['distutils', 'setuptools'],
  ])('maps %s to the reviewed %s', (name, project) => {
    expect(choose(name)).toMatchObject({ tier: 'allowlist', package: project })
  })

  it('verifies the reviewed key, not an attribute the source line named', () => {
    expect(choose('yaml.safe_load')).toMatchObject({ verifyModule: 'yaml' })
    expect(choose('google.protobuf.message')).toMatchObject({ verifyModule: 'google.protobuf' })
  })

  it('maps below a namespace that is already there (google present, google.protobuf not)', () => {
    expect(choose('google.protobuf', { found: true, namespace: true }, { reported: 'google.protobuf' })).toMatchObject({ tier: 'allowlist', package: 'protobuf' })
  })

  it('only proposes names derived by a namespace rule', () => {
    expect(choose('google.cloud.translate')).toMatchObject({ tier: 'proposed', package: 'google-cloud-translate', verifyModule: 'google.cloud.translate' })
    expect(choose('azure.keyvault.secrets')).toMatchObject({ tier: 'proposed', package: 'azure-keyvault-secrets' })
    expect(choose('azure.cosmos.container')).toMatchObject({ tier: 'proposed', package: 'azure-cosmos' })
  })

  it('refuses a bare namespace root', () => {
    expect(choose('google')).toMatchObject({ tier: 'refused', reason: expect.stringMatching(/namespace/) })
  })

  it('only proposes an unreviewed name, as the import name itself', () => {
    expect(choose('humanize')).toMatchObject({ tier: 'proposed', package: 'humanize', verifyModule: 'humanize' })
  })

  it.each([
    ['request', /typo of "requests"/, /requests/],
    ['huggingface_cli', /language models/, /huggingface-hub/],
    ['crypto', /unrelated GPG tool/, /pycryptodome/],
  ])('refuses the squatted name %s and suggests the right one', (name, reason, hint) => {
    const candidate = choose(name)
    expect(candidate).toMatchObject({ tier: 'refused', reason: expect.stringMatching(reason), hint: expect.stringMatching(hint) })
  })

  it.each([
    ['tkinter', /python3-tk/], ['_ctypes', /libffi/], ['telnetlib', /standard-telnetlib/], ['imp', /What's New/],
    ['tomllib', /tomli/], ['_private', undefined], ['utils', /PYTHONPATH/], ['src', /PYTHONPATH/],
  ])('refuses %s', (name, hint) => {
    const candidate = choose(name)
    expect(candidate.tier).toBe('refused')
    if (hint && candidate.tier === 'refused') expect(candidate.hint).toMatch(hint)
  })

  it('refuses a standard-library name the interpreter knows', () => {
    expect(choose('json', { stdlib: true })).toMatchObject({ tier: 'refused', reason: expect.stringMatching(/standard library/) })
  })

  it('refuses a submodule of a package that is installed', () => {
    expect(choose('yaml.nonexist', { found: true }, { reported: 'yaml.nonexist' })).toMatchObject({ tier: 'refused', reason: expect.stringMatching(/partial install/) })
  })

  it('refuses a name the interpreter can import now (another interpreter runs the script)', () => {
    expect(choose('numpy', { found: true })).toMatchObject({ tier: 'refused', reason: expect.stringMatching(/can be imported by this Python/) })
  })

  it('refuses when a local file shadows the name', () => {
    expect(choose('numpy', {}, { localShadow: '/p/numpy.py' })).toMatchObject({ tier: 'refused', reason: expect.stringMatching(/\/p\/numpy.py/) })
  })

  it('refuses when the interpreter could not be asked', () => {
    expect(choose('cv2', null)).toMatchObject({ tier: 'refused', reason: expect.stringMatching(/could not ask/) })
  })
})

describe('better names for unreviewed imports', () => {
  it.each([
    ['paho.mqtt.client', 'paho_mqtt'], ['github', 'PyGithub'], ['rest_framework', 'djangorestframework'], ['telebot', 'pyTelegramBotAPI'],
    ['socketio', 'python-socketio'], ['bson', 'pymongo'], ['slack', 'slackclient'],
  ])('proposes what pipreqs\' mapping says for %s (%s), with its evidence, behind a prompt', (name, project) => {
    const candidate = choose(name)
    expect(candidate).toMatchObject({ tier: 'proposed', package: project, why: expect.stringMatching(/from pipreqs' mapping, not reviewed by resilient: (rank \d+ by downloads on PyPI|outside PyPI's 15,000 most downloaded), last release \d{4}-\d\d/) })
  })

  it.each([['wx', 'wxPython'], ['gi', 'PyGObject'], ['cairo', 'pycairo'], ['Xlib', 'python-xlib'], ['mysql.connector', 'mysql-connector-python']])(
    'maps %s to the reviewed %s', (name, project) => expect(choose(name)).toMatchObject({ tier: 'allowlist', package: project }))

  it.each([['urllib2', 'urllib.request'], ['ConfigParser', 'configparser'], ['Queue', 'queue'], ['StringIO', 'io'], ['cPickle', 'pickle']])(
    'refuses the Python 2 name %s and gives the Python 3 one (%s)', (name, modern) => {
      expect(choose(name)).toMatchObject({ tier: 'refused', reason: expect.stringContaining(`Python 3 calls it ${modern}`), hint: expect.stringMatching(/Python 3 name/) })
    })

  it('checks distutils through the files setuptools ships, since the check runs without .pth files', () => {
    expect(choose('distutils', { stdlib: false })).toMatchObject({ tier: 'allowlist', package: 'setuptools', verifyModule: 'setuptools._distutils' })
  })
})
