/**
 * The scanned packument (sources/npm/packument-scan.ts) must give the target exactly what parsing the whole
 * body gave it: the same verdict on malformed bodies, the same version resolution and the same
 * registry facts for every version. Proved against `JSON.parse` over recorded packuments and
 * generated ones — written with duplicate keys, escaped keys (`"_npm\u0055ser"`), `__proto__`
 * keys, odd whitespace and deep nesting — and over bodies broken one byte at a time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inspect, isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { registryFacts } from '../../src/sources/npm/facts.js';
import { parsePackument, scanPackumentBody, type PackumentResult } from '../../src/sources/npm/registry.js';
import { KEPT_MEMBERS, scanPackument } from '../../src/sources/npm/packument-scan.js';
import { resolveNpmVersion } from '../../src/ecosystems/npm/resolve.js';
import { anyJson, hostileKey, versionish } from '../hostile/support/fuzz-kit.js';

const SPECS = [undefined, 'latest', '^1', '^4', '>=1 <2', '*', '1.0.0', 'next', '0.0.1-security'];

/**
 * Deep equality as Node defines it. (Vitest's also compares `constructor` members, which hostile
 * JSON has as own keys: two equal documents with `{"constructor": []}` would differ.)
 */
function expectSame(actual: unknown, expected: unknown, label: string): void {
  if (!isDeepStrictEqual(actual, expected)) expect.fail(`${label}: ${inspect(actual, { depth: 8 })} is not ${inspect(expected, { depth: 8 })}`);
}

/** Everything the target's facts read agrees between the scanned and the parsed body. */
function expectSameAnswers(body: Buffer, extraVersions: readonly string[] = []): PackumentResult {
  const whole = parsePackument(body);
  const scanned = scanPackumentBody(body);
  if (whole.status !== 'ok' || scanned.status !== 'ok') {
    expectSame(scanned, whole, 'result');
    return whole;
  }
  for (const member of KEPT_MEMBERS) {
    expect(Object.hasOwn(scanned.packument, member), member).toBe(Object.hasOwn(whole.packument, member));
    expectSame(scanned.packument[member], whole.packument[member], member);
  }
  const versions = whole.packument.versions;
  const keys = typeof versions === 'object' && versions !== null && !Array.isArray(versions) ? Object.keys(versions) : [];
  if (keys.length > 0) expect(Object.keys(scanned.packument.versions as object)).toStrictEqual(keys);
  else expectSame(scanned.packument.versions, versions, 'versions');
  for (const version of [...keys, ...extraVersions, 'not-a-version', '__proto__', 'constructor']) {
    expectSame(scanned.manifest(version), whole.manifest(version), `manifest ${version}`);
    expectSame(registryFacts(scanned.packument, version, scanned.manifest), registryFacts(whole.packument, version), `facts ${version}`);
  }
  for (const spec of SPECS) expectSame(resolveNpmVersion(scanned.packument, spec), resolveNpmVersion(whole.packument, spec), `resolution ${spec}`);
  return whole;
}

// ── writing JSON the way a registry might ───────────────────────────────────────────────

