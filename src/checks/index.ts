/**
 * The explicit list of checks, in report order: security, maintenance, documentation,
 * compliance, community. A check exists for nerq only once it is listed here.
 */
import type { AnyCheck } from './define.js';
import changelog from './changelog.js';
import dependencyFootprint from './dependency-footprint.js';
import deprecation from './deprecation.js';
import installScripts from './install-scripts.js';
import knownVulnerabilities from './known-vulnerabilities.js';
import licenseDeclared from './license-declared.js';
import licenseFile from './license-file.js';
import licensePermissiveness from './license-permissiveness.js';
import maintainers from './maintainers.js';
import maliciousPackage from './malicious-package.js';
import metadataCompleteness from './metadata-completeness.js';
import provenance from './provenance.js';
import publisherContinuity from './publisher-continuity.js';
import readme from './readme.js';
import releaseAnomalies from './release-anomalies.js';
import releaseCadence from './release-cadence.js';
import releaseRecency from './release-recency.js';
import securityPlaceholder from './security-placeholder.js';
import typeDeclarations from './type-declarations.js';
import typosquat from './typosquat.js';
import versionMaturity from './version-maturity.js';
import vulnerableDependencies from './vulnerable-dependencies.js';
import weeklyDownloads from './weekly-downloads.js';

export const CHECKS: readonly AnyCheck[] = [
  // security
  maliciousPackage,
  knownVulnerabilities,
  vulnerableDependencies,
  securityPlaceholder,
  deprecation,
  releaseAnomalies,
  installScripts,
  provenance,
  publisherContinuity,
  typosquat,
  // maintenance
  releaseRecency,
  releaseCadence,
  versionMaturity,
  dependencyFootprint,
  // documentation
  readme,
  metadataCompleteness,
  typeDeclarations,
  changelog,
  // compliance
  licenseDeclared,
  licenseFile,
  licensePermissiveness,
  // community
  weeklyDownloads,
  maintainers,
];
