import { firstCapture, linesMatching } from '../evidence.js'
import { CONDA_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// PackagesNotFoundError (classic), "nothing provides requested X" (libmamba 1), "X does not exist (perhaps a typo or a
// missing channel)" (libmamba 1.5 and 2: the requested spec, libmamba/src/solver/problems_graph.cpp), pixi's "No
// candidates were found for X". "nothing provides requested python 3.14*" is conda-python-version's. A libmamba report
// that also shows real conflicts ("none of the providers can be installed", "conflicts with") is a resolution conflict
// instead, left to conda-unsatisfiable.
const MISSING = /PackagesNotFoundError|ResolvePackageNotFound|not available from current channels|nothing provides requested (?!python )|No candidates were found for |does not exist \(perhaps a typo or a missing channel\)/
const CONFLICT = /none of the providers can be installed|conflicts with any installable|is not installable because it conflicts/
// A dependency of what was requested can be missing too: libsolv's "nothing provides X needed by Y" (src/problems.c),
// libmamba's "X, which does not exist (perhaps a missing channel)" below the option that needs it (1.5:
// src/core/satisfiability_error.cpp). That is the cause only when nothing else in the report could be installed: beside
// "cannot install both" (libsolv) or options "which can be installed", the missing leaf is one branch of a conflict. A
// virtual package (`__cuda`, `__glibc`) is the machine's, not the channel's.
const DEPENDENCY_MISSING = /nothing provides (?!requested |python |__)\S{1,200} [^\n]{0,200}needed by |which does not exist \(perhaps a missing channel\)/
const DEPENDENCY_CONFLICT = /cannot install both |which can be installed/

export const condaPackagesNotFound = {
  id: 'conda-packages-not-found',
  category: 'package_not_found',
  tools: CONDA_FAMILY,
  summary: 'The package (or the requested version or build) is not in the configured channels',
  match: failure => {
    const text = failure.fullText ?? failure.text
    const requested = linesMatching(failure, MISSING, 3)
    const evidence = requested.length || DEPENDENCY_CONFLICT.test(text) ? requested : linesMatching(failure, DEPENDENCY_MISSING, 3)
    if (!evidence.length || CONFLICT.test(text)) return null
    // The list under PackagesNotFoundError names the packages; conda 23.9's "Channels:" header is such a list too.
    const listed = failure.lines.findIndex(line => /not available from current channels|ResolvePackageNotFound/.test(line))
    const name = firstCapture(failure.lines, /nothing provides requested (\S+)|nothing provides (?!python )(\S+) [^\n]{0,200}needed by |No candidates were found for (\S+)/)
      ?? (listed >= 0 ? firstCapture(failure.lines.slice(listed + 1), /^\s+- ([\w.-]+)(?:[=<>!~][^\s]{0,100})?\s*$/) : undefined)
    return { evidence, facts: { package: name, absence: 'listing' }, summary: name ? `${name} is not in the configured channels` : undefined }
  },
} satisfies Rule
