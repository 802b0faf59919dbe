/**
 * release-anomalies: what changed between the resolved version and the one published just
 * before it, in the ways the 2025 npm compromises showed — provenance dropped, a publisher
 * never seen before, a new install script or `bin`, a fresh `latest`, a jump in size or in
 * dependencies. Each finding carries its evidence; two or more together score low.
 */
import type { AttestationFacts, RegistryFacts, TarballFacts } from '../evidence/schema.js';
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { installHooks } from './lib/install-hooks.js';
import { parseTime } from './lib/releases.js';
import { truncate } from './lib/text.js';

const HOUR_MS = 3_600_000;
/** A `latest` published less than this long before now is "fresh". */
export const FRESH_LATEST_HOURS = 72;
/** Size jump: more than this factor over the previous unpacked size … */
export const SIZE_FACTOR = 2;
/** … and at least this many bytes more. */
export const SIZE_MIN_GROWTH = 500_000;
/** Dependency jump: at least this many more dependencies … */
export const DEPENDENCY_MIN_GROWTH = 5;
/** … and at least this factor over the previous count. */
export const DEPENDENCY_FACTOR = 2;

export const ANOMALIES = [
  'provenance-dropped',
  'new-publisher',
  'install-script-added',
  'bin-added',
  'fresh-latest',
  'size-jump',
  'dependency-jump',
] as const;
export type Anomaly = (typeof ANOMALIES)[number];

/** Publisher names are network strings: keep them short in evidence and messages. */
const MAX_NAME_CHARS = 64;

/** "46 kB", "2.1 MB" (decimal units, as npm prints unpacked sizes). */
function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 100) / 10} kB`;
  return `${Math.round(bytes / 100_000) / 10} MB`;
}

interface Comparison {
  findings: { id: Anomaly; phrase: string }[];
  notCompared: Anomaly[];
  data: Record<string, EvidenceValue>;
}

type Previous = NonNullable<RegistryFacts['previous']>;

function compare(registry: RegistryFacts, previous: Previous, attestations: AttestationFacts | undefined, tarball: TarballFacts | undefined, now: Date): Comparison {
  const findings: Comparison['findings'] = [];
  const notCompared: Anomaly[] = [];
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
      findings.push({ id: 'new-publisher', phrase: `new publisher ${publisher} (never published an earlier version${before})` });
    }
  }

  // Install scripts added since the previous version (the packument's and the tarball's own).
  const scripts = [...new Set(installHooks(registry, tarball).scripts.map((s) => s.name))].sort();
  const added = scripts.filter((name) => !previous.installScripts.includes(name));
  data.installScripts = scripts;
  data.previousInstallScripts = [...previous.installScripts].sort();
  data.addedInstallScripts = added;
  if (added.length > 0) findings.push({ id: 'install-script-added', phrase: `install script added: ${added.join(', ')} (not in ${prev})` });

  // A bin entry added since the previous version.
  data.hasBin = registry.hasBin;
  data.previousHasBin = previous.hasBin;
  if (registry.hasBin && !previous.hasBin) findings.push({ id: 'bin-added', phrase: `bin entry added (${prev} had none)` });

  // A fresh latest: published under 72 h before now and already the latest tag.
  data.isLatest = registry.isLatest;
  const published = parseTime(registry.versions.find((v) => v.version === registry.version)?.time ?? null);
  data.published = published === null ? null : published.toISOString();
  if (published !== null) {
    const hours = Math.max(0, (now.getTime() - published.getTime()) / HOUR_MS);
    data.hoursSincePublish = Math.floor(hours);
    if (registry.isLatest && hours < FRESH_LATEST_HOURS) {
      findings.push({ id: 'fresh-latest', phrase: `published ${Math.floor(hours)} h ago and already the latest tag` });
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

  return { findings, notCompared, data };
}

export default defineCheck({
  id: 'release-anomalies',
  dimension: 'security',
  weight: 3,
  needs: ['registry'],
  optional: ['attestations', 'tarball'],
  title: 'Release anomalies',
  description:
    'Compares the resolved npm version with the one published before it (npm only): provenance dropped, a publisher who never published an earlier version, an install script or `bin` entry added, `latest` published under 72 h ago, unpacked size more than doubled and ≥ 500 kB larger, runtime dependencies doubled and ≥ 5 more. ' +
    'No finding scores 100, one 60, two or more 15 (that combination is how the 2025 npm compromises looked); a first release has nothing to compare and scores 100. ' +
    'Comparisons the registry gives no facts for (publish times, publishers, sizes) are skipped and listed in the evidence.',
  messages: {
    'first-release': 'First release: nothing to compare',
    none: 'Nothing unusual since {previousVersion}',
    'none-partial': 'Nothing unusual since {previousVersion} in what could be compared (not compared: {notCompared})',
    one: 'Changed since {previousVersion}: {summary}',
    several:
      '{count} anomalies since {previousVersion}: {summary}. Two or more anomalies together: how the 2025 npm compromises looked',
  },
  evaluate: ({ registry, attestations, tarball }, { now }) => {
    const previous = registry.previous;
    if (previous === null) return { score: 100, messageId: 'first-release', data: { previousVersion: null, anomalies: [] } };
    const { findings, notCompared, data: facts } = compare(registry, previous, attestations, tarball, now);
    const data: Record<string, EvidenceValue> = {
      ...facts,
      count: findings.length,
      anomalies: findings.map((f) => f.id),
      details: findings.map((f) => f.phrase),
      summary: findings.map((f) => f.phrase).join('; '),
      notCompared,
    };
    if (findings.length >= 2) return { score: 15, messageId: 'several', data };
    if (findings.length === 1) return { score: 60, messageId: 'one', data };
    return { score: 100, messageId: notCompared.length > 0 ? 'none-partial' : 'none', data };
  },
});
