/**
 * Hostile world, part 5: property-based fuzzing. Each parser of data a stranger
 * controls meets at least 10,000 generated inputs (fast-check): the target parser, the
 * packument parser and its facts, npm's version resolution, the downloads parser, the
 * attestations reader, OSV's batch and record handling, and the tarball reader. None may
 * throw anything but its own typed error (the target parser's TargetError; the others
 * answer `unavailable` instead), and what they answer keeps its contract: schema-valid
 * facts, one-line reasons, no polluted prototype.
 *
 * The PyPI, pypistats and GitHub parsers are fuzzed in fuzz-sources.test.ts, the lockfile
 * readers in fuzz-lockfiles.test.ts; what they share is in support/fuzz-kit.ts.
 */
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AttestationFactsSchema, DownloadFactsSchema, RegistryFactsSchema, TarballFactsSchema, VulnerabilityFactsSchema } from '../../src/evidence/schema.js';
import { attestationFacts, fetchAttestations } from '../../src/sources/npm/attestations.js';
import { fetchDownloads, parsePoint } from '../../src/sources/npm/downloads.js';
import { registryFacts } from '../../src/sources/npm/facts.js';
import { parsePackument, scanPackumentBody } from '../../src/sources/npm/registry.js';
import { normaliseAdvisory, OsvRecordSchema } from '../../src/sources/osv/advisory.js';
import { fetchVulnerabilities } from '../../src/sources/osv/query.js';
import { loadCvssCalculator } from '../../src/sources/osv/cvss.js';
import { integrityMismatch, readTarball } from '../../src/sources/npm/tarball.js';
import type { HttpResult } from '../../src/sources/http/types.js';
import { parseTarget } from '../../src/target/parse.js';
import { resolveNpmVersion } from '../../src/ecosystems/npm/resolve.js';
import { TargetError } from '../../src/target/types.js';
import { makeTarball } from '../support/tarball.js';
import { anyJson, body, check, expectNoPollution, failure, fakeHttp, FUZZ_TEST_TIMEOUT_MS, hostileKey, ok, ONE_LINE, outcomes, versionish, viaJson } from './support/fuzz-kit.js';

// Severities are scored from CVSS vectors: the calculator loads before any record is normalised.
beforeAll(loadCvssCalculator);

/** Packument-shaped documents: the fields nerq reads, each of any type, sometimes right. */
const manifest = fc.record(
  {
    name: fc.oneof(fc.constant('chalk'), anyJson),
    version: fc.oneof(versionish, anyJson),
    description: anyJson,
    license: fc.oneof(fc.constantFrom('MIT', '(MIT OR Apache-2.0)', 'SEE LICENSE IN x'), anyJson),
    licenses: anyJson,
    repository: fc.oneof(fc.constantFrom('github:chalk/chalk', 'git+https://github.com/chalk/chalk.git', 'https://evil.test/x'), anyJson),
    dependencies: fc.oneof(fc.dictionary(hostileKey, fc.oneof(fc.constantFrom('^1.0.0', '*', 'npm:x@1', 'file:..', 'latest'), anyJson), { maxKeys: 4 }), anyJson),
    scripts: anyJson,
    deprecated: anyJson,
    dist: fc.oneof(
      fc.record({ tarball: anyJson, integrity: anyJson, attestations: anyJson, signatures: anyJson, fileCount: anyJson, unpackedSize: anyJson }, { requiredKeys: [] }),
      anyJson,
    ),
    _npmUser: anyJson,
    exports: anyJson,
    types: anyJson,
    bin: anyJson,
    engines: anyJson,
  },
  { requiredKeys: [] },
);
const packument = fc.record(
  {
    name: fc.oneof(fc.constant('chalk'), anyJson),
    'dist-tags': fc.oneof(fc.dictionary(hostileKey, fc.oneof(versionish, anyJson), { maxKeys: 3 }), anyJson),
    versions: fc.oneof(fc.dictionary(fc.oneof(versionish, hostileKey), manifest, { maxKeys: 5 }), anyJson),
    time: fc.oneof(fc.dictionary(fc.oneof(versionish, hostileKey), fc.oneof(fc.date({ noInvalidDate: false }).map((d) => (Number.isNaN(d.getTime()) ? 'Invalid' : d.toISOString())), anyJson), { maxKeys: 5 }), anyJson),
    maintainers: anyJson,
    description: anyJson,
  },
  { requiredKeys: [] },
);

