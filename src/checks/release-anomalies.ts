/**
 * release-anomalies: what changed between the resolved version and the one published just
 * before it, in the ways the 2025 npm compromises showed — provenance dropped, a publisher
 * who is neither a listed maintainer nor ever published before, a new install script or
 * `bin`, a jump in size or in dependencies, a dependency added that is itself brand new (the 2018
 * event-stream compromise's shape). Each finding carries its evidence. Two or more
 * kinds together are how those compromises looked: while the release is new that caps the
 * score below the gate's line, afterwards it holds the verdict (docs/scoring.md §6a).
 *
 * Context is reported, never counted: a `latest` published under 72 h ago (every release is
 * fresh once), a listed maintainer publishing for the first time (teams take turns), and a
 * command, dependencies or size a new major line brings (a version outside the caret range of
 * the one before it — 0.0.1 → 1.0.7 — reaches no dependent by an ordinary update, and that is
 * how a major release differs: the 2025 compromises were patch releases within a line). A lone
 * new publisher is scored by publisher-continuity, not again here.
 */
import type { AttestationFacts, DependencyFacts, RegistryFacts, TarballFacts } from '../evidence/schema.js';
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { installHooks, scriptLabel } from './lib/install-hooks.js';
import { isFutureTime, parseTime } from './lib/releases.js';
import { withheldTimes } from './lib/publish-times.js';
import { truncate } from './lib/text.js';
import semver from 'semver';

const HOUR_MS = 3_600_000;
/** A `latest` published less than this long before now is "fresh" (context, not an anomaly). */
export const FRESH_LATEST_HOURS = 72;
/**
 * How long a release with two or more anomalies caps the score: the days the ecosystem takes to
 * report and pull a compromised release (the 2025 ones were gone within hours to days; a
 * known-malicious record then caps it for good). Past it the finding holds the verdict instead.
 */
export const VETTING_DAYS = 7;
/** Score of a single anomaly, and of two or more together. */
export const ONE_ANOMALY_SCORE = 60;
export const SEVERAL_ANOMALIES_SCORE = 15;
/** The cap while the release is within the vetting window: below the gate's default line. */
export const SEVERAL_ANOMALIES_CAP = 49.9;
/** Size jump: more than this factor over the previous unpacked size … */
export const SIZE_FACTOR = 2;

/** A growth factor as the description writes it. */
function factorProse(factor: number): string {
  return factor === 2 ? 'doubled' : `× ${factor}`;
}
/** … and at least this many bytes more. */
export const SIZE_MIN_GROWTH = 500_000;
/** Dependency jump: at least this many more dependencies … */
export const DEPENDENCY_MIN_GROWTH = 5;
/** … and at least this factor over the previous count. */
export const DEPENDENCY_FACTOR = 2;

/** Newcomer dependency: a package listing at most this many versions … */
export const NEWCOMER_MAX_VERSIONS = 3;
/** … whose packument last changed within this many days of the release (its few versions came out around it). */
export const NEWCOMER_DAYS = 30;
/** Names kept in the evidence at most. */
const MAX_LISTED_DEPENDENCIES = 10;

export const ANOMALIES = [
  'provenance-dropped',
  'new-publisher',
  'install-script-added',
  'bin-added',
  'size-jump',
  'dependency-jump',
  'newcomer-dependency',
] as const;
export type Anomaly = (typeof ANOMALIES)[number];

/** What is reported alongside the anomalies without counting as one. */
export const CONTEXT = ['fresh-latest', 'maintainer-first-publish', 'new-major-line'] as const;
export type Context = (typeof CONTEXT)[number];

/** Publisher names are network strings: keep them short in evidence and messages. */
const MAX_NAME_CHARS = 64;

