// The npm registry with fault injection lives in test/support/ (npm run bench uses it too).
export * from '../support/npm-registry.js'
