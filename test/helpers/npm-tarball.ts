export * from '../../src/testing/npm-tarball.js'
