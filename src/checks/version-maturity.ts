/**
 * version-maturity: whether the resolved version claims a stable API (semver ≥ 1.0.0).
 */
import semver from 'semver';
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';

export default defineCheck({
  id: 'version-maturity',
  dimension: 'maintenance',
  weight: 1,
  needs: ['registry'],
  title: 'Version maturity',
  description:
    'Reads the resolved version: ≥ 1.0.0 and not a pre-release scores 100, a 0.x version 50, a pre-release (1.0.0-beta.1) 30.',
  messages: {
    stable: 'Stable version {version}',
    initial: 'Initial-development version {version} (0.x: the API may change at any release)',
    prerelease: 'Pre-release version {version}',
    invalid: 'Version {version} is not valid semver',
  },
  evaluate: ({ registry }) => {
    const version = registry.version;
    const parsed = semver.parse(version);
    if (parsed === null) return { score: null, messageId: 'invalid', data: { version } };
    const data: Record<string, EvidenceValue> = { version, major: parsed.major, prerelease: parsed.prerelease.length > 0 };
    if (parsed.prerelease.length > 0) return { score: 30, messageId: 'prerelease', data };
    if (parsed.major === 0) return { score: 50, messageId: 'initial', data };
    return { score: 100, messageId: 'stable', data };
  },
});
