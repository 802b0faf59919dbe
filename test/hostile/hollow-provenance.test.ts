/**
 * Hostile world: hollow provenance. A `dist.attestations` that is empty or malformed (`{}`, no
 * URL, not an object), or a listing the attestations endpoint does not back (404, no SLSA
 * statement, an unreadable body), is not provenance: the provenance check says "none", never
 * "attestation listed", and a version that swapped a real attestation (as its previous version
 * had) for a hollow one has its provenance dropped.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { checkOf, osvNoAdvisories, sourceOf } from '../cli/helpers.js';
import type { FixtureResponse, FixtureServer } from '../support/fixture-server.js';
import { requireCli } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS } from './support/expect.js';
import { noteCases } from './support/metrics.js';
import { closeWorlds, evaluate, version, type Packument } from './support/package-world.js';
import { ATTESTATIONS_PATH, publishedAfterProvenance, recordedPackument } from './support/sources.js';

beforeAll(() => requireCli());
afterAll(() => closeWorlds());

const SLSA_V1 = 'https://slsa.dev/provenance/v1';
const listing = (v: string) => ({ url: `{{REGISTRY}}/-/npm/v1/attestations/chalk@${v}`, provenance: { predicateType: SLSA_V1 } });

/** chalk's packument: 4.0.0 with a real listing, 4.1.0 with `attestations` (undefined: none), both from 2024. */
function packument(attestations: unknown): Packument {
  const p = publishedAfterProvenance(recordedPackument());
  (version(p, '4.0.0').dist as Record<string, unknown>).attestations = listing('4.0.0');
  const dist = version(p).dist as Record<string, unknown>;
  if (attestations === undefined) delete dist.attestations;
  else dist.attestations = attestations;
  return p;
}

interface Case {
  label: string;
  attestations: unknown;
  /** What the attestations endpoint answers for 4.1.0 (when the listing makes nerq ask). */
  endpoint?: FixtureResponse;
}

const cases: Case[] = [
  { label: 'dist.attestations is {}', attestations: {} },
  { label: 'dist.attestations has no URL', attestations: { provenance: { predicateType: SLSA_V1 } } },
  { label: 'dist.attestations is a string', attestations: 'yes' },
  { label: 'dist.attestations is an array', attestations: [listing('4.1.0')] },
  { label: 'the attestations endpoint answers 404', attestations: listing('4.1.0'), endpoint: { status: 404, body: { error: 'not found' } } },
  { label: 'the endpoint lists no SLSA statement', attestations: listing('4.1.0'), endpoint: { body: { attestations: [] } } },
  { label: 'the endpoint answers something else', attestations: listing('4.1.0'), endpoint: { body: { hello: 'world' } } },
  { label: 'the endpoint answers malformed JSON', attestations: listing('4.1.0'), endpoint: { body: '{"attestations": [' } },
];

describe('a listing that is not provenance', () => {
  it.concurrent.for(cases.map((c) => [c.label, c] as const))('%s: no provenance, and provenance dropped since 4.0.0', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, c], { task, expect }) => {
    noteCases(task);
    const extra = (server: FixtureServer): void => {
      if (c.endpoint !== undefined) server.expect('GET', ATTESTATIONS_PATH, c.endpoint);
    };
    const { report, sandbox } = await evaluate(task, label, { packument: { body: packument(c.attestations) }, osv: osvNoAdvisories }, { extra });
    sandbox.remove();
    const provenance = checkOf(report, 'provenance');
    expect(provenance.messageId, label).toBe('none');
    expect(provenance.score, label).toBe(50);
    expect(checkOf(report, 'release-anomalies').evidence.anomalies, label).toContain('provenance-dropped');
    // Not "unknown" either: the registry answered, and what it answered is no provenance.
    expect(sourceOf(report, 'attestations').status, label).toBe('ok');
  });

  it('a real listing backed by the endpoint stays provenance (the world\'s healthy answer)', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, 'healthy', { osv: osvNoAdvisories });
    sandbox.remove();
    expect(checkOf(report, 'provenance').messageId).toMatch(/^matches|undeclared/);
    expect(checkOf(report, 'release-anomalies').evidence.anomalies).not.toContain('provenance-dropped');
  });
});
