import fc from 'fast-check';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { resolveByPicking, resolveNpmVersion } from '../../src/ecosystems/npm/resolve.js';

/** A full packument, as npm serves it (not trimmed: it names its maintainers). */
const FULL = { maintainers: [{ name: 'demo' }] };

/** A small full packument: `versions` maps each version to its manifest extras. */
function packument(
  tags: Record<string, string>,
  versions: Record<string, { deprecated?: string }>,
): Record<string, unknown> {
  return {
    name: 'demo',
    ...FULL,
    'dist-tags': tags,
    versions: Object.fromEntries(
      Object.entries(versions).map(([version, extra]) => [version, { name: 'demo', version, ...extra }]),
    ),
  };
}

const expressLike = packument(
  { latest: '4.21.2', next: '5.0.0-beta.3', legacy: '3.21.2' },
  Object.fromEntries(
    ['3.21.2', '4.17.0', '4.18.0', '4.19.2', '4.20.0', '4.21.0', '4.21.1', '4.21.2', '5.0.0-beta.3'].map((v) => [v, {}]),
  ),
);

/** `latest` is 1.2.0 although 2.x exists (a maintained older line). */
const latestBehind = packument({ latest: '1.2.0' }, { '1.0.0': {}, '1.2.0': {}, '2.0.0': {}, '2.1.0': {} });

/** `latest` is deprecated; 1.0.0 is not. */
const deprecatedLatest = packument(
  { latest: '1.1.0' },
  { '1.0.0': {}, '1.1.0': { deprecated: 'broken build, use 1.0.0' }, '1.2.0-rc.1': {} },
);

const allDeprecated = packument(
  { latest: '2.0.0' },
  { '1.0.0': { deprecated: 'old' }, '2.0.0': { deprecated: 'moved to @demo/core' } },
);

/** An empty `deprecated` string means "no longer deprecated" to npm. */
const undeprecated = packument({ latest: '1.1.0' }, { '1.0.0': {}, '1.1.0': { deprecated: '' } });

const onlyPrereleases = packument({}, { '1.0.0-alpha.1': {}, '1.0.0-beta.2': {} });