/** A small deterministic generator, so one fast-check seed gives one text. */
function randomOf(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SPACES = ['', '', '', ' ', '\n', '\t', '\r\n  '];

/** JSON text of `value` with random whitespace, keys sometimes written with \u escapes, and sometimes a duplicate key whose first value is overridden. */
function writeJson(value: unknown, random: () => number): string {
  const ws = (): string => SPACES[Math.floor(random() * SPACES.length)]!;
  const key = (k: string): string => {
    if (random() < 0.15) return `"${[...k].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`;
    return JSON.stringify(k);
  };
  const write = (v: unknown): string => {
    if (Array.isArray(v)) return `[${ws()}${v.map((item) => write(item)).join(`${ws()},${ws()}`)}${ws()}]`;
    if (typeof v === 'object' && v !== null) {
      const members: string[] = [];
      for (const [k, item] of Object.entries(v)) {
        // The overriding member is then spelled plain: V8's JSON.parse (Node 24.21) keeps the first
        // value when a duplicate's later spelling is escaped (`"b":1,"\u0062":2` gives b = 1 once
        // such a shape was parsed before), so JSON.parse is no oracle for that spelling.
        const shadowed = random() < 0.1;
        if (shadowed) members.push(`${key(k)}${ws()}:${ws()}${write(random() < 0.5 ? { shadowed: true } : 'shadowed')}`);
        members.push(`${shadowed ? JSON.stringify(k) : key(k)}${ws()}:${ws()}${write(item)}`);
      }
      return `{${ws()}${members.join(`${ws()},${ws()}`)}${ws()}}`;
    }
    return JSON.stringify(v) ?? 'null';
  };
  return `${ws()}${write(value)}${ws()}`;
}

const publisher = fc.oneof(fc.record({ name: fc.constantFrom('alice', 'bob', 'mallory', ''), email: fc.constant('x@example.test') }), anyJson);
const manifest = fc.oneof(
  fc.record(
    {
      name: fc.oneof(fc.constant('pkg'), anyJson),
      version: fc.oneof(versionish, anyJson),
      _npmUser: publisher,
      deprecated: fc.oneof(fc.constantFrom('use something else', ''), anyJson),
      license: fc.oneof(fc.constantFrom('MIT', '(MIT OR Apache-2.0)'), anyJson),
      description: anyJson,
      scripts: anyJson,
      dependencies: anyJson,
      dist: fc.oneof(fc.record({ tarball: anyJson, integrity: anyJson, attestations: anyJson }, { requiredKeys: [] }), anyJson),
      extra: fc.dictionary(hostileKey, anyJson, { maxKeys: 3 }),
    },
    { requiredKeys: [] },
  ),
  anyJson,
);

const isoTime = fc.date({ min: new Date('2010-01-01'), max: new Date('2026-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
const packument = fc.record(
  {
    _id: fc.constant('pkg'),
    name: fc.oneof(fc.constant('pkg'), anyJson),
    description: anyJson,
    'dist-tags': fc.oneof(fc.dictionary(hostileKey, fc.oneof(versionish, anyJson), { maxKeys: 3 }), anyJson),
    versions: fc.oneof(fc.dictionary(fc.oneof(versionish, hostileKey), manifest, { maxKeys: 6 }), anyJson),
    time: fc.oneof(fc.dictionary(fc.oneof(versionish, fc.constantFrom('created', 'modified')), fc.oneof(isoTime, anyJson), { maxKeys: 6 }), anyJson),
    maintainers: anyJson,
    readme: anyJson,
    users: anyJson,
  },
  { requiredKeys: [] },
);

describe('scanned packuments answer as parsed ones', () => {
  it('over every recorded packument: the same facts for every version, the same resolution', () => {
    const dir = path.join(import.meta.dirname, '../../fixtures/http/npm');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'));
    let compared = 0;
    for (const file of files) {
      const body = readFileSync(path.join(dir, file));
      if (expectSameAnswers(body).status === 'ok') compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(10);
  });

  it('over generated packuments written with duplicate, escaped and __proto__ keys and odd whitespace', () => {
    fc.assert(
      fc.property(packument, fc.nat(), (doc, seed) => {
        const text = writeJson(doc, randomOf(seed));
        expectSameAnswers(Buffer.from(text), Object.keys(typeof doc.versions === 'object' && doc.versions !== null ? doc.versions : {}));
      }),
      { numRuns: 3000 },
    );
  });

  it('over bodies broken by one edit: malformed for both or for neither', () => {
    const alphabet = fc.constantFrom(...'{}[]":,\\/ 0123456789.-+eEtrufalsn\u0000\t\n\u00e9\ud83d', '\\u12', '\\x', '\u007f', '\u0080');
    fc.assert(
      fc.property(packument, fc.nat(), fc.nat(), fc.constantFrom('insert', 'delete', 'replace'), alphabet, (doc, seed, at, edit, piece) => {
        const text = writeJson(doc, randomOf(seed));
        const i = text.length === 0 ? 0 : at % text.length;
        const broken = edit === 'insert' ? text.slice(0, i) + piece + text.slice(i) : edit === 'delete' ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + piece + text.slice(i + 1);
        expectSameAnswers(Buffer.from(broken));
      }),
      { numRuns: 3000 },
    );
  });

  it('over raw bytes: invalid UTF-8 in strings is read as JSON.parse reads it; outside strings it is malformed', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }), (a, b) => {
        expectSameAnswers(Buffer.concat([Buffer.from('{"name":"'), a, Buffer.from('","versions":{"1.0.0":{"_npmUser":{"name":"'), b, Buffer.from('"}}}}')]));
        expectSameAnswers(Buffer.concat([Buffer.from('{"versions":'), a, Buffer.from('}')]));
      }),
      { numRuns: 3000 },
    );
  });

  it('fixed cases: a BOM, trailing data, numbers JSON refuses, nesting too deep for a recursive reader', () => {
    for (const text of ['\ufeff{}', '{} x', '{}{}', '{"a":01}', '{"a":1.}', '{"a":.5}', '{"a":-}', '{"a":1e}', '{"a":tru}', '{"a":"\\u12G4"}', '{"a":"\u0001"}', '{"a"  1}', '{,}', '{"a":1,}', '[]', 'null', '"x"', '', ' ']) {
      expectSameAnswers(Buffer.from(text));
    }
    expect(scanPackument(Buffer.from('{"a":1.}'))).toBeNull();
    expect(scanPackument(Buffer.from('[]'))).toBeUndefined();
    const deep = `{"readme":${'['.repeat(200_000)}${']'.repeat(200_000)},"name":"deep"}`;
    const scanned = scanPackumentBody(Buffer.from(deep));
    expect(scanned.status === 'ok' && scanned.packument.name).toBe('deep');
    expect(scanPackumentBody(Buffer.from(`{"readme":${'['.repeat(200_000)}}`)).status).toBe('unavailable');
  });

  it('keeps only what the facts read: stubs for versions, whole manifests on demand', () => {
    const body = Buffer.from(
      JSON.stringify({
        name: 'pkg',
        readme: 'x'.repeat(1000),
        users: { bob: true },
        versions: { '1.0.0': { name: 'pkg', _npmUser: { name: 'alice' }, deprecated: 'old', scripts: { install: 'x' } }, '2.0.0': { name: 'pkg' } },
      }),
    );
    const scanned = scanPackument(body);
    // The README is kept: it is the fallback when the tarball cannot be read.
    expect(scanned?.packument).toStrictEqual({
      name: 'pkg',
      readme: 'x'.repeat(1000),
      versions: { '1.0.0': { _npmUser: { name: 'alice' }, deprecated: 'old' }, '2.0.0': {} },
    });
    expect(scanned?.manifest('1.0.0')).toStrictEqual({ name: 'pkg', _npmUser: { name: 'alice' }, deprecated: 'old', scripts: { install: 'x' } });
    expect(scanned?.manifest('3.0.0')).toBeUndefined();
  });
});
