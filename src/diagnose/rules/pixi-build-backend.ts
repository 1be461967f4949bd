import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// pixi-build: the build backend (pixi-build-ros, -python, -cmake) failed while extracting metadata or building.
export const pixiBuildBackend = {
  id: 'pixi-build-backend',
  category: 'build_failure',
  tools: ['pixi'],
  summary: 'A pixi build backend failed to build or describe a source package',
  match: failure => {
    const evidence = linesMatching(failure, /failed to extract metadata for package|could not initialize the build-backend|failed to communicate with the build backend|build backend [^\n]{0,80}failed/i, 3)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
