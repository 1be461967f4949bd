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
  // Outside mainland China: Yarn's registry host, a worldwide CDN serving the npm registry's packages under a name of
  // its own (a way round a DNS or route problem with registry.npmjs.org). It is yarn 4's default npmRegistryServer and
  // yarn 1's YARN_REGISTRY, and nrm lists it (src/constants.ts). Cited, not tested from here (no network).
  { id: 'yarnpkg', url: 'https://registry.yarnpkg.com/', region: 'global', checkedOn: '2026-11-28 (cited: yarn 4.18 and 1.22 defaults, nrm; not probed from here)' },
] as const satisfies readonly Mirror[]

export const NPM_UPSTREAM = 'https://registry.npmjs.org/'
