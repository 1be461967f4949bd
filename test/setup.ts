import { isolatedEnv } from './helpers/isolated-env.js'

// Unit tests see no developer settings either: replace the environment with an isolated one, once per worker.
const env = isolatedEnv()
for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name]
Object.assign(process.env, env)
