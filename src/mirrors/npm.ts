import type { Mirror } from './types.js'

// Sources: chsrc's JavaScript recipe (RubyMetric/chsrc src/recipe/lang/JavaScript/common.h) and nrm's
// src/constants.ts. Left out on purpose:
// the old Taobao registry host (dead: renamed to npmmirror, DNS stopped 2024-04-15, cnpm/mirrors#284), cnpm.tuna (offline since 2016),
// skimdb (a CouchDB replication endpoint, not an install mirror), r.cnpmjs.org (status unverified).
// npmmirror has no audit endpoint: the npm adapter adds --no-audit on every mirror.
export const npm = [
  { id: 'npmmirror', url: 'https://registry.npmmirror.com/', region: 'cn', checkedOn: '2026-07-23' },
  { id: 'huawei', url: 'https://mirrors.huaweicloud.com/repository/npm/', region: 'cn', checkedOn: '2026-07-23' },
  { id: 'tencent', url: 'https://mirrors.cloud.tencent.com/npm/', region: 'cn', checkedOn: '2026-07-23' },
] as const satisfies readonly Mirror[]

export const NPM_UPSTREAM = 'https://registry.npmjs.org/'
