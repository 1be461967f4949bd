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

describe('scanNodeImports (a JavaScript and TypeScript parser)', () => {
  const scan = async (files: Record<string, string>, entry: string) => {
    const root = dir({ 'package.json': '{}', 'node_modules/present/package.json': '{"name":"present"}', ...files })
    return { root, found: await scanNodeImports([join(root, entry)]) }
  }
  const names = async (files: Record<string, string>, entry: string) => (await scan(files, entry)).found.map(found => found.name)

  it('finds top-level requires and static imports that are not installed, through relative files', async () => {
    const { root, found } = await scan({
      'app.js': 'const present = require("present")\nconst fp = require("nowhere-a/fp")\nconst local = require("./lib")\nfunction later() {\n  require("nowhere-lazy")\n}\ntry { require("nowhere-try") } catch {}\n/* require("nowhere-comment") */\n',
      'lib.mjs': 'import x from "@scope/nowhere-b/sub"\nimport type { T } from "nowhere-types"\nimport "fs"\n',
    }, 'app.js')
    expect(found).toEqual([
      { name: 'nowhere-a', file: join(root, 'app.js'), line: 'const fp = require("nowhere-a/fp")' },
      { name: '@scope/nowhere-b', file: join(root, 'lib.mjs'), line: 'import x from "@scope/nowhere-b/sub"' },
    ])
  })

  it('reads several requires on one line, each one', async () => {
    expect(await names({ 'app.js': "const a = require('lodash'); const b = require('chalk'); require('present')\n" }, 'app.js')).toEqual(['lodash', 'chalk'])
  })

  it('reads minified code, an immediately invoked wrapper included, and leaves out its lazy and guarded requires', async () => {
    const minified = '"use strict";var a=require("min-a"),b=require("min-b");!function(){var c=require("min-c");function d(){return require("min-lazy")}}();(function(){require("min-d")}).call(this);try{require("min-try")}catch(e){}module.exports=a&&require("min-and");\n'
    const { found } = await scan({ 'app.min.js': minified }, 'app.min.js')
    expect(found.map(item => item.name)).toEqual(['min-a', 'min-b', 'min-c', 'min-d'])
    expect(found[0]!.line.length).toBeLessThanOrEqual(162)
  })

  it('reads TypeScript and JSX: type-only imports are erased, `import x = require()` loads', async () => {
    const ts = 'import type { A } from "ts-types-only"\nimport { type B } from "ts-types-too"\nimport zod from "zod-x"\nimport fs = require("ts-equals")\nconst n: number = <number>(1 as unknown)\nexport type { C } from "ts-export-type"\nexport * from "ts-export-all"\ninterface I { x: typeof import("ts-typeof") }\ndeclare module "ts-declared" {}\n'
    expect(await names({ 'app.ts': ts }, 'app.ts')).toEqual(['zod-x', 'ts-equals', 'ts-export-all'])
    const tsx = 'import React from "react-x"\nconst App = <T,>(props: T) => <div>{String(props)}</div>\nexport default App\n'
    expect(await names({ 'app.tsx': tsx }, 'app.tsx')).toEqual(['react-x'])
    expect(await names({ 'app.jsx': 'const React = require("react-y")\nmodule.exports = () => <p/>\n' }, 'app.jsx')).toEqual(['react-y'])
  })

  it('reads ESM and CommonJS mixed, and import() of a string at load but not one whose failure is handled', async () => {
    const mixed = 'import a from "esm-a"\nconst b = require("cjs-b")\nconst c = await import("dyn-c")\nimport("dyn-handled").catch(() => null)\nif (process.env.X) require("cond")\nconst d = process.env.Y ? require("ternary") : null\nexport { e } from "re-export"\n'
    expect(await names({ 'app.mjs': mixed }, 'app.mjs')).toEqual(['esm-a', 'cjs-b', 'dyn-c', 're-export'])
  })

  it('gives nothing for a file it cannot read as JavaScript', async () => {
    expect(await names({ 'app.js': 'this is not @@ javascript <<<\n' }, 'app.js')).toEqual([])
  })
})
