import { readFileSync } from 'node:fs'
import { it } from 'vitest'
import { diagnose } from '../../../src/diagnose/index.js'
it('variants', () => {
  const rows = JSON.parse(readFileSync('/tmp/variants.json', 'utf8')) as [string, string, string][]
  let ok = 0
  for (const [tool, text, want] of rows) {
    const d = diagnose({ tool, output: text })
    if (d.category === want) ok++
    else console.log(`MISS ${tool} want ${want} got ${d.category} (${d.ruleId}) :: ${text.slice(0, 90).replace(/\n/g, ' / ')}`)
  }
  console.log(`variants ${ok}/${rows.length}`)
})
