import { isCI } from 'ci-info'
import { defineConfig } from 'vitest/config'

// How the suite is laid out and why: docs/testing.md.

/**
 * E2E files that run alone, one at a time, after everything else: each asserts what a person sees within a few
 * seconds in a real terminal (typed keys, a spinner's frames, Ctrl-Z), which eight other e2e files starting pip and
 * npm beside it would stretch past any fair bound. Every other file makes its own servers, HOME and temporary folders.
 */
export const ALONE = [
  'test/e2e/terminal.e2e.test.ts',
  'test/e2e/waits.e2e.test.ts',
]

/**
 * Workers for the files that run side by side. An e2e file mostly waits on its tools and servers, so more files than
 * cores keep both cores busy; more workers than this made the whole run no shorter on 2 cores (docs/testing.md).
 * `--maxWorkers` on the command line (or VITEST_MAX_WORKERS) overrides it.
 */
const WORKERS = 4

export default defineConfig({
  test: {
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Read here, in the runner: test/setup.ts removes CI from the workers' environment (test/helpers/requirements.ts).
    provide: { onCI: isCI },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxWorkers: WORKERS,
    // `npx vitest run --coverage`: what the unit tests, and the e2e files' own imports, reach of src/ (the e2e tests'
    // children run the built dist/, which v8 coverage in the workers does not see).
    coverage: { provider: 'v8', include: ['src/**/*.ts'], reporter: ['text-summary', 'json-summary'] },
    projects: [
      // Unit files share their workers (no fresh process per file): they mock no module and keep no state between
      // files, and a fresh process for each of 200 files cost more CPU than the tests themselves.
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false } },
      // Every e2e file beside the others and the unit files; a test that waits on a real tool gets twice the time.
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], exclude: ALONE, testTimeout: 120_000, hookTimeout: 120_000 } },
      { extends: true, test: { name: 'e2e-alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 }, testTimeout: 120_000, hookTimeout: 120_000 } },
    ],
  },
})
