import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    setupFiles: ['test/setup.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // e2e tests start real pip/npm processes and local servers: keep the 2-core CI machine from thrashing.
    maxWorkers: 2,
  },
})
