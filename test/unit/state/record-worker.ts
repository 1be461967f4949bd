// One of many processes updating the same state file at once (test/unit/state/store.test.ts).
// Usage: node --import tsx record-worker.ts <state file> <worker id> <updates>
import { addFix, addOutcomes } from '../../../src/state/health.js'
import { updateState } from '../../../src/state/store.js'

const [file, id, updates] = process.argv.slice(2) as [string, string, string]
const network = { key: 'net', label: 'test network' }
for (let i = 0; i < Number(updates); i++) {
  await updateState(file, state => {
    addOutcomes(state, network, [{ url: 'https://mirror.test/simple', outcome: { at: Date.now(), ok: i % 2 === 0, category: i % 2 ? 'timeout' : undefined, via: 'run' } }])
    addFix(state, { tool: `worker-${id}`, category: 'timeout', failingHost: 'pypi.org', url: 'https://mirror.test/simple', sourceId: 'mirror', remedy: 'switch-mirror', at: Date.now() })
  }, message => process.stderr.write(`${message}\n`))
}
