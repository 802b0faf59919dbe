/**
 * The explicit list of checks, in report order: security, maintenance, documentation,
 * compliance, community. A check exists for nerq only once it is listed here.
 */
import agentDirectedText from './agent-directed-text.js';
import commandShadowing from './command-shadowing.js';
import implausibleVersion from './implausible-version.js';
import mcpPackages from './mcp-packages.js';
import mcpPackageOwnership from './mcp-package-ownership.js';
import mcpNamespaceOwner from './mcp-namespace-owner.js';
import mcpNameCopy from './mcp-name-copy.js';
import mcpRepositoryId from './mcp-repository-id.js';
import mcpRemotes from './mcp-remotes.js';
import mcpRuntimeReach from './mcp-runtime-reach.js';
import mcpOciImages from './mcp-oci-images.js';
import mcpImageOwner from './mcp-image-owner.js';
import mcpBundles from './mcp-bundles.js';
import mcpRegistryStatus from './mcp-registry-status.js';
import type { AnyCheck } from './define.js';
import changelog from './changelog.js';
import ciPresent from './ci-present.js';
import commitActivity from './commit-activity.js';
import communityFiles from './community-files.js';
import contributors from './contributors.js';
import dependencyFootprint from './dependency-footprint.js';
import dependencyUpdateTool from './dependency-update-tool.js';
import deprecation from './deprecation.js';
import installScripts from './install-scripts.js';
import obfuscatedCode from './obfuscated-code.js';
import issueResponsiveness from './issue-responsiveness.js';
import knownVulnerabilities from './known-vulnerabilities.js';
import licenseConsistency from './license-consistency.js';
import licenseDeclared from './license-declared.js';
import licenseFile from './license-file.js';
import licensePermissiveness from './license-permissiveness.js';
import maintainers from './maintainers.js';
import maliciousPackage from './malicious-package.js';
import manifestConfusion from './manifest-confusion.js';
import metadataCompleteness from './metadata-completeness.js';
import projectMaturity from './project-maturity.js';
import advertisedPackages from './advertised-packages.js';
import prMergeRate from './pr-merge-rate.js';
import projectStatus from './project-status.js';
import provenance from './provenance.js';
import publisherContinuity from './publisher-continuity.js';
import readme from './readme.js';
import releaseAnomalies from './release-anomalies.js';
import releaseCadence from './release-cadence.js';
import releaseRecency from './release-recency.js';
import releaseSigning from './release-signing.js';
import repositoryArchived from './repository-archived.js';
import securityPlaceholder from './security-placeholder.js';
import securityPolicy from './security-policy.js';
import starsForks from './stars-forks.js';
import typeDeclarations from './type-declarations.js';
import typosquat from './typosquat.js';
import unvouchedDependencies from './unvouched-dependencies.js';
import startupHooks from './startup-hooks.js';
import importTimeCode from './import-time-code.js';
import loadTimeCode from './load-time-code.js';
import entryPoints from './entry-points.js';
import wheelsPublished from './wheels-published.js';
import workflowSafety from './workflow-safety.js';
import yankedRelease from './yanked-release.js';
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
  yankedRelease,
  releaseAnomalies,
  installScripts,
  obfuscatedCode,
  loadTimeCode,
  entryPoints,
  manifestConfusion,
  unvouchedDependencies,
  wheelsPublished,
  startupHooks,
  importTimeCode,
  provenance,
  publisherContinuity,
  typosquat,
  implausibleVersion,
  advertisedPackages,
  securityPolicy,
  releaseSigning,
  dependencyUpdateTool,
  mcpPackages,
  mcpPackageOwnership,
  mcpNamespaceOwner,
  mcpNameCopy,
  mcpRepositoryId,
  mcpRemotes,
  mcpRuntimeReach,
  mcpOciImages,
  mcpImageOwner,
  mcpBundles,
  workflowSafety,
  agentDirectedText,
  commandShadowing,
  // maintenance
  mcpRegistryStatus,
  releaseRecency,
  releaseCadence,
  versionMaturity,
  dependencyFootprint,
  projectStatus,
  commitActivity,
  issueResponsiveness,
  prMergeRate,
  repositoryArchived,
  ciPresent,
  projectMaturity,
  // documentation
  readme,
  metadataCompleteness,
  typeDeclarations,
  changelog,
  // compliance
  licenseDeclared,
  licenseFile,
  licensePermissiveness,
  licenseConsistency,
  // community
  weeklyDownloads,
  maintainers,
  contributors,
  starsForks,
  communityFiles,
];
