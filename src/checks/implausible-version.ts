/**
 * implausible-version: whether the package's version numbering starts where dependency-confusion
 * payloads start it. Such a payload is published under a company's private package name with a
 * version no real release would have (99.9.9, 101.0.0, 1.0.9999), so that a package manager
 * asked for the private package prefers the public one (docs/scoring.md §5, `implausible-version`).
 * A real project's numbering starts low and climbs; calendar versions (2024.1.0, 0.20230511.0)
 * are dates, not jumps.
 *
 * Pure: reads the release view's version list, with `now` for how long the package has existed.
 */
import { defineCheck, type CheckOutcome } from './define.js';
import { ESTABLISHED_MIN_DAYS, ESTABLISHED_MIN_RELEASES, datedEntries, establishment } from './lib/releases.js';

/** A major version from which a number is implausible for a real project's release… */
export const IMPLAUSIBLE_MAJOR = 90;
/** … unless it reads as a calendar date: a year, year and month, or year, month and day. */
const CALENDAR_RANGES: readonly (readonly [number, number])[] = [
  [1990, 2100],
  [199_001, 210_012],
  [19_900_101, 21_001_231],
];
/** A minor or patch number made of three or more nines (`0.999.999`, `1.0.9999`). */
const NINES = /^9{3,}$/;
/** The score of a package whose numbering started implausibly high, and its cap. */
export const IMPLAUSIBLE_SCORE = 0;
export const IMPLAUSIBLE_CAP = 49.9;
/** The score of an established package whose numbering jumped to such a version. */
export const JUMP_SCORE = 50;

/** The leading release numbers of a version (`1.2.3-beta` → [1, 2, 3]; PEP 440 `99.0` → [99, 0]), or null. */
function releaseNumbers(version: string): string[] | null {
  const match = /^v?(\d{1,20}(?:\.\d{1,20}){0,5})/i.exec(version.trim());
  return match === null ? null : (match[1] as string).split('.');
}

function isCalendar(n: number): boolean {
  return CALENDAR_RANGES.some(([low, high]) => n >= low && n <= high);
}

/** Why a version is implausible for a real release (`major` or `nines`), or null. */
export function implausibility(version: string): 'major' | 'nines' | null {
  const parts = releaseNumbers(version);
  if (parts === null) return null;
  const major = Number(parts[0]);
  if (major >= IMPLAUSIBLE_MAJOR && !isCalendar(major)) return 'major';
  if (parts.slice(1).some((p) => NINES.test(p))) return 'nines';
  return null;
}

export default defineCheck({
  id: 'implausible-version',
  dimension: 'security',
  weight: 2,
  needs: ['release'],
  title: 'Plausible version numbering',
  description:
    `Reads the version numbers the registry lists: a resolved stable version with a major of ${IMPLAUSIBLE_MAJOR} or more that is not a calendar date (a year, year-month or year-month-day), or with a minor or patch of three or more nines (\`99.9.9\`, \`101.0.0\`, \`1.0.9999\`), is the number dependency-confusion payloads pick so that a package manager prefers them to a private package of the same name. ` +
    `When the package's first stable release is implausible too (its numbering started there) it scores 0 and caps the score at ${IMPLAUSIBLE_CAP}, unless the package is established (a first release at least ${ESTABLISHED_MIN_DAYS} days ago and at least ${ESTABLISHED_MIN_RELEASES} releases); reached by a jump from lower numbers it scores ${JUMP_SCORE}. ` +
    'Any other version (and one with no leading release number) is not a finding and leaves the check out of the report, so that it never adds points to an ordinary package.',
  messages: {
    plausible: 'Version {version} follows ordinary numbering',
    'started-implausibly': 'Version {version} and a numbering that started at {first}: the shape of a dependency-confusion payload, published with a version no real release has so that it wins over a private package of the same name',
    jump: 'Version {version} jumps from {previous}: an implausibly high number for a real release',
    established: 'Version {version} is implausibly high, but the package is established: {releases} releases since {firstRelease}',
    unreadable: 'Version {version} has no release number to read',
  },
  evaluate: ({ release }, { now }): CheckOutcome => {
    const version = release.version;
    if (releaseNumbers(version) === null) return { score: null, messageId: 'unreadable', data: { version }, notApplicable: true };
    const why = implausibility(version);
    const resolvedStable = release.versionParts === null || !release.versionParts.prerelease;
    if (why === null || !resolvedStable) return { score: null, messageId: 'plausible', data: { version, implausible: null }, notApplicable: true };

    const stable = release.releases.filter((r) => r.stable);
    const dated = datedEntries(stable, true, now);
    // The first release by publish time, or by the registry's order when no time is known.
    const first = dated[0]?.version ?? stable[0]?.version ?? version;
    const established = establishment(release.releases, now);
    if (established !== null) return { score: null, messageId: 'established', data: { version, implausible: why, ...established }, notApplicable: true };
    if (implausibility(first) !== null) {
      return {
        score: IMPLAUSIBLE_SCORE,
        messageId: 'started-implausibly',
        data: { version, implausible: why, first },
        caps: [
          {
            id: 'implausible-version',
            limit: IMPLAUSIBLE_CAP,
            reason: `version ${version}, in a numbering that started at ${first}, is the shape of a dependency-confusion payload; if you meant a private package of this name, install it from your own registry (a scoped name, or a registry configured for its scope)`,
            args: { version, first, implausible: why },
          },
        ],
      };
    }
    const index = dated.findIndex((r) => r.version === version);
    const previous = index > 0 ? (dated[index - 1] as { version: string }).version : first;
    return { score: JUMP_SCORE, messageId: 'jump', data: { version, implausible: why, previous } };
  },
});