/** "46 kB", "2.1 MB" (decimal units, as npm prints unpacked sizes). */
function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 100) / 10} kB`;
  return `${Math.round(bytes / 100_000) / 10} MB`;
}

/** What a comparison that could not be made looked at, in a user's words (the message lists these; the evidence keeps the ids). */
const NOT_COMPARED_WORDS: Readonly<Record<Anomaly | Context, string>> = {
  'provenance-dropped': 'provenance',
  'new-publisher': 'who published it',
  'install-script-added': 'install scripts',
  'bin-added': 'commands',
  'size-jump': 'unpacked size',
  'dependency-jump': 'dependency count',
  'newcomer-dependency': 'how new its added dependencies are',
  'fresh-latest': 'how recently it became latest',
  'maintainer-first-publish': 'first publishes by maintainers',
  'new-major-line': 'whether it starts a new major line',
};

/** What a new major line may bring without it being an anomaly: its shape, not who published it or what runs at install. */
const MAJOR_LINE_SHAPE: ReadonlySet<Anomaly> = new Set(['bin-added', 'size-jump', 'dependency-jump']);

/**
 * Whether `version` starts another major line than `previous`: outside the caret range of it
 * (`^0.0.1` is 0.0.1 alone, `^0.2.0` is 0.2.x, `^2.0.1` is 2.x). False when either is not a
 * version semver reads (nothing is excused on a version that cannot be compared).
 */
function newMajorLine(version: string, previous: string): boolean {
  if (semver.valid(version) === null || semver.valid(previous) === null) return false;
  return !semver.satisfies(version, `^${previous}`, { includePrerelease: true });
}

interface Comparison {
  findings: { id: Anomaly; phrase: string }[];
  context: { id: Context; phrase: string }[];
  notCompared: (Anomaly | Context)[];
  data: Record<string, EvidenceValue>;
}

type Previous = NonNullable<RegistryFacts['previous']>;

/** `@scope` of a scoped name, else null. */
function scopeOf(name: string): string | null {
  return name.startsWith('@') && name.includes('/') ? name.slice(0, name.indexOf('/')) : null;
}

/**
 * Runtime dependencies added since the previous version that are newcomers themselves: at most
 * NEWCOMER_MAX_VERSIONS versions, the packument last changed within NEWCOMER_DAYS of this
 * release — a package made for the release that pulls it in (event-stream 3.3.6 added
 * flatmap-stream so). A dependency in the package's own scope is its publisher's own. Null when
 * it cannot be told: no previous dependency names or, with a dependency added, no dependency
 * facts or no trustworthy publish time (a trimmed packument's times are a mirror's).
 */
function newcomerDependencies(
  registry: RegistryFacts,
  previous: Previous,
  dependencies: DependencyFacts | undefined,
  published: Date | null,
  now: Date,
): { added: string[]; newcomers: string[]; futureDated: string[] } | null {
  if (previous.dependencyNames === undefined) return null;
  const before = new Set(previous.dependencyNames);
  const added = Object.keys(registry.dependencyRanges).filter((name) => !before.has(name));
  // Nothing added, nothing to tell (an audit, which evaluates every dependency on its own, reads no dependency facts).
  if (added.length === 0) return { added, newcomers: [], futureDated: [] };
  if (dependencies === undefined || registry.trimmed || published === null) return null;
  const scope = scopeOf(registry.name);
  // A packument changed more than a day after now is invalid data (docs/security.md, "Dates in
  // the future"): whether that dependency is new cannot be told; the others are still judged.
  const futureDated: string[] = [];
  const newcomers = added.filter((name) => {
    if (scope !== null && scopeOf(name) === scope) return false;
    const facts = dependencies.dependencies.find((d) => d.name === name && d.ecosystem === undefined);
    const modified = facts?.packumentModified === undefined || facts.packumentModified === null ? Number.NaN : Date.parse(facts.packumentModified);
    if (facts?.versionCount === undefined || facts.versionCount === 0 || Number.isNaN(modified)) return false;
    if (facts.versionCount > NEWCOMER_MAX_VERSIONS) return false;
    if (isFutureTime(new Date(modified), now)) {
      futureDated.push(name);
      return false;
    }
    return Math.abs(modified - published.getTime()) <= NEWCOMER_DAYS * 86_400_000;
  });
  return { added, newcomers, futureDated };
}

function compare(
  registry: RegistryFacts,
  previous: Previous,
  attestations: AttestationFacts | undefined,
  tarball: TarballFacts | undefined,
  dependencies: DependencyFacts | undefined,
  now: Date,
): Comparison {
  const findings: Comparison['findings'] = [];
  const context: Comparison['context'] = [];
  const notCompared: Comparison['notCompared'] = [];
  const prev = previous.version;
  const data: Record<string, EvidenceValue> = { previousVersion: prev };

  // Provenance: what the attestations endpoint served for this version, else the registry's listing.
  const provenance = attestations?.provenance ?? registry.attestations !== null;
  data.provenance = provenance;
  data.previousProvenance = previous.hasAttestations;
  if (previous.hasAttestations && !provenance) {
    findings.push({ id: 'provenance-dropped', phrase: `provenance dropped (${prev} had a provenance attestation, this version has none)` });
  }

  // Publisher: only a known publisher against a known history can be new.
  const publisher = registry.publisher === null ? null : truncate(registry.publisher, MAX_NAME_CHARS);
  data.publisher = publisher;
  data.previousPublisher = previous.publisher === null ? null : truncate(previous.publisher, MAX_NAME_CHARS);
  const prior = registry.priorPublishers;
  if (registry.publisher === null || prior === null || prior.length === 0) {
    notCompared.push('new-publisher');
  } else {
    data.priorPublishers = prior.length;
    if (!prior.includes(registry.publisher)) {
      const before = previous.publisher === null ? '' : `; ${prev} was published by ${truncate(previous.publisher, MAX_NAME_CHARS)}`;
      // A listed maintainer taking a turn is how teams publish; an account nobody listed is not.
      const listed = registry.maintainerNames?.includes(registry.publisher) ?? false;
      data.publisherListed = registry.maintainerNames === null ? null : listed;
      if (listed) context.push({ id: 'maintainer-first-publish', phrase: `first release by ${publisher}, a listed maintainer${before}` });
      else findings.push({ id: 'new-publisher', phrase: `new publisher ${publisher} (never published an earlier version and not a listed maintainer${before})` });
    }
  }

  // Install scripts added since the previous version (the packument's and the tarball's own).
  const scripts = [...new Set(installHooks(registry, tarball).scripts.map(scriptLabel))].sort();
  const added = scripts.filter((name) => !previous.installScripts.includes(name));
  data.installScripts = scripts;
  data.previousInstallScripts = [...previous.installScripts].sort();
  data.addedInstallScripts = added;
  if (added.length > 0) findings.push({ id: 'install-script-added', phrase: `install script added: ${added.join(', ')} (not in ${prev})` });

  // A bin entry added since the previous version.
  data.hasBin = registry.hasBin;
  data.previousHasBin = previous.hasBin;
  if (registry.hasBin && !previous.hasBin) findings.push({ id: 'bin-added', phrase: `bin entry added (${prev} had none)` });

  // A fresh latest: published under 72 h before now and already the latest tag. A trimmed
  // packument's times that do not read as publish times (a mirror's own, as release-recency
  // withholds them) date nothing: the release's age is unknown.
  data.isLatest = registry.isLatest;
  const withheld = withheldTimes(registry.trimmed, registry.versions) !== null;
  if (withheld) data.timesWithheld = true;
  const published = withheld ? null : parseTime(registry.versions.find((v) => v.version === registry.version)?.time ?? null);
  data.published = published === null ? null : published.toISOString();
  if (published !== null) {
    const hours = Math.max(0, (now.getTime() - published.getTime()) / HOUR_MS);
    data.hoursSincePublish = Math.floor(hours);
    if (registry.isLatest && hours < FRESH_LATEST_HOURS) {
      context.push({ id: 'fresh-latest', phrase: `published ${Math.floor(hours)} h ago and already the latest tag` });
    }
  } else if (registry.isLatest) {
    notCompared.push('fresh-latest');
  }

  // Unpacked size: more than doubled and at least 500 kB more.
  data.unpackedSize = registry.unpackedSize;
  data.previousUnpackedSize = previous.unpackedSize;
  if (registry.unpackedSize === null || previous.unpackedSize === null) {
    notCompared.push('size-jump');
  } else if (registry.unpackedSize > SIZE_FACTOR * previous.unpackedSize && registry.unpackedSize - previous.unpackedSize >= SIZE_MIN_GROWTH) {
    findings.push({
      id: 'size-jump',
      phrase: `unpacked size ${formatBytes(previous.unpackedSize)} → ${formatBytes(registry.unpackedSize)} (from ${prev})`,
    });
  }

  // Direct runtime dependencies: at least 5 more and at least doubled.
  data.dependencies = registry.dependencies;
  data.previousDependencies = previous.dependencies;
  if (
    registry.dependencies >= previous.dependencies + DEPENDENCY_MIN_GROWTH &&
    registry.dependencies >= DEPENDENCY_FACTOR * previous.dependencies
  ) {
    findings.push({ id: 'dependency-jump', phrase: `runtime dependencies ${previous.dependencies} → ${registry.dependencies} (from ${prev})` });
  }

  // A dependency added that is itself brand new.
  const newcomer = newcomerDependencies(registry, previous, dependencies, published, now);
  if (newcomer === null) {
    notCompared.push('newcomer-dependency');
  } else {
    data.addedDependencies = newcomer.added.slice(0, MAX_LISTED_DEPENDENCIES).map((name) => truncate(name, MAX_NAME_CHARS));
    data.newcomerDependencies = newcomer.newcomers.slice(0, MAX_LISTED_DEPENDENCIES).map((name) => truncate(name, MAX_NAME_CHARS));
    data.futureDatedDependencies = newcomer.futureDated.slice(0, MAX_LISTED_DEPENDENCIES).map((name) => truncate(name, MAX_NAME_CHARS));
    // Without a newcomer found, a dependency of few versions whose packument is dated in the future leaves the question open.
    if (newcomer.newcomers.length === 0 && newcomer.futureDated.length > 0) notCompared.push('newcomer-dependency');
    if (newcomer.newcomers.length > 0) {
      const names = newcomer.newcomers.slice(0, 3).map((name) => truncate(name, MAX_NAME_CHARS)).join(', ');
      const more = newcomer.newcomers.length > 3 ? ` and ${newcomer.newcomers.length - 3} more` : '';
      findings.push({ id: 'newcomer-dependency', phrase: `dependency added that is brand new itself: ${names}${more} (at most ${NEWCOMER_MAX_VERSIONS} versions, published around this release; not in ${prev})` });
    }
  }

  // A new major line's shape (a command, more dependencies, a larger package) is context, not an anomaly.
  if (newMajorLine(registry.version, prev)) {
    const shape = findings.filter((f) => MAJOR_LINE_SHAPE.has(f.id));
    if (shape.length > 0) {
      context.push({ id: 'new-major-line', phrase: `${registry.version} starts a new major line after ${prev}: ${shape.map((f) => f.phrase).join('; ')}` });
      data.majorLineChanges = shape.map((f) => f.id);
      return { findings: findings.filter((f) => !MAJOR_LINE_SHAPE.has(f.id)), context, notCompared, data };
    }
  }
  return { findings, context, notCompared, data };
}

export default defineCheck({
  id: 'release-anomalies',
  dimension: 'security',
  weight: 3,
  needs: ['registry'],
  optional: ['attestations', 'tarball', 'dependencies'],
  title: 'Release anomalies',
  description:
    'Compares the resolved npm version with the one published before it (npm only; in a mirror\'s abbreviated package metadata, whose times are the mirror\'s, the one before it in version order; a stable version with the stable release before it, not a pre-release such as a platform build published beside it): provenance dropped, a publisher who never published an earlier version and is not a listed maintainer, an install script or `bin` entry added, ' +
    `unpacked size more than ${factorProse(SIZE_FACTOR)} and ≥ ${SIZE_MIN_GROWTH / 1000} kB larger, runtime dependencies ${factorProse(DEPENDENCY_FACTOR)} and ≥ ${DEPENDENCY_MIN_GROWTH} more, ` +
    `a runtime dependency added that is brand new itself (at most ${NEWCOMER_MAX_VERSIONS} versions, its registry metadata last changed within ${NEWCOMER_DAYS} days of the release — not compared when that date is more than a day in the future —, not in the package's own scope: the 2018 event-stream compromise added such a package); ` +
    `context (\`latest\` published under ${FRESH_LATEST_HOURS} h ago — a mirror's times that are not publish times, as release-recency withholds them, date no release —, a listed maintainer publishing for the first time, a \`bin\`, size or dependency jump in a version that starts a new major line — outside the previous version's caret range, as 0.0.1 → 1.0.7) is reported but never counted, and comparisons the registry gives no facts for are skipped and listed in the evidence. ` +
    `No anomaly, or a first release, scores 100 (a version that is only the lowest of several, in a mirror's abbreviated package metadata or with no publish time of its own, is no known first release: unknown, nothing compared), one ${ONE_ANOMALY_SCORE} (a new publisher alone is left to publisher-continuity), two or more ${SEVERAL_ANOMALIES_SCORE}: that combination is how the 2025 npm compromises looked, so within ${VETTING_DAYS} days of the release (or when its age is unknown) it caps the overall score at ${SEVERAL_ANOMALIES_CAP} (pin the previous version, or re-run once it has been out ${VETTING_DAYS} days unreported) and later holds the verdict at CAUTION.`,
  messages: {
    'first-release': 'First release: nothing to compare',
    'lowest-version': 'Not compared: {version} is the lowest of {versionCount} versions, and {why}',
    none: 'Nothing unusual since {previousVersion}',
    'none-partial': 'Nothing unusual since {previousVersion} in what could be compared (the registry gave no facts for: {notComparedWords})',
    'context-only': 'Nothing unusual since {previousVersion} ({contextSummary})',
    'publisher-only': 'Only a new publisher since {previousVersion} (scored by publisher continuity): {summary}',
    one: 'Changed since {previousVersion}: {summary}',
    several:
      '{count} anomalies since {previousVersion}: {summary}. Two or more anomalies together: how the 2025 npm compromises looked',
  },
  evaluate: ({ registry, attestations, tarball, dependencies }, { now }) => {
    const previous = registry.previous;
    if (previous === null) {
      // The lowest version in version order is a first release only when publish times say so: a mirror's times
      // (docs/scoring.md §12) or none at all leave the release before it unknown (a `latest` 0.0.0 placeholder).
      const own = registry.versions.find((v) => v.version === registry.version);
      const untimed = registry.trimmed || own === undefined || own.time === null;
      if (untimed && registry.versions.some((v) => v.version !== registry.version)) {
        const why = registry.trimmed ? "the registry metadata's times are a mirror's, not the order of publishing" : 'the registry gives no publish time for it';
        const data: Record<string, EvidenceValue> = { previousVersion: null, anomalies: [], version: registry.version, versionCount: registry.versions.length, why };
        return { score: null, messageId: 'lowest-version', data };
      }
      return { score: 100, messageId: 'first-release', data: { previousVersion: null, anomalies: [] } };
    }
    const { findings, context, notCompared, data: facts } = compare(registry, previous, attestations, tarball, dependencies, now);
    const summary = findings.map((f) => f.phrase).join('; ');
    const data: Record<string, EvidenceValue> = {
      ...facts,
      count: findings.length,
      anomalies: findings.map((f) => f.id),
      details: findings.map((f) => f.phrase),
      summary,
      context: context.map((c) => c.id),
      contextSummary: context.map((c) => c.phrase).join('; '),
      notCompared,
      notComparedWords: notCompared.map((id) => NOT_COMPARED_WORDS[id]),
    };
    if (findings.length >= 2) {
      const published = typeof facts.published === 'string' ? Date.parse(facts.published) : Number.NaN;
      const ageDays = (now.getTime() - published) / 86_400_000;
      const what = `${findings.length} release anomalies in ${registry.version} since ${previous.version} (${findings.map((f) => f.id).join(', ')}): how the 2025 npm compromises looked`;
      // A release of unknown age is treated as new: the cap is the safe side.
      data.vetting = !(ageDays >= VETTING_DAYS);
      if (data.vetting) {
        return {
          score: SEVERAL_ANOMALIES_SCORE,
          messageId: 'several',
          data,
          caps: [
            {
              id: 'release-anomalies',
              limit: SEVERAL_ANOMALIES_CAP,
              reason: `${what}; pin the previous version (${previous.version}) until the release is vetted, or re-run once it has been out ${VETTING_DAYS} days without a malicious-package report`,
              args: { version: registry.version, previous: previous.version, anomalies: findings.map((f) => f.id).join(','), vettingDays: VETTING_DAYS },
            },
          ],
        };
      }
      return {
        score: SEVERAL_ANOMALIES_SCORE,
        messageId: 'several',
        data,
        holdVerdict: `${what}; a later release without them would lift this`,
      };
    }
    if (findings.length === 1 && findings[0]?.id === 'new-publisher') return { score: 100, messageId: 'publisher-only', data };
    if (findings.length === 1) return { score: ONE_ANOMALY_SCORE, messageId: 'one', data };
    if (context.length > 0) return { score: 100, messageId: 'context-only', data };
    return { score: 100, messageId: notCompared.length > 0 ? 'none-partial' : 'none', data };
  },
});
