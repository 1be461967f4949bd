import type { Rule } from '../types.js'
import { anyConnection } from './any-connection.js'
import { anyCredentialsRejected } from './any-credentials-rejected.js'
import { anyDiskFull } from './any-disk-full.js'
import { anyDns } from './any-dns.js'
import { anyExternallyManaged } from './any-externally-managed.js'
import { anyHashMismatch } from './any-hash-mismatch.js'
import { anyHttpAuth } from './any-http-auth.js'
import { anyHttpNotFound } from './any-http-not-found.js'
import { anyLockBusy } from './any-lock-busy.js'
import { anyLockUnsupported } from './any-lock-unsupported.js'
import { anyOfflineMode } from './any-offline-mode.js'
import { anyPermission } from './any-permission.js'
import { anyProxyHost } from './any-proxy-host.js'
import { anyProxy } from './any-proxy.js'
import { anyRateLimited } from './any-rate-limited.js'
import { anyServerError } from './any-server-error.js'
import { anySourceServerError } from './any-source-server-error.js'
import { anySsl } from './any-ssl.js'
import { anyTimeout } from './any-timeout.js'
import { anyUsageError } from './any-usage-error.js'
import { cargoBuildFailure } from './cargo-build-failure.js'
import { cargoNoMatchingPackage } from './cargo-no-matching-package.js'
import { cargoRustVersion } from './cargo-rust-version.js'
import { cargoVersionConflict } from './cargo-version-conflict.js'
import { condaChecksumMismatch } from './conda-checksum-mismatch.js'
import { condaConnectionFailed } from './conda-connection-failed.js'
import { condaLockBusy } from './conda-lock-busy.js'
import { condaPackagesNotFound } from './conda-packages-not-found.js'
import { condaPythonVersion } from './conda-python-version.js'
import { condaSslModuleMissing } from './conda-ssl-module-missing.js'
import { condaUnsatisfiable } from './conda-unsatisfiable.js'
import { goNoMatchingVersions } from './go-no-matching-versions.js'
import { goToolchainVersion } from './go-toolchain-version.js'
import { nodeModuleNotFound } from './node-module-not-found.js'
import { npmBuildFailure } from './npm-build-failure.js'
import { npmEresolve } from './npm-eresolve.js'
import { npmIntegrity } from './npm-integrity.js'
import { npmNoMatchingVersion } from './npm-no-matching-version.js'
import { npmUnsupportedEngine } from './npm-unsupported-engine.js'
import { pdmNoMatchingCandidates } from './pdm-no-matching-candidates.js'
import { pipBuildFailure } from './pip-build-failure.js'
import { pipHashMismatch } from './pip-hash-mismatch.js'
import { pipInvalidRequirement } from './pip-invalid-requirement.js'
import { pipNothingListed } from './pip-nothing-listed.js'
import { pipNoMatchingDistribution } from './pip-no-matching-distribution.js'
import { pipRequiresPython } from './pip-requires-python.js'
import { pipResolutionImpossible } from './pip-resolution-impossible.js'
import { pipUntrustedHost } from './pip-untrusted-host.js'
import { pixiBuildBackend } from './pixi-build-backend.js'
import { pnpmMissingIntegrity } from './pnpm-missing-integrity.js'
import { pnpmUnsupportedEngine } from './pnpm-unsupported-engine.js'
import { poetryBuildFailure } from './poetry-build-failure.js'
import { poetryNoInstallationCandidates } from './poetry-no-installation-candidates.js'
import { poetryPackageNotFound } from './poetry-package-not-found.js'
import { poetryPythonVersion } from './poetry-python-version.js'
import { poetrySolverProblem } from './poetry-solver-problem.js'
import { pythonModuleNotFound } from './python-module-not-found.js'
import { uvBuildFailure } from './uv-build-failure.js'
import { uvFileInUse } from './uv-file-in-use.js'
import { uvHashMismatch } from './uv-hash-mismatch.js'
import { uvLockBusy } from './uv-lock-busy.js'
import { uvNoSolution } from './uv-no-solution.js'
import { uvPackageNotFound } from './uv-package-not-found.js'
import { uvPythonVersion } from './uv-python-version.js'
import { yarnChecksumMismatch } from './yarn-checksum-mismatch.js'
import { yarnIncompatibleEngine } from './yarn-incompatible-engine.js'
import { yarnMutexBusy } from './yarn-mutex-busy.js'
import { yarnNoMatchingVersion } from './yarn-no-matching-version.js'

/**
 * Priority order: the first match wins (src/diagnose/index.ts reads the innermost cause first, then the whole
 * output, each time in this order). The order encodes what explains what:
 * 1. non-network failures that network words would otherwise claim (a policy, a usage error, a broken install);
 * 2. local state that no network word explains (PEP 668, a full disk, a held lock), and corrupted downloads;
 * 3. network causes, most specific first: the proxy wraps everything behind it, TLS and DNS come before the
 *    connection errors they produce, HTTP statuses before the resets that follow them;
 * 4. what the solver or the build says, which network trouble also produces ("No matching distribution");
 * 5. broad last resorts: a 404 seen in a verbose log, a tool that found nothing and does not say why, a missing module.
 */
export const RULES: readonly Rule[] = [
  // 1. failures that are not what their words suggest
  pnpmMissingIntegrity,
  condaSslModuleMissing,
  pipInvalidRequirement,
  anyUsageError,
  anyOfflineMode,
  // 2. local state and corrupted downloads
  anyExternallyManaged,
  anyDiskFull,
  uvFileInUse,
  anyLockUnsupported,
  uvLockBusy,
  condaLockBusy,
  yarnMutexBusy,
  anyLockBusy,
  pipHashMismatch,
  uvHashMismatch,
  condaChecksumMismatch,
  npmIntegrity,
  yarnChecksumMismatch,
  anyHashMismatch,
  // 3. the network
  pipUntrustedHost,
  anyProxy,
  anyProxyHost,
  anySsl,
  anyDns,
  anyRateLimited,
  anyTimeout,
  anyServerError,
  anyCredentialsRejected,
  anyHttpAuth,
  anyConnection,
  condaConnectionFailed,
  anyPermission,
  // what the relay saw of a source outweighs what the tool concluded from the pages it did not get
  anySourceServerError,
  // 4. runtime versions, missing packages, conflicts, builds
  poetryPythonVersion,
  pipRequiresPython,
  uvPythonVersion,
  condaPythonVersion,
  poetryNoInstallationCandidates,
  pnpmUnsupportedEngine,
  npmUnsupportedEngine,
  yarnIncompatibleEngine,
  cargoRustVersion,
  goToolchainVersion,
  pipNoMatchingDistribution,
  uvPackageNotFound,
  condaPackagesNotFound,
  npmNoMatchingVersion,
  yarnNoMatchingVersion,
  pdmNoMatchingCandidates,
  poetryPackageNotFound,
  cargoNoMatchingPackage,
  goNoMatchingVersions,
  pipResolutionImpossible,
  uvNoSolution,
  poetrySolverProblem,
  condaUnsatisfiable,
  npmEresolve,
  cargoVersionConflict,
  pipBuildFailure,
  uvBuildFailure,
  poetryBuildFailure,
  npmBuildFailure,
  pixiBuildBackend,
  cargoBuildFailure,
  // 5. last resorts
  anyHttpNotFound,
  // a tool that found nothing and does not say why: after every cause that could explain it, a 404 for the name too
  pipNothingListed,
  pythonModuleNotFound,
  nodeModuleNotFound,
]
