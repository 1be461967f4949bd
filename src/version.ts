declare const __VERSION__: string

/** This resilient's version: tsup writes it into the build; unit tests run the sources, where it does not exist. */
export const RESILIENT_VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : 'dev'
