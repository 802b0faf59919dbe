/**
 * The module readers (go.mod, Cargo.lock + Cargo.toml) on the recorded repositories' real files
 * (fixtures/github-repos/README.md) and on odd shapes. The figures on the real files were
 * counted independently of nerq: go.mod with grep (39 require lines, 22 of them `// indirect`),
 * Cargo.lock with Python's tomllib (189 [[package]] tables: 188 from crates.io, 1 without a
 * source — the project itself, with 23 dependencies; 4 reachable only through its `tempfile` dev-dependency:
 * tempfile, fastrand, rustix, linux-raw-sys). The odd shapes are written here, said so.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LockfileError } from '../../src/audit/types.js';
import { readCargoLock } from '../../src/lockfiles/cargo-lock.js';
import { readGoMod } from '../../src/lockfiles/go-mod.js';

const repo = (path: string) => readFileSync(new URL(`../../fixtures/http/github/repos/${path}`, import.meta.url), 'utf8');
const GO_MOD = repo('github/github-mcp-server/contents/go.mod');
const CARGO_LOCK = repo('rust-mcp-stack/rust-mcp-filesystem/contents/Cargo.lock');
const CARGO_TOML = repo('rust-mcp-stack/rust-mcp-filesystem/contents/Cargo.toml');

const real = (path: string) => readFileSync(new URL(`../../fixtures/lockfiles/real/${path}`, import.meta.url), 'utf8');

describe('go.mod', () => {
  it("reads mark3labs/mcp-go's otel submodule: the module it requires from its own repository is replaced by the local directory ../ (unvouched, not asked)", () => {
    // Counted with grep: 8 direct requires, 15 `// indirect`; one `replace github.com/mark3labs/mcp-go => ../`.
    const input = readGoMod(real('mark3labs__mcp-go/otel/go.mod'), 'otel/go.mod');
    expect(input.dependencies).toHaveLength(22);
    expect(input.dependencies.filter((d) => d.direct)).toHaveLength(7);
    expect(input.dependencies.some((d) => d.name === 'github.com/mark3labs/mcp-go')).toBe(false);
    expect(input.unvouched).toEqual([expect.stringMatching(/^otel\/go\.mod:34: "github\.com\/mark3labs\/mcp-go@v0\.53\.0" skipped: replaced by the local directory "\.\.\/"/)]);
    const root = readGoMod(real('mark3labs__mcp-go/go.mod'), 'go.mod');
    expect(root.dependencies.map((d) => d.direct)).toEqual([...Array<boolean>(7).fill(true), ...Array<boolean>(6).fill(false)]);
  });


  it("reads github-mcp-server's requires at their exact versions, direct and indirect", () => {
    const input = readGoMod(GO_MOD, 'go.mod');
    expect(input.format).toBe('go.mod (github.com/github/github-mcp-server)');
    expect(input.dependencies).toHaveLength(39);
    expect(input.dependencies.filter((d) => d.direct)).toHaveLength(17);
    expect(input.notes).toEqual([]);
    expect(input.unvouched).toEqual([]);
    // A pseudo-version is a version as written, with its line.
    expect(input.dependencies.find((d) => d.name === 'github.com/google/go-github/v89')).toEqual({
      ecosystem: 'go',
      name: 'github.com/google/go-github/v89',
      version: 'v89.0.1-0.20260728185857-34349a88bac3',
      direct: true,
      dev: false,
      via: [],
      file: 'go.mod',
      line: 8,
    });
    const indirect = input.dependencies.find((d) => d.name === 'golang.org/x/net');
    expect(indirect).toMatchObject({ version: 'v0.55.0', direct: false });
    expect(indirect?.via).toBeUndefined();
  });

  it('applies replace directives: module → module builds the replacement, a local directory is unvouched (synthetic go.mod)', () => {
    const text = [
      'module example.com/m',
      'go 1.22',
      'toolchain go1.22.3',
      'require (',
      '\texample.com/a v1.2.3',
      '\texample.com/b v0.0.0-20230722043721-ed46e5a46466 // indirect',
      '\t"example.com/c" v2.0.0+incompatible',
      '\texample.com/d v1.0.0',
      ')',
      'require example.com/e v1.0.0 // indirect; used by tests',
      'replace example.com/a => example.com/fork/a v1.2.4',
      'replace (',
      '\texample.com/d v1.0.0 => ../d',
      '\texample.com/e v9.9.9 => example.com/never v1.0.0',
      ')',
      'exclude example.com/a v1.2.2',
      'retract [v1.0.0, v1.0.5]',
      'godebug default=go1.21',
    ].join('\n');
    const input = readGoMod(text, 'sub/go.mod');
    expect(input.dependencies.map((d) => [d.name, d.version, d.direct])).toEqual([
      ['example.com/fork/a', 'v1.2.4', true],
      ['example.com/b', 'v0.0.0-20230722043721-ed46e5a46466', false],
      ['example.com/c', 'v2.0.0+incompatible', true],
      // A replace of another version does not apply.
      ['example.com/e', 'v1.0.0', false],
    ]);
    expect(input.dependencies[0]?.line).toBe(11);
    expect(input.unvouched).toHaveLength(1);
    expect(input.unvouched[0]).toMatch(/^sub\/go\.mod:13: "example\.com\/d@v1\.0\.0" skipped: replaced by the local directory "\.\.\/d"/);
    expect(input.notes).toEqual([]);
  });

  it('skips malformed lines with a note and never invents a version (synthetic go.mod)', () => {
    const text = [
      'module example.com/m',
      'require example.com/a',
      'require example.com/b 1.2.3',
      'require example.com/ok v1.0.0',
      'require "example.com/unterminated v1.0.0',
      'frobnicate example.com/x v1.0.0',
      'replace example.com/ok =>',
      'require (',
      '\tnot a require line at all',
      '\texample.com/last v0.1.0',
    ].join('\n');
    const input = readGoMod(text, 'go.mod');
    expect(input.dependencies.map((d) => `${d.name}@${d.version}`)).toEqual(['example.com/ok@v1.0.0', 'example.com/last@v0.1.0']);
    expect(input.notes.map((n) => n.split(':')[1])).toEqual(['2', '3', '5', '6', '7', '9', ' a require block is not closed']);
  });

  it('reads a file of binary noise as nothing, without throwing', () => {
    const noise = Array.from({ length: 2000 }, (_, i) => String.fromCharCode((i * 7919) % 65_536)).join('');
    const input = readGoMod(noise, 'go.mod');
    expect(input.dependencies).toEqual([]);
  });
});

describe('Cargo.lock', () => {
  it("reads rust-mcp-filesystem's crates.io packages; the project itself is not a dependency; its dev-dependency's tree is dev", () => {
    const input = readCargoLock(CARGO_LOCK, 'Cargo.lock', { 'Cargo.toml': CARGO_TOML });
    expect(input.format).toBe('Cargo.lock@4');
    expect(input.dependencies).toHaveLength(188);
    expect(input.dependencies.some((d) => d.name === 'rust-mcp-filesystem')).toBe(false);
    expect(input.dependencies.filter((d) => d.direct)).toHaveLength(23);
    expect(input.dependencies.filter((d) => d.dev).map((d) => d.name).sort()).toEqual(['fastrand', 'linux-raw-sys', 'rustix', 'tempfile']);
    expect(input.dependencies.find((d) => d.name === 'tokio')).toMatchObject({ ecosystem: 'cargo', version: '1.53.1', direct: true, dev: false, via: [] });
    const memchr = input.dependencies.find((d) => d.name === 'memchr');
    expect(memchr?.direct).toBe(false);
    expect(memchr?.via?.length).toBeGreaterThan(0);
    expect(input.unvouched).toEqual([]);
    expect(input.notes).toEqual([]);
  });

  it("reads astral-sh/uv's workspace lock: its 70 member crates are the project's own code, the 683 crates.io packages the set", () => {
    // Counted with Python's tomllib: 753 [[package]] tables, 70 without a source, 683 from
    // crates.io, 166 distinct crates.io packages a member depends on. The root Cargo.toml is a
    // virtual workspace (no [package]): nothing can be told dev from it.
    const input = readCargoLock(real('astral-sh__uv/Cargo.lock'), 'Cargo.lock', { 'Cargo.toml': real('astral-sh__uv/Cargo.toml') });
    expect(input.dependencies).toHaveLength(683);
    expect(input.dependencies.filter((d) => d.direct)).toHaveLength(166);
    expect(input.dependencies.some((d) => d.name === 'uv' || d.name.startsWith('uv-'))).toBe(false);
    expect(input.dependencies.filter((d) => d.dev)).toEqual([]);
    expect(input.unvouched).toEqual([]);
    expect(input.notes).toEqual([]);
  });

  it('without the Cargo.toml nothing is made dev', () => {
    const input = readCargoLock(CARGO_LOCK, 'Cargo.lock');
    expect(input.dependencies.filter((d) => d.dev)).toEqual([]);
  });

  it('lists git and other-registry sources as unvouched, keeps workspace members out, skips malformed packages (synthetic v3 lock)', () => {
    const text = [
      'version = 3',
      '[[package]]',
      'name = "app"',
      'version = "0.1.0"',
      'dependencies = ["core", "serde 1.0.1", "gitdep", "private", "helper"]',
      '[[package]]',
      'name = "core"',
      'version = "0.1.0"',
      'dependencies = ["serde 1.0.1 (registry+https://github.com/rust-lang/crates.io-index)"]',
      '[[package]]',
      'name = "serde"',
      'version = "1.0.1"',
      'source = "registry+https://github.com/rust-lang/crates.io-index"',
      '[[package]]',
      'name = "serde"',
      'version = "0.9.0"',
      'source = "sparse+https://index.crates.io/"',
      '[[package]]',
      'name = "gitdep"',
      'version = "0.3.0"',
      'source = "git+https://github.com/o/gitdep?branch=main#0123abc"',
      '[[package]]',
      'name = "private"',
      'version = "1.0.0"',
      'source = "registry+https://my.registry.example/index"',
      '[[package]]',
      'name = "helper"',
      'version = 7',
      '[[package]]',
      'name = "odd"',
      'version = "not-a-version"',
      'source = "registry+https://github.com/rust-lang/crates.io-index"',
    ].join('\n');
    const input = readCargoLock(text, 'Cargo.lock');
    expect(input.format).toBe('Cargo.lock@3');
    expect(input.dependencies.map((d) => `${d.name}@${d.version}:${d.direct}`)).toEqual(['serde@1.0.1:true', 'serde@0.9.0:false']);
    expect(input.unvouched).toHaveLength(2);
    expect(input.unvouched[0]).toContain('"gitdep@0.3.0" skipped: from a git repository');
    // The query and fragment of a git source (a branch, a commit) are not repeated.
    expect(input.unvouched[0]).not.toContain('#0123abc');
    expect(input.unvouched[1]).toContain('"private@1.0.0" skipped: from a registry other than crates.io');
    expect(input.notes).toHaveLength(2);
    expect(input.notes[0]).toMatch(/^Cargo\.lock:\d+: a \[\[package\]\] skipped/);
    expect(input.notes[1]).toContain('"odd" skipped');
  });

  it('reads a v1 lock (no version key, dependencies with sources)', () => {
    const text = [
      '[[package]]',
      'name = "app"',
      'version = "0.1.0"',
      'dependencies = [',
      ' "libc 0.2.40 (registry+https://github.com/rust-lang/crates.io-index)",',
      ']',
      '',
      '[[package]]',
      'name = "libc"',
      'version = "0.2.40"',
      'source = "registry+https://github.com/rust-lang/crates.io-index"',
      '',
      '[metadata]',
      '"checksum libc 0.2.40 (registry+https://github.com/rust-lang/crates.io-index)" = "6fd41f331ac7c5b8ac259b8bf82c75c0fb2e469bbf37d2becbba9a6a2221965b"',
    ].join('\n');
    const input = readCargoLock(text, 'Cargo.lock');
    expect(input.format).toBe('Cargo.lock');
    expect(input.dependencies).toEqual([{ ecosystem: 'cargo', name: 'libc', version: '0.2.40', direct: true, dev: false, via: [], file: 'Cargo.lock', line: 9 }]);
  });

  it('throws a LockfileError for what is not a lockfile', () => {
    expect(() => readCargoLock('[[package]\nname = ', 'Cargo.lock')).toThrow(LockfileError);
    expect(() => readCargoLock('package = "x"', 'Cargo.lock')).toThrow(LockfileError);
  });
});
