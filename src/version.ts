declare const __VERSION__: string

/** This resilient's version: the build (rollup.config.mjs) writes it in; unit tests run the sources, where it does not exist. */
export const RESILIENT_VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : 'dev'
