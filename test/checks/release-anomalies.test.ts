import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import check from '../../src/checks/release-anomalies.js';
import type { RegistryFacts } from '../../src/evidence/schema.js';
import { registryFacts as factsOfPackument } from '../../src/sources/npm/facts.js';
import { attestationFacts, daysAgo, dependencyFacts, evidence, ok, registryFacts, unavailable, versionsAgo } from '../support/evidence-builder.js';
import { checkTable, outcomeOf, runCheck } from './check-table.js';

type Previous = NonNullable<RegistryFacts['previous']>;
/** llm's packument as the registry mirror served it (fixtures/PROVENANCE.md): 0.0.1, then 1.0.7 with a command and six more dependencies. */
const llmPackument = (): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL('../../fixtures/release-anomalies/llm.json', import.meta.url), 'utf8')) as Record<string, unknown>;
/** mkdirp's packument as the registry mirror served it (fixtures/PROVENANCE.md): trimmed, the mirror's own dates in `time`. */
const mkdirpPackument = (): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL('../../fixtures/http/npm/mkdirp.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const PREVIOUS: Previous = registryFacts().previous as Previous;

/** Evidence whose resolved version differs from 2.0.1 as given. */
function changed(registry: Partial<RegistryFacts>, previous: Partial<Previous> = {}, attestations = true) {
  return evidence({
    registry: { ...registry, previous: { ...PREVIOUS, ...previous } },
    ...(attestations ? {} : { attestations: unavailable('HTTP 503') }),
  });
}

/** A release adding `flat-stream` (with these packument facts) to dep-a and dep-b, as 2.1.0 published 30 days ago. */
function addsDependency(facts: { versionCount?: number; packumentModified?: string | null }, name = 'flat-stream', registry: Partial<RegistryFacts> = {}) {
  const dependencies = dependencyFacts();
  return evidence({
    registry: { dependencyRanges: { 'dep-a': '^1.0.0', 'dep-b': '^2.3.0', [name]: '^0.1.0' }, dependencies: 3, ...registry },
    dependencies: { ...dependencies, dependencies: [...dependencies.dependencies, { name, range: '^0.1.0', version: '0.1.1', reason: null, securityHolding: false, ...facts }] },
  });
}

function newcomerRows() {
  return [
    {
      name: 'a dependency added with one version, changed 2 days before the release: one anomaly',
      evidence: addsDependency({ versionCount: 1, packumentModified: daysAgo(32) }),
      score: 60,
      messageId: 'one',
      data: { anomalies: ['newcomer-dependency'], addedDependencies: ['flat-stream'], newcomerDependencies: ['flat-stream'], notCompared: [] },
      message: ['flat-stream'],
    },
    {
      name: 'a newcomer dependency with a new publisher: two anomalies, capped while the release is vetted',
      evidence: addsDependency({ versionCount: 2, packumentModified: daysAgo(10) }, 'flat-stream', { publisher: 'right9ctrl', versions: versionsAgo([['2.0.1', 200], ['2.1.0', 3]]) }),
      score: 15,
      messageId: 'several',
      data: { anomalies: ['new-publisher', 'newcomer-dependency'], vetting: true },
      caps: [{ id: 'release-anomalies', limit: 49.9, reason: expect.stringMatching(/^2 release anomalies in 2\.1\.0 since 2\.0\.1 \(new-publisher, newcomer-dependency\)/) }],
    },
    {
      name: 'a dependency added with many versions is no newcomer',
      evidence: addsDependency({ versionCount: 4, packumentModified: daysAgo(31) }),
      score: 100,
      messageId: 'none',
      data: { anomalies: [], addedDependencies: ['flat-stream'], newcomerDependencies: [] },
    },
    {
      name: 'a dependency of few versions last changed long before the release is no newcomer',
      evidence: addsDependency({ versionCount: 1, packumentModified: daysAgo(900) }),
      score: 100,
      messageId: 'none',
      data: { anomalies: [], newcomerDependencies: [] },
    },
    {
      name: 'a dependency of few versions whose packument is dated in the future: whether it is new is not compared, never "no newcomer"',
      evidence: addsDependency({ versionCount: 1, packumentModified: daysAgo(-30) }),
      score: 100,
      messageId: 'none-partial',
      data: { anomalies: [], newcomerDependencies: [], futureDatedDependencies: ['flat-stream'], notCompared: ['newcomer-dependency'] },
    },
    {
      name: 'a future-dated dependency beside a real newcomer: the newcomer is still found',
      evidence: (() => {
        const e = addsDependency({ versionCount: 1, packumentModified: daysAgo(-30) }, 'flat-stream', { dependencyRanges: { 'dep-a': '^1.0.0', 'dep-b': '^2.3.0', 'flat-stream': '^0.1.0', 'flat-map': '^0.1.0' }, dependencies: 4 });
        const deps = e.sources.dependencies;
        if (deps.status === 'ok') deps.facts.dependencies.push({ name: 'flat-map', range: '^0.1.0', version: '0.1.0', reason: null, securityHolding: false, versionCount: 1, packumentModified: daysAgo(32) });
        return e;
      })(),
      score: 60,
      messageId: 'one',
      data: { anomalies: ['newcomer-dependency'], newcomerDependencies: ['flat-map'], futureDatedDependencies: ['flat-stream'], notCompared: [] },
    },
    {
      name: "a new package in the publisher's own scope is its own",
      evidence: addsDependency({ versionCount: 1, packumentModified: daysAgo(31) }, '@example/helpers', { name: '@example/core' }),
      score: 100,
      messageId: 'none',
      data: { anomalies: [], addedDependencies: ['@example/helpers'], newcomerDependencies: [] },
    },
    {
      name: 'no dependency added: nothing to compare, whatever the dependencies source says',
      evidence: evidence({ dependencies: unavailable('HTTP 503') }),
      score: 100,
      messageId: 'none',
      data: { anomalies: [], addedDependencies: [], newcomerDependencies: [], notCompared: [] },
    },
    {
      name: 'a dependency added whose packument facts are unknown is not a finding',
      evidence: addsDependency({}),
      score: 100,
      messageId: 'none',
      data: { anomalies: [], newcomerDependencies: [] },
    },
    {
      name: 'a dependency added while the dependencies are unavailable: not compared',
      evidence: { ...addsDependency({}), sources: { ...addsDependency({}).sources, dependencies: unavailable('HTTP 503') } },
      score: 100,
      messageId: 'none-partial',
      data: { notCompared: ['newcomer-dependency'] },
    },
    {
      name: 'evidence saved before the previous version\'s dependency names were kept: not compared',
      evidence: changed({}, { dependencyNames: undefined }),
      score: 100,
      messageId: 'none-partial',
      data: { notCompared: ['newcomer-dependency'] },
    },
  ];
}

/** 2.1.0 published `hours` before NOW (null = no publish time). */
const publishedHoursAgo = (hours: number | null) =>
  versionsAgo([
    ['2.0.1', 200],
    ['2.1.0', hours === null ? null : hours / 24],
  ]);

checkTable(check, [
  {
    name: 'first release: nothing to compare',
    evidence: evidence({ registry: { previous: null, versions: versionsAgo([['2.1.0', 30]]), priorPublishers: [] } }),
    score: 100,
    messageId: 'first-release',
    data: { previousVersion: null, anomalies: [] },
  },
  {
    name: "a `latest` 0.0.0 placeholder, the lowest of a trimmed packument's versions: no known first release, unknown",
    evidence: evidence({ registry: { version: '0.0.0', trimmed: true, previous: null, versions: versionsAgo([['0.0.0', 100], ['10.0.0-nightly.20200324', 400], ['11.0.0', 300]]), priorPublishers: null } }),
    score: null,
    messageId: 'lowest-version',
    data: { previousVersion: null, version: '0.0.0', versionCount: 3 },
    message: ['0.0.0', 'mirror'],
  },
  {
    name: 'the lowest version with no publish time of its own: unknown',
    evidence: evidence({ registry: { version: '1.0.0', previous: null, versions: versionsAgo([['1.0.0', null], ['1.1.0', 30]]), priorPublishers: [] } }),
    score: null,
    messageId: 'lowest-version',
    data: { versionCount: 2 },
  },
  {
    name: 'the only version of a trimmed packument: a first release',
    evidence: evidence({ registry: { trimmed: true, previous: null, versions: versionsAgo([['2.1.0', 30]]), priorPublishers: null } }),
    score: 100,
    messageId: 'first-release',
  },
  {
    name: 'nothing unusual',
    evidence: evidence(),
    score: 100,
    messageId: 'none',
    data: {
      previousVersion: '2.0.1',
      anomalies: [],
      notCompared: [],
      publisher: 'alice',
      provenance: true,
      previousProvenance: true,
      unpackedSize: 48_000,
      previousUnpackedSize: 46_000,
      hoursSincePublish: 720,
    },
    message: ['since 2.0.1'],
  },
  {
    name: 'provenance dropped',
    evidence: changed({ attestations: null }, {}, false),
    score: 60,
    messageId: 'one',
    data: { anomalies: ['provenance-dropped'], provenance: false, previousProvenance: true },
    message: ['Changed since 2.0.1', 'provenance dropped (2.0.1 had a provenance attestation'],
  },
  {
    name: 'provenance still present per the attestations endpoint',
    evidence: evidence({ registry: { attestations: null }, attestations: attestationFacts({ provenance: true }) }),
    score: 100,
    messageId: 'none',
  },
  {
    name: 'provenance never there: not dropped',
    evidence: changed({ attestations: null }, { hasAttestations: false }, false),
    score: 100,
    messageId: 'none',
  },
  {
    name: 'a publisher who never published before and is not listed: an anomaly, scored alone by publisher-continuity',
    evidence: changed({ publisher: 'mallory', previousPublisher: 'alice', priorPublishers: ['alice', 'bob'], maintainerNames: ['alice', 'bob'] }),
    score: 100,
    messageId: 'publisher-only',
    data: { anomalies: ['new-publisher'], publisher: 'mallory', previousPublisher: 'alice', priorPublishers: 2, publisherListed: false },
    message: ['new publisher mallory', 'not a listed maintainer', '2.0.1 was published by alice'],
  },
  {
    name: 'a listed maintainer publishing for the first time: context, not an anomaly',
    evidence: changed({ publisher: 'carol', previousPublisher: 'alice', priorPublishers: ['alice'], maintainerNames: ['alice', 'carol'] }),
    score: 100,
    messageId: 'context-only',
    data: { anomalies: [], context: ['maintainer-first-publish'], publisherListed: true },
    message: ['first release by carol, a listed maintainer'],
  },
  {
    name: 'a changed publisher seen on earlier versions is not new',
    evidence: changed({ publisher: 'bob', previousPublisher: 'alice', priorPublishers: ['alice', 'bob'] }),
    score: 100,
    messageId: 'none',
  },
  {
    name: 'unknown publisher: not a finding, listed as not compared',
    evidence: changed({ publisher: null }),
    score: 100,
    messageId: 'none-partial',
    // The message names what was not compared in words; the evidence keeps the id.
    data: { notCompared: ['new-publisher'], notComparedWords: ['who published it'], publisher: null },
    message: ['who published it'],
  },
  {
    name: 'no publisher history: not compared',
    evidence: changed({ publisher: 'mallory', priorPublishers: null }),
    score: 100,
    messageId: 'none-partial',
    data: { notCompared: ['new-publisher'] },
  },
  {
    name: 'install script added',
    evidence: changed({ installScripts: { postinstall: 'node setup.js' } }),
    score: 60,
    messageId: 'one',
    data: { anomalies: ['install-script-added'], addedInstallScripts: ['postinstall'], previousInstallScripts: [] },
    message: ['install script added: postinstall (not in 2.0.1)'],
  },
  {
    name: 'install script kept from the previous version',
    evidence: changed({ installScripts: { postinstall: 'node setup.js' } }, { installScripts: ['postinstall'] }),
    score: 100,
    messageId: 'none',
    data: { addedInstallScripts: [] },
  },
  {
    name: 'bin entry added',
    evidence: changed({ hasBin: true }),
    score: 60,
    messageId: 'one',
    data: { anomalies: ['bin-added'], hasBin: true, previousHasBin: false },
    message: ['bin entry added (2.0.1 had none)'],
  },
  { name: 'bin kept', evidence: changed({ hasBin: true }, { hasBin: true }), score: 100, messageId: 'none' },
  {
    name: 'latest published 71 h ago: fresh, reported as context only',
    evidence: changed({ versions: publishedHoursAgo(71.9) }),
    score: 100,
    messageId: 'context-only',
    data: { anomalies: [], context: ['fresh-latest'], hoursSincePublish: 71, isLatest: true, published: daysAgo(71.9 / 24) },
    message: ['published 71 h ago and already the latest tag'],
  },
  { name: 'latest published exactly 72 h ago: not fresh', evidence: changed({ versions: publishedHoursAgo(72) }), score: 100, messageId: 'none' },
  {
    name: 'published an hour ago but not the latest tag',
    evidence: changed({ versions: publishedHoursAgo(1), isLatest: false, distTags: { latest: '2.0.1' } }),
    score: 100,
    messageId: 'none',
    data: { isLatest: false, hoursSincePublish: 1 },
  },
  {
    name: 'a publish time in the future counts as fresh (0 h)',
    evidence: changed({ versions: publishedHoursAgo(-5) }),
    score: 100,
    messageId: 'context-only',
    data: { context: ['fresh-latest'], hoursSincePublish: 0 },
  },
  {
    name: 'latest without a publish time: not compared',
    evidence: changed({ versions: publishedHoursAgo(null) }),
    score: 100,
    messageId: 'none-partial',
    data: { notCompared: ['fresh-latest'], published: null },
  },
  {
    name: 'size more than doubled and +500 kB',
    evidence: changed({ unpackedSize: 1_200_001 }, { unpackedSize: 600_000 }),
    score: 60,
    messageId: 'one',
    data: { anomalies: ['size-jump'], unpackedSize: 1_200_001, previousUnpackedSize: 600_000 },
    message: ['unpacked size 600 kB → 1.2 MB (from 2.0.1)'],
  },
  { name: 'size exactly doubled: no jump', evidence: changed({ unpackedSize: 1_200_000 }, { unpackedSize: 600_000 }), score: 100, messageId: 'none' },
  {
    name: 'size growth of exactly 500 kB (and more than doubled): jump',
    evidence: changed({ unpackedSize: 600_000 }, { unpackedSize: 100_000 }),
    score: 60,
    messageId: 'one',
    data: { anomalies: ['size-jump'] },
  },
  {
    name: 'size growth just under 500 kB: no jump, however many times larger',
    evidence: changed({ unpackedSize: 599_999 }, { unpackedSize: 100_000 }),
    score: 100,
    messageId: 'none',
  },
  {
    name: 'size unknown: not compared',
    evidence: changed({ unpackedSize: null }),
    score: 100,
    messageId: 'none-partial',
    data: { notCompared: ['size-jump'] },
  },
  {
    name: 'dependencies 2 → 7: jump',
    evidence: changed({ dependencies: 7 }),
    score: 60,
    messageId: 'one',
    data: { anomalies: ['dependency-jump'], dependencies: 7, previousDependencies: 2 },
    message: ['runtime dependencies 2 → 7 (from 2.0.1)'],
  },
  { name: 'dependencies 2 → 6: under +5', evidence: changed({ dependencies: 6 }), score: 100, messageId: 'none' },
  { name: 'dependencies 10 → 19: +9 but under 2×', evidence: changed({ dependencies: 19 }, { dependencies: 10 }), score: 100, messageId: 'none' },
  { name: 'dependencies 10 → 20: jump', evidence: changed({ dependencies: 20 }, { dependencies: 10 }), score: 60, messageId: 'one' },
  { name: 'dependencies 0 → 5: jump', evidence: changed({ dependencies: 5 }, { dependencies: 0 }), score: 60, messageId: 'one' },
  {
    name: 'two anomalies together, 30 days after the release: no cap (it holds the verdict)',
    evidence: changed({ publisher: 'mallory', installScripts: { preinstall: 'node bundle.js' } }),
    score: 15,
    messageId: 'several',
    data: { count: 2, anomalies: ['new-publisher', 'install-script-added'], vetting: false },
    message: ['2 anomalies since 2.0.1', 'new publisher mallory', 'install script added: preinstall', 'how the 2025 npm compromises looked'],
  },
  {
    name: 'two anomalies together within the 7 days of vetting: capped below the gate\'s line',
    evidence: changed({ publisher: 'mallory', installScripts: { preinstall: 'node bundle.js' }, versions: versionsAgo([['2.0.1', 200], ['2.1.0', 6.9]]) }),
    score: 15,
    messageId: 'several',
    data: { vetting: true },
    caps: [
      {
        id: 'release-anomalies',
        limit: 49.9,
        reason:
          '2 release anomalies in 2.1.0 since 2.0.1 (new-publisher, install-script-added): how the 2025 npm compromises looked; pin the previous version (2.0.1) until the release is vetted, or re-run once it has been out 7 days without a malicious-package report',
        // What to pin and how long to wait, as values a program can act on.
        args: { version: '2.1.0', previous: '2.0.1', anomalies: 'new-publisher,install-script-added', vettingDays: 7 },
      },
    ],
  },
  {
    name: 'two anomalies, exactly 7 days after the release: vetted, no cap',
    evidence: changed({ hasBin: true, dependencies: 7, versions: versionsAgo([['2.0.1', 200], ['2.1.0', 7]]) }),
    score: 15,
    messageId: 'several',
    data: { vetting: false, anomalies: ['bin-added', 'dependency-jump'] },
  },
  {
    name: 'two anomalies on a release of unknown age: capped (the safe side)',
    evidence: changed({ hasBin: true, dependencies: 7, versions: publishedHoursAgo(null) }),
    score: 15,
    messageId: 'several',
    data: { vetting: true },
    caps: [
      {
        id: 'release-anomalies',
        limit: 49.9,
        reason:
          '2 release anomalies in 2.1.0 since 2.0.1 (bin-added, dependency-jump): how the 2025 npm compromises looked; pin the previous version (2.0.1) until the release is vetted, or re-run once it has been out 7 days without a malicious-package report',
      },
    ],
  },
  {
    name: 'every anomaly at once',
    evidence: changed(
      {
        attestations: null,
        publisher: 'mallory',
        installScripts: { postinstall: 'node x.js' },
        hasBin: true,
        versions: publishedHoursAgo(3),
        unpackedSize: 3_000_000,
        dependencies: 12,
      },
      {},
      false,
    ),
    score: 15,
    messageId: 'several',
    data: {
      count: 6,
      anomalies: ['provenance-dropped', 'new-publisher', 'install-script-added', 'bin-added', 'size-jump', 'dependency-jump'],
      context: ['fresh-latest'],
    },
    caps: [
      {
        id: 'release-anomalies',
        limit: 49.9,
        reason:
          '6 release anomalies in 2.1.0 since 2.0.1 (provenance-dropped, new-publisher, install-script-added, bin-added, size-jump, dependency-jump): how the 2025 npm compromises looked; pin the previous version (2.0.1) until the release is vetted, or re-run once it has been out 7 days without a malicious-package report',
      },
    ],
  },
  {
    name: 'trimmed packument: compares what it can and lists the rest',
    evidence: changed(
      { trimmed: true, publisher: null, previousPublisher: null, priorPublishers: null, versions: publishedHoursAgo(null), unpackedSize: null },
      { publisher: null, time: null, unpackedSize: null },
    ),
    score: 100,
    messageId: 'none-partial',
    data: { notCompared: ['new-publisher', 'fresh-latest', 'size-jump'], notComparedWords: ['who published it', 'how recently it became latest', 'unpacked size'] },
    message: ['who published it, how recently it became latest, unpacked size'],
  },
  {
    name: 'trimmed packument with a dependency added: its newcomer status is not compared (the times are a mirror\'s)',
    evidence: { ...addsDependency({ versionCount: 1, packumentModified: daysAgo(31) }, 'flat-stream', { trimmed: true }) },
    score: 100,
    messageId: 'none-partial',
    data: { notCompared: ['newcomer-dependency'] },
  },
  // A mirror's times that do not read as publish times (release-recency withholds them) date no release.
  {
    name: 'mkdirp 3.0.1 as the mirror serves it (recorded; 3.0.0 dated after it): its date is the mirror\'s, so no "published N h ago" — how recently it became latest is not compared',
    evidence: evidence({ registry: ok(factsOfPackument(mkdirpPackument(), '3.0.1')), tarball: unavailable('not read'), dependencies: unavailable('not read') }),
    now: new Date('2024-06-24T00:00:00Z'),
    score: 100,
    messageId: 'none-partial',
    data: { anomalies: [], context: [], timesWithheld: true, published: null, notCompared: ['new-publisher', 'fresh-latest', 'size-jump'] },
  },
  {
    name: 'two anomalies in a trimmed packument whose times are a mirror\'s (dated 30 days ago): age unknown, so capped as within the vetting window',
    evidence: changed(
      { trimmed: true, publisher: null, priorPublishers: null, versions: versionsAgo([['2.0.0', 300], ['2.0.1', 500], ['2.1.0', 30]]), installScripts: { postinstall: 'node setup.js' }, hasBin: true, unpackedSize: null },
      { publisher: null, unpackedSize: null },
    ),
    score: 15,
    messageId: 'several',
    data: { anomalies: ['install-script-added', 'bin-added'], timesWithheld: true, vetting: true },
    caps: [{ id: 'release-anomalies', limit: 49.9, reason: expect.stringMatching(/^2 release anomalies in 2\.1\.0 since 2\.0\.1/) }],
  },
  {
    name: 'the same in a trimmed packument whose times read as publish times (in version order): 30 days old, held, not capped',
    evidence: changed(
      { trimmed: true, publisher: null, priorPublishers: null, versions: versionsAgo([['2.0.0', 500], ['2.0.1', 300], ['2.1.0', 30]]), installScripts: { postinstall: 'node setup.js' }, hasBin: true, unpackedSize: null },
      { publisher: null, unpackedSize: null },
    ),
    score: 15,
    messageId: 'several',
    data: { anomalies: ['install-script-added', 'bin-added'], vetting: false },
  },
  // The 2018 event-stream shape: a release adds a dependency that is brand new itself (2.1.0 is published 30 days before NOW).
  ...newcomerRows(),
  {
    name: 'trimmed packument still shows an added install script',
    evidence: changed(
      { trimmed: true, publisher: null, priorPublishers: null, versions: publishedHoursAgo(null), installScripts: { install: 'node i.js' } },
      { publisher: null },
    ),
    score: 60,
    messageId: 'one',
    data: { anomalies: ['install-script-added'], notCompared: ['new-publisher', 'fresh-latest'] },
  },
  // A new major line (outside the previous version's caret range) brings a command, dependencies
  // and size as a major release does: context. Who published it and what runs at install still count.
  {
    name: 'llm 1.0.7 after 0.0.1 (recorded): a new major line\'s command and dependencies are context, not a compromise\'s shape',
    evidence: evidence({ registry: ok(factsOfPackument(llmPackument(), '1.0.7')), tarball: unavailable('not read'), dependencies: unavailable('not read') }),
    score: 100,
    messageId: 'context-only',
    data: { anomalies: [], previousVersion: '0.0.1', context: ['new-major-line'], majorLineChanges: ['bin-added', 'dependency-jump'] },
    message: ['1.0.7 starts a new major line after 0.0.1'],
  },
  {
    name: 'a new major line (2.0.1 → 3.0.0): command, size and dependencies are context',
    evidence: changed({ version: '3.0.0', hasBin: true, unpackedSize: 3_000_000, dependencies: 12 }),
    score: 100,
    messageId: 'context-only',
    data: { anomalies: [], context: ['new-major-line'], majorLineChanges: ['bin-added', 'size-jump', 'dependency-jump'] },
  },
  {
    name: 'a new major line that adds an install script and a new publisher: those still count',
    evidence: changed({ version: '3.0.0', hasBin: true, dependencies: 12, publisher: 'mallory', installScripts: { postinstall: 'node x.js' } }),
    score: 15,
    messageId: 'several',
    data: { anomalies: ['new-publisher', 'install-script-added'], context: ['new-major-line'], majorLineChanges: ['bin-added', 'dependency-jump'] },
    // 3.0.0 has no publish time: a release of unknown age is capped.
    caps: [expect.objectContaining({ id: 'release-anomalies', limit: 49.9 })],
  },
  {
    name: 'a 0.x minor is a new line (0.2.0 → 0.3.0); a 0.x patch is not (0.2.0 → 0.2.5)',
    evidence: changed({ version: '0.3.0', hasBin: true, dependencies: 7 }, { version: '0.2.0' }),
    score: 100,
    messageId: 'context-only',
    data: { anomalies: [], context: ['new-major-line'] },
  },
  {
    name: 'within a 0.x line (0.2.0 → 0.2.5): still two anomalies',
    evidence: changed({ version: '0.2.5', hasBin: true, dependencies: 7, versions: versionsAgo([['0.2.0', 200], ['0.2.5', 30]]) }, { version: '0.2.0' }),
    score: 15,
    messageId: 'several',
    data: { anomalies: ['bin-added', 'dependency-jump'], context: [] },
  },
  {
    name: 'a version semver cannot read excuses nothing',
    evidence: changed({ version: '3.0.0', hasBin: true, dependencies: 7 }, { version: 'r2' }),
    score: 15,
    messageId: 'several',
    data: { anomalies: ['bin-added', 'dependency-jump'] },
    caps: [expect.objectContaining({ id: 'release-anomalies', limit: 49.9 })],
  },
]);

describe('release-anomalies', () => {
  it('holds the verdict with two or more anomalies past the vetting window, and only then', () => {
    const several = outcomeOf(check, changed({ publisher: 'mallory', installScripts: { preinstall: 'node bundle.js' } }));
    expect(several.holdVerdict).toMatch(/^2 release anomalies in 2\.1\.0 since 2\.0\.1 \(new-publisher, install-script-added\).*a later release without them would lift this$/);
    expect(outcomeOf(check, changed({ hasBin: true })).holdVerdict).toBeUndefined();
  });

  it('needs the registry only', () => {
    expect(runCheck(check, evidence({ registry: unavailable('HTTP 500') }))).toEqual({ kind: 'unknown-source', source: 'registry' });
  });
});
