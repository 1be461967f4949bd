import { describeMatrix } from '../helpers/differential-matrix.js'
import { command } from '../helpers/requirements.js'

// The rows of cargo and go (test/helpers/differential-matrix.ts): `cargo fetch`, crates-io replaced by the index in
// the project's .cargo/config.toml; `go get`, GOPROXY naming the index. With a mirror, both go through the relay.
// cargo survives every fault but a dead index on its own (measured), go none of them: it asks once.
const plainCompletes = { cargo: (id: string) => id !== 'dead', go: (id: string) => id === 'slow-index-lagging-mirror' } as const
describeMatrix(['cargo', 'go'], {
  needs: [command('cargo'), command('go')], relayed: () => true, goals: true,
  plainCompletes: entry => plainCompletes[entry.tool as keyof typeof plainCompletes](entry.case.id),
})
