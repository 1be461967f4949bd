import type { Mirror } from './types.js'

// Sources: chsrc's Cargo recipe (RubyMetric/chsrc src/recipe/lang/Rust/Cargo.c) and the Cargo book's
// reference/source-replacement.html. Sparse index URLs; cargo needs the trailing slash.
// Left out: NJU and HUST (disabled in chsrc on 2025-06-17, sync failing), MirrorZ (a redirector).
export const crates = [
  { id: 'rsproxy', url: 'https://rsproxy.cn/index/', region: 'cn', checkedOn: '2026-07-23' },
  { id: 'tuna', url: 'https://mirrors.tuna.tsinghua.edu.cn/crates.io-index/', region: 'cn', checkedOn: '2026-07-23' },
  { id: 'ustc', url: 'https://mirrors.ustc.edu.cn/crates.io-index/', region: 'cn', checkedOn: '2026-07-23' },
  { id: 'aliyun', url: 'https://mirrors.aliyun.com/crates.io-index/', region: 'cn', checkedOn: '2026-07-23' },
  { id: 'bfsu', url: 'https://mirrors.bfsu.edu.cn/crates.io-index/', region: 'cn', checkedOn: '2026-07-23' },
] as const satisfies readonly Mirror[]

export const CRATES_UPSTREAM = 'https://index.crates.io/'
