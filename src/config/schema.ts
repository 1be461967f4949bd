import * as z from 'zod'

// The ONLY place defaults live. docs/config.md, .resilientrc.example and the README's config table are generated from
// this file (npm run docs:config) and a test fails when they disagree.
//
// Adding a key is one block below: give it a .default() (or .optional()) and a .describe(); a nested object takes
// .prefault({}) so that its inner defaults apply (zod 4's .default({}) would skip them). Its environment variable
// (RESILIENT_<PATH_IN_SCREAMING_SNAKE>) and its docs follow from the schema; nothing else needs editing.

// Index and mirror URLs are http(s) (cargo's `sparse+https`, a local `file:` index): never `javascript:` or the like.
const indexUrl = z.string().regex(/^(?:(?:sparse\+)?https?:\/\/[^\s]+|file:[^\s]+)$/i, 'expected an http(s) URL (or sparse+https, file:)')
const mirrorEntry = z.string().regex(/^(?:[A-Za-z0-9._-]+|(?:sparse\+)?https?:\/\/[^\s]+)$/i, 'expected a mirror name or an http(s) URL')

const ecosystem = z.object({
  index: indexUrl.optional()
    .describe('The index used when the command names none (default: the public upstream). An index named here may fall back to the mirrors below.'),
  mirrors: z.array(mirrorEntry).optional()
    .describe('Mirror names (catalog or `custom`) or URLs, tried in order after the index fails (`--mirror` values come first). Replaces the built-in catalog for this ecosystem; `resilient mirrors use/add/remove` edit it in the user config.'),
  custom: z.record(z.string(), indexUrl).optional()
    .describe('Your own mirrors by name → URL (`resilient mirrors add <name> <url>`); a name given here can be used in `mirrors`, `--mirror` and `resilient mirrors use`.'),
}).strict()

const pypi = ecosystem.extend({
  wheelhouse: z.string().optional()
    .describe('A local directory of wheels: in offline mode pip installs only from it (`--no-index --find-links <dir>`). Relative paths are relative to the config file that sets it.'),
}).strict()

export const configSchema = z.object({
  maxAttempts: z.number().int().min(1).max(20).default(4).describe('Attempts in all, the first one included.'),
  maxTotalSeconds: z.number().positive().default(1800).describe('Time budget for all attempts and waits together; no new attempt starts after it.'),
  maxWaitSeconds: z.number().nonnegative().default(60).describe('Longest wait before a retry (a `Retry-After` above it is capped, or another mirror is used).'),
  fastDetect: z.boolean().default(true).describe("Shorten the tool's own timeouts and retries (pip: 6 s, no retry) so a dead index is detected in seconds; never applied when you set them yourself."),
  mirrors: z.boolean().default(true).describe('Fall back to mirrors at all (`--no-mirrors` sets false).'),
  allowInsecure: z.boolean().default(false).describe('Allow plain-http mirrors other than loopback addresses.'),
  offline: z.boolean().default(false).describe('Make no network attempt (`--offline`): pip and uv install only from `pypi.wheelhouse`, npm and the others only from their cache (each in its own spelling, docs/mirrors.md); poetry, pdm and pipx have none and stop with exit 78; nothing is retried on a mirror.'),
  autoInstall: z.boolean().default(true).describe('`resilient run`: when the script fails on a missing module, offer to install its package into the script\'s own environment and run it again (`--no-auto-install` sets false). See docs/run.md.'),
  maxAutoInstalls: z.number().int().min(0).max(20).default(10).describe('`resilient run`: packages installed at most by the one install of a run (the failing import first, then what the scan found).'),
  replayInputMegabytes: z.number().nonnegative().default(8).describe('How much of a streamed input (stdin from a pipe, `-r <(...)`) is kept so that a retry, or `resilient run`\'s second run, reads the same bytes; past it, no second run is made and resilient says why. See docs/process.md.'),

  breaker: z.object({
    failureThreshold: z.number().int().min(1).default(3).describe('Consecutive failed attempts on a mirror (from this network) after which it is tried last, after every other source.'),
    cooldownSeconds: z.number().nonnegative().default(300).describe('How long a failing mirror is tried last; after it, the mirror is on trial, and one more failure puts it last for another cooldown.'),
  }).strict().prefault({}).describe('Circuit breaker over the remembered mirror health (kept in the state directory).'),

  logs: z.object({
    keep: z.number().int().min(0).default(50).describe('How many run logs to keep in the state directory (`resilient logs`); older ones are deleted. 0 writes none.'),
  }).strict().prefault({}).describe('The JSON log every run that talks to an index writes (its --report content plus timestamps and the resilient version); read-only and local commands write none.'),

  stall: z.object({
    minBytesPerSecond: z.number().nonnegative().default(500).describe('Throughput floor of the tool and everything it started. An attempt that keeps receiving data, but less than this over `windowSeconds`, while not busy computing, is stopped and retried on the next mirror. 0 turns stall detection off.'),
    windowSeconds: z.number().min(3).default(30).describe('How long throughput must stay below the floor before the attempt counts as stalled.'),
  }).strict().prefault({}).describe('Stall detection by progress (Linux; see docs/stall-detection.md): a download that trickles is abandoned for a mirror, a slow steady one is left alone.'),

  pypi: pypi.optional().describe('PyPI: pip, uv, poetry, pipx, pdm.'),
  conda: ecosystem.optional().describe('conda channels: conda, mamba, micromamba, pixi.'),
  npm: ecosystem.optional().describe('npm registry: npm, pnpm, yarn, bun.'),
  crates: ecosystem.optional().describe('crates.io: cargo.'),
  go: ecosystem.optional().describe('Go module proxy: go.'),
}).strict()

export type Config = z.infer<typeof configSchema>
export type EcosystemConfig = z.infer<typeof ecosystem> & { wheelhouse?: string }
