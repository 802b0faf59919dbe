/**
 * Hostile world: code hidden in characters no editor or diff shows. The 2025 attacks stored
 * their payload one byte an invisible character — GlassWorm in Unicode variation selectors,
 * decoded with `codePointAt` and run with `eval`; os-info-checker-es6 in a string of Private Use
 * Area characters decoded in its install code — so a review of the file sees an empty string.
 * The shapes are written for these tests after public reports (fixtures/PROVENANCE.md,
 * `fixtures/obfuscated-code/generated/`); the world is chalk 4.1.0's, its tarball edited to
 * carry them. Round two: the same payload spread one character after each visible letter
 * (`invisible-payload`), and Trojan Source's bidirectional controls (CVE-2021-42574) that make
 * the code a reviewer sees differ from the code that runs (`trojan-source`). The reader that finds them (src/checks/lib/obfuscation-signatures.ts,
 * `invisible-code`) reads every JavaScript file of a tarball, so its time must grow linearly.
 */
import { readFileSync } from 'node:fs';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVISIBLE_PAYLOAD, INVISIBLE_RUN, ObfuscationReader } from '../../src/checks/lib/obfuscation-signatures.js';
import { installCodeFindings } from '../../src/checks/lib/install-code.js';
import { checkOf, osvNoAdvisories } from '../cli/helpers.js';
import { requireCli } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS } from './support/expect.js';
import { rawTar } from './support/hostile-tarballs.js';
import { expectLinear, growth } from './support/linear-time.js';
import { noteCases } from './support/metrics.js';
import { closeWorlds, evaluate, version, vouchedFor } from './support/package-world.js';

beforeAll(() => requireCli());
afterAll(() => closeWorlds());

const shape = (name: string) => readFileSync(new URL(`../../fixtures/obfuscated-code/generated/${name}`, import.meta.url), 'utf8');
const GLASSWORM = shape('glassworm-shape.js');
const OS_INFO_CHECKER = shape('os-info-checker-es6-shape.js');
const GLASSWORM_INTERLEAVED = shape('glassworm-interleaved-shape.js');
const TROJAN_COMMENT = shape('trojan-source-commenting-out.js');
const TROJAN_STRING = shape('trojan-source-stretched-string.js');

/** chalk 4.1.0 whose tarball holds `files` (its entry file `source/index.js` among them, plain unless given), both manifests running `postinstall` when given one. */
function chalkWith(files: [path: string, content: string][], postinstall?: string) {
  const manifest = { name: 'chalk', version: '4.1.0', main: 'source', ...(postinstall === undefined ? {} : { scripts: { postinstall } }) };
  const given = new Set(files.map(([path]) => path));
  const tarball = zlib.gzipSync(
    rawTar([
      { path: 'package/package.json', type: '0', content: JSON.stringify(manifest) },
      ...(given.has('source/index.js') ? [] : [{ path: 'package/source/index.js', type: '0' as const, content: 'module.exports = {};\n' }]),
      ...files.map(([path, content]) => ({ path: `package/${path}`, type: '0' as const, content })),
    ]),
  );
  return vouchedFor(tarball, (packument) => {
    if (postinstall === undefined) return;
    const release = version(packument);
    release.scripts = { postinstall };
    release.hasInstallScript = true;
  });
}

describe('a payload in invisible characters', () => {
  it.concurrent('run by the install script (GlassWorm\'s shape): install-scripts finds obfuscated code, obfuscated-code names the signature, the verdict is held', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, 'invisible install script', { ...chalkWith([['install.js', GLASSWORM]], 'node install.js'), osv: osvNoAdvisories });
    sandbox.remove();
    const install = checkOf(report, 'install-scripts');
    expect(install).toMatchObject({ score: 10, messageId: 'code-suspicious' });
    expect(String(install?.evidence?.findings).split(', ')).toContain('obfuscated');
    expect(checkOf(report, 'obfuscated-code')).toMatchObject({ score: 0, messageId: 'obfuscated', evidence: { files: 'install.js', signatures: 'invisible-code, decoded-eval' } });
    expect(report.verdictCode).toBe('caution');
  });

  it.concurrent("appended to the package's entry file (os-info-checker-es6's string): obfuscated-code 0, invisible-code named, the verdict held", { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, 'invisible entry', { ...chalkWith([['source/index.js', `module.exports = {};\n${OS_INFO_CHECKER}`]]), osv: osvNoAdvisories });
    sandbox.remove();
    expect(checkOf(report, 'obfuscated-code')).toMatchObject({ score: 0, messageId: 'obfuscated', evidence: { files: 'source/index.js', signatures: 'invisible-code' } });
    expect(report.verdictCode).toBe('caution');
  });
});

