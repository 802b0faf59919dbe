/**
 * deprecation: whether the resolved version is deprecated on the registry (caps the score), or
 * its README's opening or its registry description declares the package deprecated,
 * unmaintained or replaced (holds the verdict: lib/readme-opening.ts).
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { declaredDeprecation, descriptionDeclaredDeprecation } from './lib/readme-opening.js';
import { truncate } from './lib/text.js';

/** Longest deprecation message kept in evidence and cap reasons. */
const MAX_MESSAGE_CHARS = 200;
/** A README that declares the package deprecated, without a registry notice. */
export const README_DECLARED_SCORE = 20;

export default defineCheck({
  id: 'deprecation',
  dimension: 'security',
  weight: 3,
  needs: ['registry'],
  optional: ['documents'],
  title: 'Not deprecated',
  description:
    'Reads the npm registry deprecation notice of the resolved version (npm only; PyPI has yanked-release and project-status). Deprecated scores 0 and caps the overall score at 49.9; not deprecated scores 100; ' +
    'unknown when a mirror serves abbreviated package metadata without it — and then, when the version the `latest` dist-tag names is deprecated and npm passed over it for an older one, that notice holds the verdict at CAUTION. ' +
    `A README whose title, the subtitle under it, its first paragraph, or an alert or the first section's heading before its first ordinary section declares the package deprecated, unmaintained or replaced ("# Deprecated", "This module is no longer maintained", "This project has moved to Y." — the package itself, not its docs or its repository —, "This package will not receive further updates.", "## Karma is deprecated", "Use X instead.", "This is a stub types definition for X") scores ${README_DECLARED_SCORE} and holds the verdict at CAUTION, as does a registry description that says it of the package ("Renamed to @scope/x - see …", "DEPRECATED: use y", "x (deprecated)"; not "Deprecation warnings for …"), which a mirror keeps when it leaves out the notice; a mention further down the README declares nothing.`,
  messages: {
    deprecated: 'Deprecated: {message}',
    'not-deprecated': 'Not deprecated',
    unknown: 'Deprecation status unknown: the registry did not include it',
    'latest-deprecated': 'Deprecation status of {version} unknown (the registry did not include it), but the latest release {latestVersion} is deprecated: {message}',
    'readme-declared': 'The README declares it ({where}): "{excerpt}"',
    'description-declared': 'The registry description declares it: "{excerpt}"',
  },
  evaluate: ({ registry, documents }) => {
    const { deprecated } = registry;
    // An empty message is how npm un-deprecates a version.
    if (deprecated !== null && deprecated !== false && deprecated.trim() !== '') {
      const message = truncate(deprecated.trim(), MAX_MESSAGE_CHARS);
      const data: Record<string, EvidenceValue> = { deprecated: true, message };
      return {
        score: 0,
        messageId: 'deprecated',
        data,
        caps: [{ id: 'deprecated', limit: 49.9, reason: `version is deprecated: ${message}`, args: { version: registry.version, message } }],
      };
    }
    const declared = documents?.readme ? declaredDeprecation(documents.readme.text, registry.name) : null;
    if (declared !== null) {
      const data: Record<string, EvidenceValue> = { deprecated: deprecated === null ? null : false, readmeDeclared: true, where: declared.where, excerpt: declared.excerpt };
      return {
        score: README_DECLARED_SCORE,
        messageId: 'readme-declared',
        data,
        holdVerdict: `the README's ${declared.where} declares the package deprecated or unmaintained ("${declared.excerpt}"); a README that no longer says so would lift this`,
      };
    }
    const described = registry.description === null ? null : descriptionDeclaredDeprecation(registry.description, registry.name);
    if (described !== null) {
      const data: Record<string, EvidenceValue> = { deprecated: deprecated === null ? null : false, descriptionDeclared: true, excerpt: described };
      return {
        score: README_DECLARED_SCORE,
        messageId: 'description-declared',
        data,
        holdVerdict: `the registry description declares the package deprecated, unmaintained or replaced ("${described}"); a description that no longer says so would lift this`,
      };
    }
    const latest = registry.latestDeprecated;
    if (deprecated === null && latest !== null) {
      // npm resolved an older version because `latest` is deprecated; a trimmed packument cannot say whether this one is too.
      const message = truncate(latest.message.trim(), MAX_MESSAGE_CHARS);
      const latestVersion = truncate(latest.version, MAX_MESSAGE_CHARS);
      const data: Record<string, EvidenceValue> = { deprecated: null, version: registry.version, latestVersion, message };
      return {
        score: null,
        messageId: 'latest-deprecated',
        data,
        holdVerdict: `the registry deprecates the latest release, ${latestVersion} ("${message}"), and whether ${registry.version} is deprecated too is unknown (the registry's metadata leaves it out); a registry that serves it would lift this`,
      };
    }
    if (deprecated === null) return { score: null, messageId: 'unknown', data: { deprecated: null } };
    return { score: 100, messageId: 'not-deprecated', data: { deprecated: false } };
  },
});
