import { isCI } from 'ci-info'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Read here, in the runner: test/setup.ts removes CI from the workers' environment (test/helpers/requirements.ts).
    provide: { onCI: isCI },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      // E2E files run one at a time: they start real pip/npm/cargo processes and local servers, and several assert
      // wall-clock bounds from the issues (a black hole recovered in 15 s, a stall within the window + 10 s) that
      // two such files competing for a 2-core machine would break.
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], fileParallelism: false } },
    ],
  },
})