describe('resolveNpmVersion picks the way npm does', () => {
  it.each<[string, Record<string, unknown>, string | undefined, string]>([
    ['no spec → latest', expressLike, undefined, '4.21.2'],
    ['empty spec → latest', expressLike, '', '4.21.2'],
    ['dist-tag latest', expressLike, 'latest', '4.21.2'],
    ['dist-tag next (a pre-release)', expressLike, 'next', '5.0.0-beta.3'],
    ['dist-tag legacy', expressLike, 'legacy', '3.21.2'],
    ['exact version', expressLike, '4.18.0', '4.18.0'],
    ['exact version with a v', expressLike, 'v4.18.0', '4.18.0'],
    ['range satisfied by latest', expressLike, '^4.18.0', '4.21.2'],
    ['major only', expressLike, '4', '4.21.2'],
    ['tilde range', expressLike, '~4.19', '4.19.2'],
    ['range latest does not satisfy → highest match', expressLike, '^3', '3.21.2'],
    ['hyphen range', expressLike, '4.17.0 - 4.19.9', '4.19.2'],
    ['* prefers latest over a higher version', latestBehind, '*', '1.2.0'],
    ['no spec prefers latest over a higher version', latestBehind, undefined, '1.2.0'],
    ['range above latest → highest match', latestBehind, '^2', '2.1.0'],
    ['>= range satisfied by latest', latestBehind, '>=1.0.0', '1.2.0'],
    ['deprecated latest is avoided', deprecatedLatest, undefined, '1.0.0'],
    ['deprecated avoided in a range', deprecatedLatest, '^1.0.0', '1.0.0'],
    ['deprecated exact version is still that version', deprecatedLatest, '1.1.0', '1.1.0'],
    ['deprecated dist-tag is still that version', deprecatedLatest, 'latest', '1.1.0'],
    ['all deprecated → highest deprecated match', allDeprecated, undefined, '2.0.0'],
    ['all deprecated, range', allDeprecated, '1', '1.0.0'],
    ['empty deprecated string is not deprecated', undeprecated, undefined, '1.1.0'],
    ['pre-release range', onlyPrereleases, '>=1.0.0-alpha.0', '1.0.0-beta.2'],
  ])('%s', (_label, doc, spec, version) => {
    expect(resolveNpmVersion(doc, spec)).toEqual({ ok: true, version });
  });

  it('returns the packument key, not a version field the manifest claims', () => {
    const doc = { 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': { version: '9.9.9' } } };
    expect(resolveNpmVersion(doc, undefined)).toEqual({ ok: true, version: '1.0.0' });
  });

  it('does not depend on the Node version running it (engines are ignored)', () => {
    const doc = {
      'dist-tags': { latest: '2.0.0' },
      versions: { '1.0.0': { engines: { node: '*' } }, '2.0.0': { engines: { node: '<0.1' } } },
    };
    expect(resolveNpmVersion(doc, undefined)).toEqual({ ok: true, version: '2.0.0' });
  });
});

describe('resolveNpmVersion explains a miss and suggests the nearest versions', () => {
  it.each<[string, Record<string, unknown>, string | undefined, RegExp, string[]]>([
    [
      'missing version → highest of the same major',
      expressLike, '4.99.0', /version "4\.99\.0" does not exist/,
      ['4.21.2', '4.21.1', '4.21.0', '4.20.0', '4.19.2'],
    ],
    [
      'missing patch → the same minor first',
      expressLike, '4.21.9', /does not exist/,
      ['4.21.2', '4.21.1', '4.21.0', '4.20.0', '4.19.2'],
    ],
    [
      'missing old version → the versions around it',
      expressLike, '4.17.5', /does not exist/,
      ['4.21.0', '4.20.0', '4.19.2', '4.18.0', '4.17.0'],
    ],
    [
      'missing major → the highest versions below it',
      expressLike, '6.0.0', /does not exist/,
      ['4.21.2', '4.21.1', '4.21.0', '4.20.0', '4.19.2'],
    ],
    [
      'missing version below everything → the lowest versions above it',
      latestBehind, '0.1.0', /does not exist/,
      ['2.1.0', '2.0.0', '1.2.0', '1.0.0'],
    ],
    [
      'unsatisfiable range',
      expressLike, '^6', /no version matches "\^6"/,
      ['4.21.2', '4.21.1', '4.21.0', '4.20.0', '4.19.2'],
    ],
    [
      'unknown dist-tag → the tags and the latest version',
      expressLike, 'beta', /no dist-tag "beta"/,
      ['latest', 'legacy', 'next', '4.21.2'],
    ],
    [
      'dist-tag pointing nowhere',
      packument({ latest: '1.0.0', canary: '9.9.9' }, { '1.0.0': {} }), 'canary',
      /dist-tag "canary" points to 9\.9\.9, which is not a published version/,
      ['latest', 'canary', '1.0.0'],
    ],
    [
      'no latest tag and only pre-releases',
      onlyPrereleases, undefined, /no version to pick/,
      ['1.0.0-beta.2', '1.0.0-alpha.1'],
    ],
  ])('%s', (_label, doc, spec, reason, nearest) => {
    const result = resolveNpmVersion(doc, spec);
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(reason), nearest });
  });

  it('suggests at most five', () => {
    const many = packument({}, Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`1.${i}.0`, {}])));
    const result = resolveNpmVersion(many, '1.99.0');
    expect(result).toEqual({ ok: false, reason: expect.any(String), nearest: ['1.39.0', '1.38.0', '1.37.0', '1.36.0', '1.35.0'] });
  });
});

