import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scanNodeImports } from '../../../src/autoinstall/scan-node.js'
import { scanPythonImports } from '../../../src/autoinstall/scan-python.js'

function dir(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'resilient-scan-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

describe('scanPythonImports (ast in the script\'s own interpreter, nothing run)', () => {
  it('finds every unconditional import that is missing, through the project\'s own modules, once each', async () => {
    const root = dir({
      'app.py': 'import os, json\nimport nowhere_a\nfrom nowhere_a import thing\nimport helpers.io\nfrom google_ns_missing.cloud import storage\nraise SystemExit("never run")\n',
      'helpers/__init__.py': '', 'helpers/io.py': 'import nowhere_b as b\n',
    })
    const found = await scanPythonImports('python3', [join(root, 'app.py')], [root])
    expect(found).toEqual([
      { name: 'nowhere_a', file: join(root, 'app.py'), line: 'import nowhere_a' },
      { name: 'google_ns_missing.cloud.storage', file: join(root, 'app.py'), line: 'from google_ns_missing.cloud import storage' },
      { name: 'nowhere_b', file: join(root, 'helpers/io.py'), line: 'import nowhere_b as b' },
    ])
  })

  it('skips optional imports (try/except ImportError, TYPE_CHECKING), relative ones, and the standard library', async () => {
    const root = dir({ 'app.py': 'try:\n    import nowhere_opt\nexcept ImportError:\n    nowhere_opt = None\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import nowhere_types\nfrom . import sibling\nimport tomllib, sqlite3\n' })
    expect(await scanPythonImports('python3', [join(root, 'app.py')], [root])).toEqual([])
  })

  it('gives nothing for a file Python cannot parse', async () => {
    const root = dir({ 'app.py': 'print "python 2"\nimport nowhere_a\n' })
    expect(await scanPythonImports('python3', [join(root, 'app.py')], [root])).toEqual([])
  })
})

describe('scanNodeImports (source text)', () => {
  it('finds top-level requires and static imports that are not installed, through relative files', () => {
    const root = dir({
      'package.json': '{}', 'node_modules/present/package.json': '{"name":"present"}',
      'app.js': 'const present = require("present")\nconst fp = require("nowhere-a/fp")\nconst local = require("./lib")\nfunction later() {\n  require("nowhere-lazy")\n}\ntry { require("nowhere-try") } catch {}\n/* require("nowhere-comment") */\n',
      'lib.mjs': 'import x from "@scope/nowhere-b/sub"\nimport type { T } from "nowhere-types"\nimport "fs"\n',
    })
    expect(scanNodeImports([join(root, 'app.js')])).toEqual([
      { name: 'nowhere-a', file: join(root, 'app.js'), line: 'const fp = require("nowhere-a/fp")' },
      { name: '@scope/nowhere-b', file: join(root, 'lib.mjs'), line: 'import x from "@scope/nowhere-b/sub"' },
    ])
  })
})
