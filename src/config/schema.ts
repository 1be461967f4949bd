import { z } from 'zod'

// The ONLY place defaults live. docs/config.md is generated from these descriptions (npm run docs:config) and a
// test fails when the two disagree.

const ecosystem = z.object({
  index: z.string().describe('The index used when the command names none (default: the public upstream). An index named here may fall back to the mirrors below.').optional(),
  mirrors: z.array(z.string()).describe('Mirror URLs or catalog names, tried in order after the index fails. Replaces the built-in catalog for this ecosystem.').optional(),
  wheelhouse: z.string().describe('pypi only: a local directory of wheels used in offline mode (`--no-index --find-links <dir>`).').optional(),
}).strict()

export const configSchema = z.object({
  maxAttempts: z.number().int().min(1).max(20).default(4).describe('Attempts in all, the first one included.'),
  maxTotalSeconds: z.number().positive().default(1800).describe('Time budget for all attempts and waits together; no new attempt starts after it.'),
  maxWaitSeconds: z.number().nonnegative().default(60).describe('Longest wait before a retry (a `Retry-After` above it is capped, or another mirror is used).'),
  fastDetect: z.boolean().default(true).describe("Shorten the tool's own timeouts and retries (pip: 6 s, no retry) so a dead index is detected in seconds; never applied when you set them yourself."),
  mirrors: z.boolean().default(true).describe('Fall back to mirrors at all (`--no-mirrors` sets false).'),
  allowInsecure: z.boolean().default(false).describe('Allow plain-http mirrors other than loopback addresses.'),
  pypi: ecosystem.optional().describe('PyPI: pip, uv, poetry, pipx, pdm.'),
  conda: ecosystem.optional().describe('conda channels: conda, mamba, micromamba, pixi.'),
  npm: ecosystem.optional().describe('npm registry: npm, pnpm, yarn, bun.'),
  crates: ecosystem.optional().describe('crates.io: cargo.'),
  go: ecosystem.optional().describe('Go module proxy: go.'),
}).strict()

export type Config = z.infer<typeof configSchema>
export type EcosystemConfig = z.infer<typeof ecosystem>
