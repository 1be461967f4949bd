/** Something doctor found wrong, and what the person can do about it. */
export interface Problem {
  /** `broken`: resilient or a tool cannot work as configured (doctor exits 1). `warning`: works, but not as meant. */
  severity: 'broken' | 'warning'
  /** Which section found it (`tools`, `proxy`, `config`, `shims`, `state`). */
  area: string
  message: string
  fix: string
}

/** One section of the report: lines for people, `data` for `--json`. */
export interface Section {
  title: string
  lines: string[]
  data: unknown
  problems: Problem[]
}
