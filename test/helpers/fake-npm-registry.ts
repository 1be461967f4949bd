// The npm registry with fault injection lives in src/testing (npm run bench uses it too).
export * from '../../src/testing/npm-registry.js'
