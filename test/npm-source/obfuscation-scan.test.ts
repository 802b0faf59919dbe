/**
 * Obfuscator output counted while a tarball streams (src/sources/npm/obfuscation-scan.ts), on
 * recorded tarballs and on GuardDog's sample of the 2025 compromises' payload
 * (fixtures/install-code/guarddog, fixtures/PROVENANCE.md).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { readTarball } from '../../src/sources/npm/tarball.js';
import { ObfuscationScan } from '../../src/sources/npm/obfuscation-scan.js';
import { loadTarball } from './fixtures.js';
import { makeTgz } from './make-tgz.js';
import check from '../../src/checks/obfuscated-code.js';
import { evidence } from '../support/evidence-builder.js';
import { outcomeOf } from '../checks/check-table.js';

const MANGLED = readFileSync(new URL('../../fixtures/install-code/guarddog/threat-runtime-obfuscation-js-mangling.js', import.meta.url), 'utf8');
/** Dean Edwards' packer output (js-beautify's test input), javascript-obfuscator's output with mangled names (generated), and an unpacker that only names the packer (fixtures/PROVENANCE.md). */
const OBFUSCATED = new URL('../../fixtures/obfuscated-code/', import.meta.url);
const PACKED = readFileSync(new URL('js-beautify/test-packer-62-input.js', OBFUSCATED), 'utf8');
const STRING_ARRAY = readFileSync(new URL('generated/javascript-obfuscator-mangled.js', OBFUSCATED), 'utf8');
const UNPACKER = readFileSync(new URL('js-beautify/p_a_c_k_e_r_unpacker.js', OBFUSCATED), 'utf8');

async function obfuscated(tgz: Buffer) {
  const result = await readTarball(tgz);
  if (result.status !== 'ok') throw new Error(result.reason);
  return result.facts.obfuscated;
}

describe('obfuscated JavaScript in a tarball', () => {
  test("@modelcontextprotocol/inspector 2.12.0's web bundle (Ace's bidi handler compares with U+202B alone in a template literal): a character set, not trojan-source, so the package is not held", async () => {
    const excerpt = readFileSync(new URL('mcp-inspector/ace-bidi-excerpt.js', OBFUSCATED), 'utf8');
    const facts = await obfuscated(
      makeTgz([
        { path: 'package/package.json', body: '{"name":"p","version":"1.0.0"}' },
        { path: 'package/clients/web/dist/assets/index.js', body: excerpt },
      ]),
    );
    expect(facts?.scanned).toBe(1);
    expect(facts?.files).toEqual([]);
    const outcome = outcomeOf(check, evidence({ tarball: { obfuscated: facts! } }));
    expect([outcome.score === 0, outcome.data?.shownOtherwise === true, outcome.holdVerdict]).toEqual([false, false, undefined]);
  });

  test.each([
    ['chalk', '4.1.0'],
    ['express', '4.17.1'],
    ['esbuild', '0.28.2'],
    ['request', '2.88.2'],
  ])('%s@%s: its JavaScript is read and none is obfuscated', async (name, version) => {
    const facts = await obfuscated(loadTarball(name, version));
    expect(facts?.scanned).toBeGreaterThan(0);
    expect(facts?.files).toEqual([]);
    expect(facts?.more).toBe(0);
  });

  test('the obfuscated payload appended to an entry file is found, under its installed path; other files are not', async () => {
    const facts = await obfuscated(
      makeTgz([
        { path: 'package/package.json', body: '{"name":"p","version":"1.0.0"}' },
        { path: 'package/source/index.js', body: `module.exports = 1;\n${MANGLED}` },
        { path: 'package/source/util.js', body: 'const _0x1234 = 1; const _0x5678 = 2;' },
        { path: 'package/README.md', body: MANGLED },
        { path: 'package/node_modules/dep/index.cjs', body: MANGLED },
      ]),
    );
    expect(facts).toEqual({
      scanned: 3,
      files: [
        { path: 'source/index.js', names: 10, signatures: ['obfuscator-names'] },
        { path: 'node_modules/dep/index.cjs', names: 10, signatures: ['obfuscator-names'] },
      ],
      more: 0,
    });
  });

  test('packed and mangled payloads are listed with their signatures, whatever their names', async () => {
    const facts = await obfuscated(
      makeTgz([
        { path: 'package/package.json', body: '{"name":"p","version":"1.0.0"}' },
        { path: 'package/index.js', body: `module.exports = 1;\n${PACKED}` },
        { path: 'package/lib/run.mjs', body: STRING_ARRAY },
        { path: 'package/lib/unpacker.js', body: UNPACKER },
      ]),
    );
    expect(facts).toEqual({
      scanned: 3,
      files: [
        // The packed payload decodes itself inside eval: decoded-eval too.
        { path: 'index.js', names: 0, signatures: ['packer', 'decoded-eval'] },
        { path: 'lib/run.mjs', names: 0, signatures: ['string-array'] },
      ],
      more: 0,
    });
  });

  test('sixteen files are listed, the rest counted', async () => {
    const entries = Array.from({ length: 20 }, (_, i) => ({ path: `package/f${i}.js`, body: MANGLED }));
    const facts = await obfuscated(makeTgz([{ path: 'package/package.json', body: '{}' }, ...entries]));
    expect([facts?.files.length, facts?.more]).toEqual([16, 4]);
  });
});

describe('ObfuscationScan over chunks', () => {
  test.each([
    [9, []],
    [10, [{ path: 'x.js', names: 10, signatures: ['obfuscator-names'] }]],
  ])('%i names, each cut by a chunk boundary, are read whole, never as their first halves', (count, expected) => {
    const scan = new ObfuscationScan();
    const file = scan.file('x.js')!;
    const names = Array.from({ length: count }, (_, i) => `_0x${(0xabcdef - i).toString(16)}`);
    const text = names.join(';');
    // Cut inside each name: `_0xabcd|ef`.
    let at = 0;
    for (const name of names) {
      const cut = text.indexOf(name, at) + 7;
      file.data(Buffer.from(text.slice(at, cut), 'latin1'));
      at = cut;
    }
    file.data(Buffer.from(text.slice(at), 'latin1'));
    file.end();
    expect(scan.facts().files).toEqual(expected);
  });

  test('nine names are not an obfuscator’s output; files that are not JavaScript are not read', () => {
    const scan = new ObfuscationScan();
    const file = scan.file('a.mjs')!;
    file.data(Buffer.from(Array.from({ length: 9 }, (_, i) => `_0x${1000 + i}`).join(' ')));
    file.end();
    expect(scan.file('b.json')).toBeNull();
    expect(scan.facts()).toEqual({ scanned: 1, files: [], more: 0 });
  });
});