// ── the properties ──────────────────────────────────────────────────────────────────────

describe('fuzzing: every parser of hostile data, 10,000 cases each', () => {
  it('the target parser: a Target or a one-line TargetError, nothing else', { timeout: FUZZ_TEST_TIMEOUT_MS }, async ({ task }) => {
    const prefixes = fc.constantFrom('', 'npm:', 'pypi:', 'github:', 'pkg:', 'pkg:npm/', 'pkg:pypi/', 'pkg:github/', 'pkg:maven/', 'https://github.com/', 'http://', '@scope/', 'chalk@', 'pypi:requests', '%2e%2e/');
    const input = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc.tuple(prefixes, fc.string({ unit: fc.constantFrom(...'aZ09-._~@/:%!*()^<>=,+ #?[]\\', '\u0000', '\u001b', '\u202e', '\u200b', '\ud800'), maxLength: 40 })).map(([p, t]) => p + t),
    );
    const seen = outcomes();
    await check(
      task,
      fc.property(input, (text) => {
        try {
          const target = parseTarget(text);
          seen.note('target');
          expect(target.input).toBe(text);
          expect(target.name).not.toBe('');
          expect(['npm', 'pypi', 'github']).toContain(target.ecosystem);
        } catch (error) {
          if (!(error instanceof TargetError)) throw error;
          seen.note('error');
          expect(error.message).toMatch(/^[\x20-\x7e]+$/);
        }
      }),
    );
    seen.expectBoth('target', 'error');
  });

  it('packument → registry facts and npm version resolution: never a throw, always schema-valid facts', { timeout: FUZZ_TEST_TIMEOUT_MS }, async ({ task }) => {
    const seen = outcomes();
    await check(
      task,
      fc.property(fc.oneof(packument.map(viaJson), anyJson.map(viaJson)), fc.option(fc.oneof(versionish, fc.constantFrom('^4', 'latest', '>=1 <2', '*')), { nil: undefined }), (doc, spec) => {
        const text = Buffer.from(JSON.stringify(doc) ?? 'null');
        const parsed = parsePackument(text);
        // The target's packument is scanned, not parsed whole (sources/npm/packument-scan.ts): the same answers.
        const scanned = scanPackumentBody(text);
        expect(scanned.status).toBe(parsed.status);
        if (parsed.status === 'unavailable') {
          expect(parsed.reason).toMatch(ONE_LINE);
          return;
        }
        expect(parsed.status).toBe('ok');
        if (parsed.status !== 'ok') return;
        const resolved = resolveNpmVersion(parsed.packument, spec);
        seen.note(resolved.ok ? 'resolved' : 'not resolved');
        const version = resolved.ok ? resolved.version : (spec ?? '1.0.0');
        if (!resolved.ok) expect(resolved.reason).toMatch(ONE_LINE);
        const facts = registryFacts(parsed.packument, version);
        expect(RegistryFactsSchema.safeParse(facts).success).toBe(true);
        if (scanned.status !== 'ok') return;
        expect(isDeepStrictEqual(resolveNpmVersion(scanned.packument, spec), resolved)).toBe(true);
        expect(isDeepStrictEqual(registryFacts(scanned.packument, version, scanned.manifest), facts)).toBe(true);
        expectNoPollution();
      }),
    );
    seen.expectBoth('resolved', 'not resolved');
  });

  it('packument bodies that are not JSON, or JSON that is not an object: unavailable, never a throw', { timeout: FUZZ_TEST_TIMEOUT_MS }, async ({ task }) => {
    await check(
      task,
      fc.property(body, (text) => {
        const parsed = parsePackument(Buffer.from(text, 'latin1'));
        const scanned = scanPackumentBody(Buffer.from(text, 'latin1'));
        expect(scanned.status === 'unavailable' ? scanned.reason : scanned.status).toBe(parsed.status === 'unavailable' ? parsed.reason : parsed.status);
        if (parsed.status === 'unavailable') expect(parsed.reason).toMatch(ONE_LINE);
        else if (parsed.status === 'ok') expect(typeof parsed.packument).toBe('object');
        else throw new Error('a parsed body is never "not found"');
      }),
    );
  });

  it('npm downloads: a count or a reason per period, facts or unavailable for the source', { timeout: FUZZ_TEST_TIMEOUT_MS }, async ({ task }) => {
    const count = fc.oneof(fc.nat(), fc.constantFrom(-1, 1.5, 1e21)).map((n) => JSON.stringify({ downloads: n, start: '2026-11-22', end: '2026-11-28', package: 'chalk' }));
    const answer = fc.oneof(fc.oneof(count, body).map((b): ['body', string] => ['body', b]), failure.map((f): ['fail', HttpResult] => ['fail', f]));
    const seen = outcomes();
    await check(
      task,
      fc.asyncProperty(answer, answer, body, async (week, year, raw) => {
        const point = parsePoint(Buffer.from(raw, 'latin1'), 'last-week');
        if (typeof point === 'number') expect(Number.isSafeInteger(point) && point >= 0).toBe(true);
        else expect(point.reason).toMatch(ONE_LINE);
        const http = fakeHttp((req) => {
          const [kind, value] = req.url.includes('last-week') ? week : year;
          return kind === 'fail' ? (value as HttpResult) : ok(value as string, req.url);
        });
        const result = await fetchDownloads(http, 'http://127.0.0.1:9/npm-api', 'chalk');
        seen.note(result.status);
        if (result.status === 'ok') expect(DownloadFactsSchema.safeParse(result.facts).success).toBe(true);
        else expect(result.reason).toMatch(ONE_LINE);
      }),
    );
    seen.expectBoth('ok', 'unavailable');
  });

  it('npm attestations: facts or a one-line reason, for any answer and any decoded statement', { timeout: FUZZ_TEST_TIMEOUT_MS }, async ({ task }) => {
    const statement = fc.record(
      {
        _type: anyJson,
        subject: fc.oneof(fc.constant([{ name: 'pkg:npm/chalk@4.1.0' }]), fc.constant([{ name: 'pkg:npm/other@1.0.0' }]), anyJson),
        predicateType: fc.oneof(fc.constantFrom('https://slsa.dev/provenance/v1', 'https://slsa.dev/provenance/v0.2'), anyJson),
        predicate: fc.oneof(
          fc.record({ buildDefinition: fc.record({ externalParameters: fc.record({ workflow: anyJson }), resolvedDependencies: anyJson }), runDetails: anyJson }, { requiredKeys: [] }),
          fc.record({ invocation: fc.record({ configSource: anyJson }), builder: anyJson }, { requiredKeys: [] }),
          anyJson,
        ),
      },
      { requiredKeys: [] },
    );
    const envelopeBody = fc
      .tuple(fc.constantFrom('https://slsa.dev/provenance/v1', 'https://slsa.dev/provenance/v0.2', 'other'), fc.oneof(statement.map((s) => Buffer.from(JSON.stringify(s)).toString('base64')), fc.string({ maxLength: 40 })))
      .map(([predicateType, payload]) => JSON.stringify({ attestations: [{ predicateType, bundle: { dsseEnvelope: { payload } } }] }));
    const seen = outcomes();
    await check(
      task,
      fc.asyncProperty(fc.oneof(envelopeBody, body), fc.option(failure, { nil: undefined }), async (text, fault) => {
        let parsed: unknown = null;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: only the fetch below sees it
        }
        const direct = attestationFacts(parsed, { name: 'chalk', version: '4.1.0' });
        if (typeof direct === 'string') expect(direct).toMatch(ONE_LINE);
        else expect(AttestationFactsSchema.safeParse(direct).success).toBe(true);
        const http = fakeHttp((req) => fault ?? ok(text, req.url));
        const result = await fetchAttestations(http, 'http://127.0.0.1:9/npm/', 'chalk', '4.1.0');
        seen.note(result.status === 'ok' ? (result.facts.provenance ? 'provenance' : 'none') : 'unavailable');
        if (result.status === 'ok') expect(AttestationFactsSchema.safeParse(result.facts).success).toBe(true);
        else expect(result.reason).toMatch(ONE_LINE);
      }),
    );
    seen.expectBoth('provenance', 'unavailable');
  });

  it('OSV: batch answers and advisory records of any shape give valid facts or unavailable', { timeout: FUZZ_TEST_TIMEOUT_MS }, async ({ task }) => {
    const id = fc.oneof(fc.constantFrom('GHSA-aaaa-bbbb-cccc', 'MAL-2024-1', 'CVE-2024-1', 'PYSEC-2024-1', '../x', '', 'a b', '\u001b[31m'), fc.string({ maxLength: 12 }));
    const record = fc.record(
      {
        id: fc.oneof(id, anyJson),
        summary: anyJson,
        details: anyJson,
        aliases: fc.oneof(fc.array(fc.oneof(id, anyJson), { maxLength: 3 }), anyJson),
        modified: anyJson,
        published: anyJson,
        withdrawn: anyJson,
        severity: fc.oneof(fc.array(fc.record({ type: fc.constantFrom('CVSS_V3', 'CVSS_V4', 'CVSS_V2', 'X'), score: fc.oneof(fc.constantFrom('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 'CVSS:4.0/AV:N', 'garbage'), anyJson) }), { maxLength: 2 }), anyJson),
        affected: fc.oneof(
          fc.array(fc.record({ package: fc.oneof(fc.constant({ ecosystem: 'npm', name: 'chalk' }), anyJson), ranges: fc.oneof(fc.array(fc.record({ type: fc.constantFrom('SEMVER', 'ECOSYSTEM', 'GIT'), events: fc.array(fc.dictionary(fc.constantFrom('introduced', 'fixed', 'last_affected', 'limit'), fc.oneof(versionish, anyJson), { maxKeys: 2 }), { maxLength: 3 }) }), { maxLength: 2 }), anyJson), versions: anyJson, database_specific: anyJson }, { requiredKeys: [] }), { maxLength: 2 }),
          anyJson,
        ),
        database_specific: anyJson,
      },
      { requiredKeys: [] },
    );
    const batch = fc.oneof(
      // Well formed: one result per query (chalk and debug), valid ids — the path to advisories.
      { arbitrary: fc.array(fc.constantFrom('GHSA-aaaa-bbbb-cccc', 'MAL-2024-1', 'CVE-2024-1'), { maxLength: 2 }).map((ids) => JSON.stringify({ results: [{ vulns: ids.map((v) => ({ id: v })) }, {}] })), weight: 2 },
      { arbitrary: fc.array(fc.oneof(fc.record({ vulns: fc.array(fc.record({ id, modified: fc.option(fc.string(), { nil: undefined }) }, { requiredKeys: ['id'] }), { maxLength: 3 }), next_page_token: fc.option(fc.string({ maxLength: 4 }), { nil: undefined }) }, { requiredKeys: [] }), anyJson), { maxLength: 3 }).map((results) => JSON.stringify({ results })), weight: 2 },
      { arbitrary: body, weight: 1 },
    );
    const seen = outcomes();
    await check(
      task,
      fc.asyncProperty(batch, fc.oneof({ arbitrary: record.map((r) => JSON.stringify({ ...r, id: 'GHSA-aaaa-bbbb-cccc' })), weight: 2 }, { arbitrary: record.map((r) => JSON.stringify(r)), weight: 1 }, { arbitrary: body, weight: 1 }), fc.option(failure, { nil: undefined, freq: 4 }), async (batchText, recordText, fault) => {
        let parsedRecord: unknown = null;
        try {
          parsedRecord = JSON.parse(recordText);
        } catch {
          // only the fetch sees it
        }
        const parsed = OsvRecordSchema.safeParse(parsedRecord);
        if (parsed.success) {
          normaliseAdvisory(parsed.data, { ecosystem: 'npm', name: 'chalk', version: '4.1.0', compare: () => 0 });
        }
        let pages = 0;
        const http = fakeHttp((req) => {
          if (req.url.endsWith('/querybatch')) {
            pages += 1;
            // A token that never ends the paging would loop: answer its pages with an empty result.
            return fault ?? ok(pages > 3 ? JSON.stringify({ results: [{}, {}] }) : batchText, req.url);
          }
          return ok(recordText, req.url);
        });
        const result = await fetchVulnerabilities(http, 'http://127.0.0.1:9/osv', { ecosystem: 'npm', target: { name: 'chalk', version: '4.1.0' }, dependencies: [{ name: 'debug', version: '4.2.0' }] });
        seen.note(result.status === 'ok' ? (result.facts.advisories.length > 0 ? 'advisories' : 'none') : 'unavailable');
        if (result.status === 'ok') expect(VulnerabilityFactsSchema.safeParse(result.facts).success).toBe(true);
        else expect(result.reason).toMatch(ONE_LINE);
        expectNoPollution();
      }),
    );
    seen.expectBoth('advisories', 'unavailable');
  });

  it('the tarball reader: facts or unavailable for any bytes, gzip of any bytes, and mutated archives', { timeout: FUZZ_TEST_TIMEOUT_MS }, async ({ task }) => {
    const healthy = zlib.gunzipSync(
      makeTarball([
        { path: 'README.md', content: '# x\n\ntext\n' },
        { path: 'LICENSE', content: 'Permission is hereby granted, free of charge, to any person obtaining a copy' },
        { path: 'lib/index.d.ts', content: 'export {};' },
        { path: 'docs', type: 'dir' },
        { path: 'link', type: 'symlink', content: '../../etc/passwd' },
      ]),
    );
    const mutatedTar = fc
      .array(fc.tuple(fc.nat(healthy.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 })
      .map((edits) => {
        const copy = Buffer.from(healthy);
        for (const [at, byte] of edits) copy[at] = byte;
        return zlib.gzipSync(copy);
      });
    const input = fc.oneof(
      fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b)),
      fc.uint8Array({ maxLength: 4096 }).map((b) => zlib.gzipSync(Buffer.from(b))),
      mutatedTar,
      fc.nat(healthy.length).map((cut) => zlib.gzipSync(healthy.subarray(0, cut))),
    );
    const seen = outcomes();
    await check(
      task,
      fc.asyncProperty(input, async (bytes) => {
        const result = await readTarball(bytes, { entries: 50, perFileBytes: 4096, decompressedBytes: 1 << 20 });
        seen.note(result.status);
        if (result.status === 'ok') expect(TarballFactsSchema.safeParse(result.facts).success).toBe(true);
        else expect(result.reason).toMatch(ONE_LINE);
      }),
    );
    seen.expectBoth('ok', 'unavailable');
  });

  it('the tarball integrity check: any SRI text from a packument, a match or a one-line reason', { timeout: FUZZ_TEST_TIMEOUT_MS }, async ({ task }) => {
    const bytes = Buffer.from('the tarball');
    const digest = (algorithm: string) => `${algorithm}-${createHash(algorithm).update(bytes).digest('base64')}`;
    const sri = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.array(fc.oneof(fc.constantFrom(digest('sha512'), digest('sha1'), 'sha512-', 'sha512-AAAA', 'md5-abc', 'sha256-%%%?x'), fc.string({ maxLength: 20 })), { maxLength: 4 }).map((parts) => parts.join(' ')),
    );
    await check(
      task,
      fc.property(sri, (text) => {
        const mismatch = integrityMismatch(bytes, text);
        if (mismatch !== null) expect(mismatch).toMatch(ONE_LINE);
        if (text.split(/\s+/).includes(digest('sha512'))) expect(mismatch).toBeNull();
      }),
    );
  });
});
