/**
 * The release-anomaly fixtures (fixtures/http/npm/nerq-fixture-{provenance-dropped,
 * new-publisher,postinstall}.json): each latest release differs from the ones before it in
 * exactly one way, and its tarball fixture is real and matches the packument.
 */
import { describe, expect, test } from 'vitest';
import { registryFacts } from '../../src/sources/npm/facts.js';
import { integrityMismatch, readTarball } from '../../src/sources/npm/tarball.js';
import { TEST_REGISTRY, loadPackument, loadTarball } from './fixtures.js';

const FIXTURES = ['nerq-fixture-provenance-dropped', 'nerq-fixture-new-publisher', 'nerq-fixture-postinstall'] as const;

describe.each(FIXTURES)('%s', (name) => {
  const facts = registryFacts(loadPackument(name), '1.4.0');

  test('a full packument whose latest is 1.4.0, following 1.3.0', () => {
    expect(facts.trimmed).toBe(false);
    expect(facts.isLatest).toBe(true);
    expect(facts.versions.map((v) => v.version)).toEqual(['1.0.0', '1.1.0', '1.2.0', '1.2.1', '1.3.0', '1.4.0']);
    expect(facts.previous?.version).toBe('1.3.0');
    expect(facts.tarballUrl).toBe(`${TEST_REGISTRY}/${name}/-/${name}-1.4.0.tgz`);
    expect(facts.signatures).toBe(1);
    // no size or dependency jump, no new bin: only the one anomaly each fixture is about
    expect(facts.dependencies).toBe(facts.previous?.dependencies);
    expect(facts.hasBin).toBe(facts.previous?.hasBin);
    expect(facts.unpackedSize).not.toBeNull();
    expect((facts.unpackedSize ?? 0) / (facts.previous?.unpackedSize ?? 1)).toBeLessThan(1.2);
  });

  test('its tarball matches dist.integrity, dist.unpackedSize and dist.fileCount', async () => {
    const tgz = loadTarball(name, '1.4.0');
    expect(integrityMismatch(tgz, facts.integrity)).toBeNull();
    const read = await readTarball(tgz);
    expect(read.status).toBe('ok');
    if (read.status !== 'ok') return;
    expect(read.facts.unpackedSize).toBe(facts.unpackedSize);
    expect(read.facts.fileCount).toBe(facts.fileCount);
    expect(read.facts.readme?.path).toBe('README.md');
    expect(read.facts.licenseFiles).toEqual([{ path: 'LICENSE', spdx: 'MIT' }]);
  });
});

test('provenance dropped: 1.3.0 had an attestation, 1.4.0 has none; same publishers, no install script', () => {
  const facts = registryFacts(loadPackument('nerq-fixture-provenance-dropped'), '1.4.0');
  expect(facts.previous?.hasAttestations).toBe(true);
  expect(facts.attestations).toBeNull();
  expect(facts.priorPublishers).toContain(facts.publisher);
  expect(facts.installScripts).toEqual({});
  const before = registryFacts(loadPackument('nerq-fixture-provenance-dropped'), '1.3.0');
  expect(before.attestations).toEqual({
    url: `${TEST_REGISTRY}/-/npm/v1/attestations/nerq-fixture-provenance-dropped@1.3.0`,
    predicateType: 'https://slsa.dev/provenance/v1',
  });
});

test('new publisher: 1.4.0 was published by an account no earlier version names', () => {
  const facts = registryFacts(loadPackument('nerq-fixture-new-publisher'), '1.4.0');
  expect(facts.publisher).toBe('fixture-newcomer');
  expect(facts.priorPublishers).toEqual(['fixture-maintainer-a', 'fixture-maintainer-b']);
  expect(facts.previous?.hasAttestations).toBe(false);
  expect(facts.attestations).toBeNull();
  expect(facts.installScripts).toEqual({});
});

test('postinstall: 1.4.0 adds `node setup.js`, which no earlier version ran', () => {
  const doc = loadPackument('nerq-fixture-postinstall');
  const facts = registryFacts(doc, '1.4.0');
  expect(facts.installScripts).toEqual({ postinstall: 'node setup.js' });
  expect(facts.previous?.installScripts).toEqual([]);
  for (const version of ['1.0.0', '1.1.0', '1.2.0', '1.2.1', '1.3.0']) {
    expect(registryFacts(doc, version).installScripts).toEqual({});
  }
  expect(facts.priorPublishers).toContain(facts.publisher);
  expect(facts.previous?.hasAttestations).toBe(false);
});
