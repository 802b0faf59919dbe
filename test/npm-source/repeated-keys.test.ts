/**
 * Keys a package.json names twice (sources/npm/packument-scan.ts, `repeatedKeys`): JSON.parse —
 * npm and nerq — keeps the last, other parsers the first, so the two read other install scripts
 * (docs/security.md, "Manifest confusion"). Read from the tarball's package.json and reported
 * by manifest-confusion.
 */
import { describe, expect, it } from 'vitest';
import { repeatedKeys } from '../../src/sources/npm/packument-scan.js';
import { readTarball } from '../../src/sources/npm/tarball.js';
import check from '../../src/checks/manifest-confusion.js';
import { manifestOf, registryFacts } from '../support/evidence-builder.js';
import { makeTgz } from './make-tgz.js';

const keys = (text: string) => repeatedKeys(Buffer.from(text))?.map((r) => [r.key, r.first, r.last]) ?? null;

describe('repeatedKeys', () => {
  it('a read member twice at the top level, and a script twice inside `scripts` (each occurrence of it)', () => {
    expect(keys('{"name":"a","scripts":{"test":"x"},"scripts":{"postinstall":"echo ok","postinstall":"node steal.js"}}')).toEqual([
      ['scripts', '{"test":"x"}', '{"postinstall":"echo ok","postinstall":"node steal.js"}'],
      ['scripts.postinstall', '"echo ok"', '"node steal.js"'],
    ]);
    expect(keys('{"dependencies":{"a":"^1","a":"file:../evil"},"bin":{"x":"a.js","x":"b.js"}}')).toEqual([
      ['dependencies.a', '"^1"', '"file:../evil"'],
      ['bin.x', '"a.js"', '"b.js"'],
    ]);
  });

  it('an escaped spelling is the same key (JSON.parse reads it so)', () => {
    expect(keys('{"scripts":{"postinstall":"a","post\\u0069nstall":"b"}}')).toEqual([['scripts.postinstall', '"a"', '"b"']]);
  });

  it('the same value twice, a member nerq does not read, and a key inside another member are not reported', () => {
    expect(keys('\uFEFF{"name":"a","name":"a","keywords":[],"keywords":["x"],"repository":{"url":"a","url":"b"}}')).toEqual([]);
  });

  it('text that is not a JSON object: null', () => {
    expect(keys('[1]')).toBeNull();
    expect(keys('{"scripts":{"a":"b",}}')).toBeNull();
    expect(keys('{"a":1} x')).toBeNull();
  });

  it("the tarball's package.json: the repeat is kept with its manifest and manifest-confusion reports it", async () => {
    const body = '{"name":"p","version":"1.0.0","scripts":{"postinstall":"node steal.js","postinstall":"echo ok"}}';
    const result = await readTarball(makeTgz([{ path: 'package/package.json', body }]), {}, []);
    if (result.status !== 'ok') throw new Error(result.reason);
    expect(result.facts.manifest?.repeatedKeys).toEqual([{ key: 'scripts.postinstall', first: '"node steal.js"', last: '"echo ok"' }]);
    // The registry shows what npm read (the last value): the scripts agree, the repeat is the difference.
    const registry = registryFacts({ name: 'p', version: '1.0.0', installScripts: { postinstall: 'echo ok' }, hasInstallScript: true });
    const tarball = { ...result.facts, manifest: { ...manifestOf(registry), ...result.facts.manifest!, dependencies: {} } };
    const outcome = check.evaluate({ registry: { ...registry, dependencyRanges: {} }, tarball }, {} as never);
    expect([outcome.score, outcome.messageId, outcome.data?.count]).toEqual([0, 'different', 1]);
  });
});