describe('a trimmed packument (a mirror’s: no maintainers, no created/modified times) keeps only some dist-tags', () => {
  const trimmed = { name: 'demo', 'dist-tags': { latest: '2.0.0' }, versions: { '1.0.0': {}, '2.0.0': {}, '2.1.0-dev.1': {} }, time: { '1.0.0': '2026-01-01T00:00:00Z' } };

  it.each<[string, Record<string, unknown>, boolean]>([
    ['trimmed: a missing dist-tag is undetermined, not missing', trimmed, true],
    ['maintainers listed: full, the dist-tag is missing', { ...trimmed, maintainers: [{ name: 'demo' }] }, false],
    ['time.created present: full', { ...trimmed, time: { created: '2020-01-01T00:00:00Z' } }, false],
    ['time.modified present: full', { ...trimmed, time: { modified: '2020-01-01T00:00:00Z' } }, false],
  ])('%s', (_label, doc, undetermined) => {
    const result = resolveNpmVersion(doc, 'next');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.undetermined === true).toBe(undetermined);
    expect(result.nearest).toEqual(['latest', '2.0.0']);
  });

  it('still resolves what the trimmed packument holds: latest, versions, ranges; a missing version or range is missing', () => {
    expect(resolveNpmVersion(trimmed, undefined)).toEqual({ ok: true, version: '2.0.0' });
    expect(resolveNpmVersion(trimmed, 'latest')).toEqual({ ok: true, version: '2.0.0' });
    expect(resolveNpmVersion(trimmed, '^1')).toEqual({ ok: true, version: '1.0.0' });
    expect(resolveNpmVersion(trimmed, '3.0.0')).toMatchObject({ ok: false });
    expect(resolveNpmVersion(trimmed, '3.0.0')).not.toHaveProperty('undetermined');
    expect(resolveNpmVersion(trimmed, '^3')).not.toHaveProperty('undetermined');
  });
});