describe('a payload spread between visible letters, and code reordered by bidirectional controls', () => {
  it.concurrent("spread one selector after each letter of a greeting in the install script: install-scripts finds obfuscated code, obfuscated-code names invisible-payload, the verdict is held", { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, 'interleaved install script', { ...chalkWith([['install.js', GLASSWORM_INTERLEAVED]], 'node install.js'), osv: osvNoAdvisories });
    sandbox.remove();
    const install = checkOf(report, 'install-scripts');
    expect(install).toMatchObject({ score: 10, messageId: 'code-suspicious' });
    expect(String(install?.evidence?.findings).split(', ')).toContain('obfuscated');
    expect(checkOf(report, 'obfuscated-code')).toMatchObject({ score: 0, messageId: 'obfuscated', evidence: { files: 'install.js', signatures: 'invisible-payload' } });
    expect(report.verdictCode).toBe('caution');
  });

  it.concurrent("Trojan Source's commenting-out and stretched-string shapes in the entry files: obfuscated-code 0, trojan-source named, the verdict held", { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, 'trojan source entry', {
      ...chalkWith([
        ['source/index.js', TROJAN_COMMENT],
        ['source/util.js', TROJAN_STRING],
      ]),
      osv: osvNoAdvisories,
    });
    sandbox.remove();
    expect(checkOf(report, 'obfuscated-code')).toMatchObject({ score: 0, messageId: 'obfuscated', evidence: { signatures: 'trojan-source' } });
    expect(String(checkOf(report, 'obfuscated-code')?.evidence?.files).split(', ').sort()).toEqual(['source/index.js', 'source/util.js']);
    expect(report.verdictCode).toBe('caution');
  });
});

describe('the invisible-code reader grows linearly', () => {
  /** One character a byte, as the tarball streams. */
  const bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
  const read = (text: string, size: number) => {
    const reader = new ObfuscationReader();
    for (let at = 0; at < text.length; at += size) reader.read(text.slice(at, at + size));
    reader.read('', true);
    return reader.signatures();
  };
  // Runs of invisible characters (long and just short of the bar), each after a visible one, lead
  // bytes without their continuation, a byte order mark, invisible characters in comments: each
  // read as it should be at every size, in time linear in it.
  const units: [unit: string, found: string[]][] = [
    [bytes('\u{e0100}'), ['invisible-code']],
    [bytes('\ufe0f'.repeat(INVISIBLE_RUN - 1) + ' '), []],
    [bytes('\u2764\ufe0f'), []],
    [bytes('\u{1f3f4}\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}'), []],
    [bytes('\ufeff'), ['invisible-code']],
    [bytes('\ue000\u200b\u3164'), ['invisible-code']],
    // Runs broken by visible characters (the first unit inside the test's string, so no comment): 64 of a payload's kinds in one line.
    [bytes('/*\u{e0100}*/'), ['invisible-payload']],
    [bytes("'\u{e0100}',"), ['invisible-payload']],
    ['\xf3\xa0', []],
    ['\xef', []],
    // Selectors and Private Use Area characters spread between letters, short runs on their own lines, text that takes a selector.
    [bytes('a\u{e0100}b\ue000'), ['invisible-payload']],
    [bytes(`${'\u{e0100}'.repeat(INVISIBLE_RUN - 1)}\n`), []],
    [bytes('\u845b\u{e0100}\u2269\ufe00'), []],
    // Bidirectional controls: left open, closed, nested without end, alone, a lead byte cut short.
    [bytes('\u202e'), ['trojan-source']],
    [bytes('\u2067a\u2069\u202bb\u202c'), []],
    [bytes('\u2066\u202a'), ['trojan-source']],
    [bytes('\u202c\u2069'), []],
    ['\xe2\x80', []],
  ];
  it('on runs of the units it reads, in chunks', { timeout: 120_000 }, ({ task }) => {
    for (const [unit, found] of units) {
      noteCases(task);
      expect(read(`x = '${unit.repeat(INVISIBLE_RUN * 4)}x';`, 1000), JSON.stringify(unit)).toEqual(found);
      expectLinear(task, JSON.stringify(unit), growth((k) => read(`x = '${unit.repeat(k)}x';`, 1000), 500, true));
    }
  });

  it('in an install script, read whole', { timeout: 120_000 }, ({ task }) => {
    const js = (text: string) => installCodeFindings({ files: [{ path: 'install.js', language: 'javascript', size: text.length, text, truncated: false }], missing: [], unread: [] });
    expect(js(`eval(s('${'\u{e0100}'.repeat(INVISIBLE_RUN)}'));`).suspicious).toContain('obfuscated');
    expect(js(`eval(s('${'a\u{e0100}'.repeat(INVISIBLE_PAYLOAD)}'));`).suspicious).toContain('obfuscated');
    expect(js(`if (a != 'user\u202e \u2066// admin\u2069 \u2066') x();`).suspicious).toContain('obfuscated');
    for (const unit of ['\u{e0100}', '\u2764\ufe0f', '\ufe0f'.repeat(INVISIBLE_RUN - 1) + ' ', 'a\u{e0100}', '\u202e', '\u2067a\u2069']) {
      noteCases(task);
      expectLinear(task, `install ${JSON.stringify(unit)}`, growth((k) => js(`eval(s('${unit.repeat(k)}'));`), 500, true));
    }
  });
});
