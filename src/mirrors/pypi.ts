import type { Mirror } from './types.js'

// Sources: chsrc's Python recipe (RubyMetric/chsrc src/recipe/lang/Python/common.h, 2026-07-23), the operators'
// help pages and issue threads. Mirrors that sync independently of TUNA come early: university mirrors that pull
// from TUNA lag with it (CherryHQ/cherry-studio#19102). Left out: JLU (down since 2025-04), Douban (no current
// evidence), MirrorZ/CERNET (302 to a random member), USTC (a cache that redirects uncached packages to TUNA).
export const pypi = [
  { id: 'tuna', url: 'https://pypi.tuna.tsinghua.edu.cn/simple', region: 'cn', checkedOn: '2026-07-23' },
  { id: 'aliyun', url: 'https://mirrors.aliyun.com/pypi/simple', region: 'cn', checkedOn: '2026-07-23' },
  { id: 'tencent', url: 'https://mirrors.cloud.tencent.com/pypi/simple', region: 'cn', checkedOn: '2026-07-23' },
  { id: 'huawei', url: 'https://mirrors.huaweicloud.com/repository/pypi/simple', region: 'cn', checkedOn: '2026-07-23' },
  { id: 'bfsu', url: 'https://mirrors.bfsu.edu.cn/pypi/web/simple', region: 'cn', checkedOn: '2026-07-23' },
  { id: 'sjtug', url: 'https://mirror.sjtu.edu.cn/pypi/web/simple', region: 'cn', checkedOn: '2026-07-23' },
  { id: 'nju', url: 'https://mirror.nju.edu.cn/pypi/web/simple', region: 'cn', checkedOn: '2026-07-23' },
  // Outside mainland China. PyPI has few public mirrors left elsewhere (bandersnatch mirrors closed as the index grew
  // past tens of terabytes); Kakao's, in South Korea, is run by Kakao's mirror team (they restored a missing project
  // in kakaobrain/pororo#57), and public pip logs download from it. Cited, not tested from here (no network).
  { id: 'kakao', url: 'https://mirror.kakao.com/pypi/simple', region: 'kr', checkedOn: '2026-11-28 (cited: kakaobrain/pororo#57, public pip logs; not probed from here)' },
] as const satisfies readonly Mirror[]

export const PYPI_UPSTREAM = 'https://pypi.org/simple'