describe('resolveNpmVersion never throws on malformed or hostile packuments', () => {
  it.each<[string, unknown, string | undefined, RegExp]>([
    ['null', null, undefined, /not a JSON object/],
    ['a string', 'express', undefined, /not a JSON object/],
    ['an array', [], undefined, /not a JSON object/],
    ['no versions', { name: 'x' }, undefined, /no "versions" object/],
    ['versions is an array', { versions: ['1.0.0'] }, undefined, /no "versions" object/],
    ['versions is null', { versions: null }, '1.0.0', /no "versions" object/],
    ['empty versions', { versions: {} }, undefined, /no published versions/],
    ['only malformed entries', { versions: { '1.0.0': null, 'not-semver': {}, '2.0.0\n': {} } }, undefined, /no published versions/],
    ['dist-tag through the prototype', { ...FULL, 'dist-tags': {}, versions: { '1.0.0': {} } }, 'constructor', /no dist-tag "constructor"/],
    ['git spec', { versions: { '1.0.0': {} } }, 'github:a/b', /is not a version, range or dist-tag/],
    ['file spec', { versions: { '1.0.0': {} } }, 'file:../x', /is not a version, range or dist-tag/],
    ['invalid tag characters', { versions: { '1.0.0': {} } }, 'a b?', /is not a version, range or dist-tag/],
  ])('%s', (_label, doc, spec, reason) => {
    const result = resolveNpmVersion(doc, spec);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it('treats an own "__proto__" dist-tag as plain data', () => {
    const doc: unknown = JSON.parse('{"dist-tags":{"__proto__":"1.0.0"},"versions":{"1.0.0":{},"2.0.0":{}}}');
    expect(resolveNpmVersion(doc, '__proto__')).toEqual({ ok: true, version: '1.0.0' });
    expect(resolveNpmVersion(doc, undefined)).toEqual({ ok: true, version: '2.0.0' });
  });

  it('drops hostile dist-tags and version keys instead of echoing them', () => {
    const doc = {
      ...FULL,
      'dist-tags': { latest: '1.0.0\u001b[31m', 'evil\u202etag': '1.0.0', ok: '1.0.0' },
      versions: { '1.0.0': {}, '1.0.1\u0007': {} },
    };
    const result = resolveNpmVersion(doc, 'nope');
    expect(result).toEqual({ ok: false, reason: 'no dist-tag "nope"', nearest: ['ok', '1.0.0'] });
  });

  it('holds for arbitrary JSON and specs', () => {
    const versionKey = fc.constantFrom('1.0.0', '1.1.0', '2.0.0-rc.1', 'x', '__proto__', '1.0.0 ', '');
    const doc = fc.oneof(
      fc.jsonValue(),
      fc.record({
        'dist-tags': fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.oneof(versionKey, fc.jsonValue()))),
        versions: fc.oneof(fc.jsonValue(), fc.dictionary(versionKey, fc.oneof(fc.jsonValue(), fc.constant({})))),
      }),
    );
    const spec = fc.option(fc.oneof(fc.string(), fc.constantFrom('latest', '^1', '*', '1.0.0', 'github:a/b', 'constructor')), {
      nil: undefined,
    });
    fc.assert(
      fc.property(doc, spec, (d, s) => {
        const result = resolveNpmVersion(d, s);
        if (result.ok) {
          expect(Object.keys((d as { versions: object }).versions)).toContain(result.version);
        } else {
          expect(result.reason).toMatch(/^[\x20-\x7e]+$/);
          expect(result.nearest.length).toBeLessThanOrEqual(5);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('a resolved range is always satisfied, and a miss means nothing satisfies it', () => {
  it('holds for generated packuments', () => {
    const version = fc
      .tuple(fc.nat({ max: 3 }), fc.nat({ max: 3 }), fc.nat({ max: 3 }))
      .map(([a, b, c]) => `${a}.${b}.${c}`);
    const range = fc.constantFrom('^1.0.0', '~2.1.0', '>=3', '<1', '1.x', '*', '^0.2.0', '2.0.0 - 2.2.0');
    fc.assert(
      fc.property(fc.uniqueArray(version, { minLength: 1, maxLength: 12 }), fc.nat(), range, (versions, pick, wanted) => {
        const latest = versions[pick % versions.length] ?? '0.0.0';
        const doc = packument({ latest }, Object.fromEntries(versions.map((v) => [v, {}])));
        const result = resolveNpmVersion(doc, wanted);
        const matching = versions.filter((v) => semver.satisfies(v, wanted));
        if (result.ok) {
          expect(semver.satisfies(result.version, wanted)).toBe(true);
          const expected = semver.satisfies(latest, wanted) ? latest : semver.maxSatisfying(versions, wanted);
          expect(result.version).toBe(expected);
        } else {
          expect(matching).toEqual([]);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('resolveNpmVersion: the exact-version shortcut', () => {
  it('answers as npm-pick-manifest over every version, for exact, loose, missing and non-version specs', () => {
    const key = fc.oneof(
      fc.tuple(fc.nat(12), fc.nat(12), fc.nat(12)).map(([a, b, c]) => `${a}.${b}.${c}`),
      fc.tuple(fc.nat(3), fc.nat(3), fc.nat(3), fc.constantFrom('-beta.1', '-rc.0', '+build')).map(([a, b, c, d]) => `${a}.${b}.${c}${d}`),
      fc.constantFrom('v1.0.0', '01.0.0', '1.0', '__proto__', 'constructor', '1.0.0 ', 'x'.repeat(300)),
    );
    const manifest = fc.oneof(fc.constant({}), fc.constant({ deprecated: 'old' }), fc.constant({ deprecated: '' }), fc.constantFrom(null, 'x', 1, []));
    const packument = fc.record({
      'dist-tags': fc.oneof(fc.constant({ latest: '1.2.3' }), fc.dictionary(fc.constantFrom('latest', 'next'), key)),
      versions: fc.oneof(fc.dictionary(key, manifest, { maxKeys: 8 }), fc.constantFrom(null, [], 'x')),
    });
    fc.assert(
      fc.property(packument, fc.nat(), fc.constantFrom('', 'v', '=', ' ', 'v=', '^', '~', '>='), (doc, pick, prefix) => {
        const doc2 = JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
        const keys = typeof doc2.versions === 'object' && doc2.versions !== null ? Object.keys(doc2.versions) : [];
        const specs = [undefined, 'latest', '1.2.3', `${prefix}${keys[pick % Math.max(keys.length, 1)] ?? '9.9.9'}`, `${prefix}${keys[(pick + 1) % Math.max(keys.length, 1)] ?? '0.0.0'}`];
        for (const spec of specs) expect(resolveNpmVersion(doc2, spec), String(spec)).toEqual(resolveByPicking(doc2, spec));
      }),
      { numRuns: 3000 },
    );
  });
});
