import { describeMatrix } from '../helpers/differential-matrix.js'
import { command } from '../helpers/requirements.js'

// The rows of pipx (test/helpers/differential-matrix.ts): `pipx install`, PIP_INDEX_URL naming the index. With a
// mirror, through the relay. Plain pipx survives every fault on its own (pip's retries, measured) but a dead index and
// a broken download.
describeMatrix(['pipx'], { needs: [command('pipx')], relayed: () => true, goals: true, plainCompletes: entry => entry.case.id !== 'dead' && entry.case.id !== 'break-80' })
