// Types of bench/render.mjs, which `npm run bench` runs with plain node.

export interface HealthyIndexFigure {
  runs: number
  plainMedianMs: number
  resilientMedianMs: number
  nodeMedianMs: number
}

export function overhead(b: HealthyIndexFigure): { added: number; toTool: number; toNode: number }
export function renderSections(results: unknown): Record<string, string>
export function withSections(text: string, sections: Record<string, string>): string
