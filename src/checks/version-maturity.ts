/**
 * version-maturity: whether the resolved version claims a stable API (≥ 1.0.0, not a
 * pre-release), read by the ecosystem's version rules (semver for npm, PEP 440 for PyPI).
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import type { ReleaseFacts } from './views/release.js';

/** A 0.x version's score, and a pre-release's (a stable 1.0.0 or later scores 100). */
/** The message for a version the ecosystem's rules cannot read, per ecosystem. */
const INVALID: Readonly<Record<ReleaseFacts['ecosystem'], 'invalid' | 'invalid-pep440'>> = { npm: 'invalid', pypi: 'invalid-pep440' };

const INITIAL_SCORE = 50;
const PRERELEASE_SCORE = 30;

export default defineCheck({
  id: 'version-maturity',
  dimension: 'maintenance',
  weight: 1,
  needs: ['release'],
  title: 'Version maturity',
  description:
    'Reads the resolved version (semver for npm; PEP 440 for PyPI, where a/b/rc and .dev releases are pre-releases and post-releases are not): ≥ 1.0.0 and not a pre-release scores 100, a 0.x version ' +
    `${INITIAL_SCORE}, a pre-release (1.0.0-beta.1, 1.0.0rc1) ${PRERELEASE_SCORE}.`,
  messages: {
    stable: 'Stable version {version}',
    initial: 'Initial-development version {version} (0.x: the API may change at any release)',
    prerelease: 'Pre-release version {version}',
    invalid: 'Version {version} is not valid semver',
    'invalid-pep440': 'Version {version} is not a valid PEP 440 version',
  },
  evaluate: ({ release }) => {
    const { version, versionParts: parts } = release;
    if (parts === null) {
      return { score: null, messageId: INVALID[release.ecosystem], data: { version } };
    }
    const data: Record<string, EvidenceValue> = { version, major: parts.major, prerelease: parts.prerelease };
    if (parts.prerelease) return { score: PRERELEASE_SCORE, messageId: 'prerelease', data };
    if (parts.major === 0) return { score: INITIAL_SCORE, messageId: 'initial', data };
    return { score: 100, messageId: 'stable', data };
  },
});
