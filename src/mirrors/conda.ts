import type { Mirror } from './types.js'

// Sources: chsrc's Anaconda recipe (RubyMetric/chsrc src/recipe/ware/Anaconda/Anaconda.c) and conda's
// docs/source/user-guide/configuration/mirroring.rst. The URL is a channel *alias* base: a named channel
// `conda-forge` resolves to `<url>/conda-forge`. Left out: USTC (its defaults mirror closed in 2019,
// ustclug/mirrorrequest#228), Aliyun (third-party evidence only).
export const conda = [
  { id: 'tuna', url: 'https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud', region: 'cn', checkedOn: '2026-07-23' },
  { id: 'bfsu', url: 'https://mirrors.bfsu.edu.cn/anaconda/cloud', region: 'cn', checkedOn: '2026-07-23' },
  { id: 'nju', url: 'https://mirror.nju.edu.cn/anaconda/cloud', region: 'cn', checkedOn: '2026-07-23' },
  { id: 'sjtug', url: 'https://mirror.sjtu.edu.cn/anaconda/cloud', region: 'cn', checkedOn: '2026-07-23' },
  { id: 'prefix', url: 'https://prefix.dev', region: 'global', checkedOn: '2026-08-21' },
] as const satisfies readonly Mirror[]

export const CONDA_UPSTREAM = 'https://conda.anaconda.org'
