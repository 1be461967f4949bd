export * from '../support/npm-tarball.js'
