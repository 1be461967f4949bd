import * as z from 'zod/mini'

// The ONLY place defaults live. docs/config.md, .resilientrc.example and the README's config table are generated from
// this file (npm run docs:config) and a test fails when they disagree.
//
// Adding a key is one line below: wrap it in setting(schema, default, description) (or optional(schema, description));
// a nested object is section(...), whose prefault({}) lets its inner defaults apply (zod 4's default({}) would skip
// them). Its environment variable (RESILIENT_<PATH_IN_SCREAMING_SNAKE>) and its docs follow from the schema; nothing
// else needs editing. zod/mini, not zod's full API: a third of the code to load on every run (npm run bench).

// Index and mirror URLs are http(s) (cargo's `sparse+https`, a local `file:` index): never `javascript:` or the like.
const indexUrl = z.string().check(z.regex(/^(?:(?:sparse\+)?https?:\/\/[^\s]+|file:[^\s]+)$/i, 'expected an http(s) URL (or sparse+https, file:)'))
const mirrorEntry = z.string().check(z.regex(/^(?:[A-Za-z0-9._-]+|(?:sparse\+)?https?:\/\/[^\s]+)$/i, 'expected a mirror name or an http(s) URL'))

/** A key with a default: what the docs and `resilient config` show come from `description`. */
function setting<T extends z.core.SomeType>(schema: T, value: z.core.util.NoUndefined<z.core.output<T>>, description: string) {
  return z._default(schema, value).check(z.describe(description))
}

/** A key without a default. */
function optional<T extends z.core.SomeType>(schema: T, description: string) {
  return z.optional(schema).check(z.describe(description))
}

/** A nested object of settings: absent, its inner defaults still apply. */
function section<T extends z.core.$ZodLooseShape>(shape: T, description: string) {
  return z.prefault(z.strictObject(shape), {} as never).check(z.describe(description))
}

const ecosystemShape = {
  index: optional(indexUrl, 'The index used when the command names none (default: the public upstream). An index named here that is neither the public upstream nor a known mirror is your own: it falls back only to the mirrors listed beside it in `mirrors`, never to the built-in catalog.'),
  mirrors: optional(z.array(mirrorEntry), 'Mirror names (catalog or `custom`) or URLs, tried in order after the index fails (`--mirror` values come first). Replaces the built-in catalog for this ecosystem; `resilient mirrors use/add/remove` edit it in the user config.'),
  custom: optional(z.record(z.string(), indexUrl), 'Your own mirrors by name → URL (`resilient mirrors add <name> <url>`); a name given here can be used in `mirrors`, `--mirror` and `resilient mirrors use`.'),
}
const ecosystem = z.strictObject(ecosystemShape)

const pypi = z.strictObject({
  ...ecosystemShape,
  wheelhouse: optional(z.string(), 'A local directory of wheels: in offline mode pip installs only from it (`--no-index --find-links <dir>`). Relative paths are relative to the config file that sets it.'),
})

export const configSchema = z.strictObject({
  maxAttempts: setting(z.int().check(z.minimum(1), z.maximum(20)), 4, 'Attempts in all, the first one included.'),
  maxTotalSeconds: setting(z.number().check(z.positive()), 1800, 'Time budget for all attempts and waits together; no new attempt starts after it.'),
  maxWaitSeconds: setting(z.number().check(z.nonnegative()), 60, 'Longest wait before a retry (a `Retry-After` above it is capped, or another mirror is used).'),
  fastDetect: setting(z.boolean(), true, "Hedged detection: leave a public index that has sent nothing for 2 s when another source answered resilient's own request meanwhile and it did not (docs/stall-detection.md). Never for a sole or private index, never while bytes arrive, never when you set the tool's timeout or retries; the tool's own timeouts and retries are never changed."),
  mirrors: setting(z.boolean(), true, 'Fall back to mirrors at all (`--no-mirrors` sets false).'),
  relay: setting(z.boolean(), true, "Send the requests of pip, npm, pnpm, yarn, bun, pipx, pdm, `uv pip`, pixi, go and cargo to public indexes through resilient's local relay, which fails over per request, hedges slow answers on another mirror and resumes broken downloads across mirrors (`--no-relay` sets false). See docs/relay.md."),
  lookAhead: setting(z.boolean(), true, "npm through the relay: fetch ahead, 8 at a time, the packuments of the packages the project and the command name, which npm asks for one by one, so that its next request is answered from memory. Never a package its lockfile or node_modules has, never a scope npm has not sent to the relay; only on a cold cache. See docs/relay.md."),
  allowInsecure: setting(z.boolean(), false, 'Allow plain-http mirrors other than loopback addresses.'),
  offline: setting(z.boolean(), false, 'Make no network attempt (`--offline`): pip and uv install only from `pypi.wheelhouse`, npm and the others only from their cache (each in its own spelling, docs/mirrors.md); poetry, pdm and pipx have none and stop with exit 78; nothing is retried on a mirror.'),
  autoInstall: setting(z.boolean(), true, '`resilient run`: when the script fails on a missing module, offer to install its package into the script\'s own environment and run it again (`--no-auto-install` sets false). See docs/run.md.'),
  maxAutoInstalls: setting(z.int().check(z.minimum(0), z.maximum(20)), 10, '`resilient run`: packages installed at most by the one install of a run (the failing import first, then what the scan found).'),
  replayInputMegabytes: setting(z.number().check(z.nonnegative()), 8, 'How much of a streamed input (stdin from a pipe, `-r <(...)`) is kept so that a retry, or `resilient run`\'s second run, reads the same bytes; past it, no second run is made and resilient says why. See docs/process.md.'),

  breaker: section({
    failureThreshold: setting(z.int().check(z.minimum(1)), 3, 'Consecutive failed attempts on a mirror (from this network) after which it is tried last, after every other source.'),
    cooldownSeconds: setting(z.number().check(z.nonnegative()), 300, 'How long a failing mirror is tried last; after it, the mirror is on trial, and one more failure puts it last for another cooldown.'),
  }, 'Circuit breaker over the remembered mirror health (kept in the state directory).'),

  logs: section({
    keep: setting(z.int().check(z.minimum(0)), 50, 'How many run logs to keep in the state directory (`resilient logs`); older ones are deleted. 0 writes none.'),
  }, 'The JSON log every run that talks to an index writes (its --report content plus timestamps and the resilient version); read-only and local commands write none.'),

  stall: section({
    minBytesPerSecond: setting(z.number().check(z.nonnegative()), 500, 'Throughput floor of the tool and everything it started. An attempt that keeps receiving data, but less than this over `windowSeconds`, while not busy computing, is stopped and retried on the next mirror. 0 turns stall detection off.'),
    windowSeconds: setting(z.number().check(z.minimum(3)), 30, 'How long throughput must stay below the floor before the attempt counts as stalled.'),
  }, 'Stall detection by progress (Linux; see docs/stall-detection.md): a download that trickles is abandoned for a mirror, a slow steady one is left alone.'),

  pypi: optional(pypi, 'PyPI: pip, uv, poetry, pipx, pdm.'),
  conda: optional(ecosystem, 'conda channels: conda, mamba, micromamba, pixi.'),
  npm: optional(ecosystem, 'npm registry: npm, pnpm, yarn, bun.'),
  crates: optional(ecosystem, 'crates.io: cargo.'),
  go: optional(ecosystem, 'Go module proxy: go.'),
})

export type Config = z.infer<typeof configSchema>
export type EcosystemConfig = z.infer<typeof ecosystem> & { wheelhouse?: string }
