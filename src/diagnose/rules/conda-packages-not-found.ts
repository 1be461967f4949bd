import { firstCapture, linesMatching } from '../evidence.js'
import { CONDA_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// PackagesNotFoundError (classic), "nothing provides requested X" (libmamba 1), "X does not exist (perhaps a typo or a
// missing channel)" (libmamba 2: the requested spec, libmamba/src/solver/problems_graph.cpp), pixi's "No candidates
// were found for X". "nothing provides requested python 3.14*" is conda-python-version's. A libmamba report that also shows real conflicts ("none of the providers can be installed",
// "conflicts with") is a resolution conflict instead, left to conda-unsatisfiable.
const MISSING = /PackagesNotFoundError|ResolvePackageNotFound|not available from current channels|nothing provides requested (?!python )|No candidates were found for |does not exist \(perhaps a typo or a missing channel\)/
const CONFLICT = /none of the providers can be installed|conflicts with any installable|is not installable because it conflicts/

export const condaPackagesNotFound = {
  id: 'conda-packages-not-found',
  category: 'package_not_found',
  tools: CONDA_FAMILY,
  summary: 'The package (or the requested version or build) is not in the configured channels',
  match: failure => {
    const evidence = linesMatching(failure, MISSING, 3)
    if (!evidence.length || CONFLICT.test(failure.fullText ?? failure.text)) return null
    const name = firstCapture(failure.lines, /nothing provides requested (\S+)|No candidates were found for (\S+)|^\s+- ([\w.-]+)\s*$/)
    return { evidence, facts: { package: name }, summary: name ? `${name} is not in the configured channels` : undefined }
  },
} satisfies Rule
