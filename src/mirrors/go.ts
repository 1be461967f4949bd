import type { Mirror } from './types.js'

// Sources: chsrc's Go recipe (RubyMetric/chsrc src/recipe/lang/Go.c) and each operator's help page. Left out:
// Huawei's goproxy (suspended, chsrc#227) and proxy.golang.com.cn (no authoritative source for its operator).
export const go = [
  { id: 'goproxy-cn', url: 'https://goproxy.cn', region: 'cn', checkedOn: '2026-07-23' },
  { id: 'goproxy-io', url: 'https://goproxy.io', region: 'global', checkedOn: '2026-07-23' },
  { id: 'aliyun', url: 'https://mirrors.aliyun.com/goproxy/', region: 'cn', checkedOn: '2026-07-23' },
] as const satisfies readonly Mirror[]

export const GO_UPSTREAM = 'https://proxy.golang.org'
