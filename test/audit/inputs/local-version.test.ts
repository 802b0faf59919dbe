/**
 * A PyPI pin with a PEP 440 local version label (`torch==2.3.0+cu121`) is never a PyPI release
 * (PEP 440: public index servers must not accept local versions): every reader reports it as an
 * entry no registry vouches for, from the index the input names, never as the PyPI release of
 * that name. The inputs below are hand-written in the shapes uv, Poetry, pip and CycloneDX write
 * (the entries PyTorch's CUDA index gives); no real lockfile with such a pin is recorded.
 */
import { describe, expect, it } from 'vitest';
import { localLabel } from '../../../src/lockfiles/local-version.js';
import { readCycloneDx, readPoetryLock, readPyproject, readRequirements, readUvLock } from '../../../src/lockfiles/index.js';
import type { ParsedInput } from '../../../src/lockfiles/types.js';

const INDEX = 'https://download.pytorch.org/whl/cu121';

const UV_LOCK = `version = 1
requires-python = ">=3.10"

[[package]]
name = "app"
version = "0.1.0"
source = { editable = "." }
dependencies = [
    { name = "numpy" },
    { name = "torch" },
]

[[package]]
name = "numpy"
version = "1.26.4"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "torch"
version = "2.3.0+cu121"
source = { registry = "${INDEX}" }
dependencies = [
    { name = "numpy" },
]
`;

const POETRY_LOCK = `[[package]]
name = "torch"
version = "2.3.0+cu121"
description = "Tensors and Dynamic neural networks in Python with strong GPU acceleration"
optional = false
python-versions = ">=3.8.0"
files = []

[package.source]
type = "legacy"
url = "${INDEX}"
reference = "pytorch-gpu"

[[package]]
name = "requests"
version = "2.31.0"
description = "Python HTTP for Humans."
optional = false
python-versions = ">=3.7"
files = []

[metadata]
lock-version = "2.0"
python-versions = "^3.10"
content-hash = "0"
`;

const pinned = (input: ParsedInput) => input.dependencies.map((d) => `${d.name}==${d.version ?? ''}`).sort();
const remotes = (input: ParsedInput) => (input.skipped ?? []).map((s) => ({ kind: s.kind, name: s.name, line: s.line, source: s.source, host: s.host }));

describe('PEP 440 local versions are not PyPI releases', () => {
  it('reads the local label with the PEP 440 parser, and only there', () => {
    expect(localLabel('2.3.0+cu121')).toBe('cu121');
    expect(localLabel('1.0+ubuntu.1')).toBe('ubuntu.1');
    expect(localLabel('2.3.0')).toBeNull();
    expect(localLabel('2.3.0.post1')).toBeNull();
    expect(localLabel('not a version')).toBeNull();
  });

  it("uv.lock: the pin (at its `name` line) is a remote entry from the index uv names, not a package to score; the rest is read as before", () => {
    const input = readUvLock(UV_LOCK, 'uv.lock');
    expect(pinned(input)).toEqual(['numpy==1.26.4']);
    expect(remotes(input)).toEqual([{ kind: 'remote', name: 'torch', line: 19, source: INDEX, host: 'download.pytorch.org' }]);
    expect(input.skipped?.[0]).toMatchObject({ direct: true, dev: false });
    expect(input.notes.filter((n) => n.startsWith('uv.lock:19: "torch==2.3.0+cu121" skipped'))).toHaveLength(1);
  });

  it('poetry.lock: the same, from its legacy source', () => {
    const input = readPoetryLock(POETRY_LOCK, 'poetry.lock');
    expect(pinned(input)).toEqual(['requests==2.31.0']);
    expect(remotes(input)).toEqual([{ kind: 'remote', name: 'torch', line: 2, source: INDEX, host: 'download.pytorch.org' }]);
  });

  it('requirements.txt: a pin with an extra index in effect names that index as its source', () => {
    const input = readRequirements(`--extra-index-url ${INDEX}\ntorch==2.3.0+cu121\ntorchvision==0.18.0\n`, 'requirements.txt');
    expect(pinned(input)).toEqual(['torchvision==0.18.0']);
    expect(remotes(input)).toEqual([{ kind: 'remote', name: 'torch', line: 2, source: INDEX, host: 'download.pytorch.org' }]);
  });

  it('requirements.txt: a pin with no index named names itself as its source', () => {
    const input = readRequirements(`torch==2.3.0+cu121\n`, 'requirements.txt');
    expect(remotes(input)).toEqual([{ kind: 'remote', name: 'torch', line: 1, source: 'torch==2.3.0+cu121', host: null }]);
  });

  it('pyproject.toml: an exact `==` with a local label can only be that local build; a range without one is read as before', () => {
    const input = readPyproject('[project]\nname = "app"\nversion = "0.1.0"\ndependencies = [\n  "torch==2.3.0+cu121",\n  "numpy>=1.26",\n]\n', 'pyproject.toml');
    expect(input.dependencies.map((d) => `${d.name}${d.spec ?? ''}`)).toEqual(['numpy>=1.26']);
    expect(remotes(input)).toEqual([{ kind: 'remote', name: 'torch', line: 5, source: 'torch==2.3.0+cu121', host: null }]);
  });

  it('a CycloneDX SBOM component with a local version: the same', () => {
    const sbom = JSON.stringify({
      bomFormat: 'CycloneDX',
      specVersion: '1.5',
      components: [
        { type: 'library', name: 'torch', version: '2.3.0+cu121', purl: 'pkg:pypi/torch@2.3.0%2Bcu121' },
        { type: 'library', name: 'numpy', version: '1.26.4', purl: 'pkg:pypi/numpy@1.26.4' },
      ],
    });
    const input = readCycloneDx(sbom, 'bom.json');
    expect(pinned(input)).toEqual(['numpy==1.26.4']);
    expect(remotes(input).map((r) => [r.kind, r.name])).toEqual([['remote', 'torch']]);
  });
});
