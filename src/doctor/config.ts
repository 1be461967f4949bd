import { loadConfig, type LoadedConfig } from '../config/load.js'
import type { Config } from '../config/schema.js'
import { ResilientError } from '../errors.js'
import { redact, redactDeep } from '../redact.js'
import type { Section } from './types.js'

/** The effective resilient config, the files it comes from, and where each non-default setting was set. */
export async function checkConfig(cwd: string, env: NodeJS.ProcessEnv): Promise<{ section: Section; config?: Config }> {
  let loaded: LoadedConfig
  try {
    loaded = await loadConfig({ cwd, env })
  } catch (error) {
    if (!(error instanceof ResilientError)) throw error
    return {
      section: { title: 'resilient config', lines: [`✖ ${redact(error.message)}`], data: { error: redact(error.message) },
        problems: [{ severity: 'broken', area: 'config', message: redact(error.message), fix: error.hint ?? 'Fix the file named above.' }] },
    }
  }
  const set = Object.entries(loaded.origins).filter(([, origin]) => origin !== 'default')
  const lines = [
    loaded.files.length ? `files: ${loaded.files.join(', ')}` : `files: none (defaults only); a project's .resilientrc.json or ${loaded.userConfigFile} would be read`,
    ...set.map(([key, origin]) => `${key} from ${origin}`),
    ...loaded.notices.map(notice => `! ${notice}`),
    `effective: ${redact(JSON.stringify(loaded.config))}`,
  ]
  return {
    section: { title: 'resilient config', lines, data: redactDeep({ files: loaded.files, userConfigFile: loaded.userConfigFile, origins: loaded.origins, config: loaded.config }), problems: [] },
    config: loaded.config,
  }
}
