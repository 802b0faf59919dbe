/**
 * The requirements a Cargo.toml declares when no Cargo.lock pins them (lockfiles/cargo-manifest.ts):
 * every dependency table, renames undone, `workspace = true` from the workspace root, and the
 * declarations no crates.io requirement describes (path, git, another registry) named, not resolved.
 */
import { describe, expect, it } from 'vitest';
import { readCargoManifest } from '../../src/lockfiles/cargo-manifest.js';
import { LockfileError } from '../../src/audit/types.js';

const ROOT = `[workspace]
members = ["crates/a"]

[workspace.dependencies]
serde = { version = "1.0.100", features = ["derive"] }
tokio = "1.40"
local = { path = "crates/local" }
`;

const MEMBER = `[package]
name = "a"

[dependencies]
serde = { workspace = true, features = ["rc"] }
tokio = { workspace = true }
local = { workspace = true }
anyhow = "1"
json = { package = "serde_json", version = "^1.0.120" }
fork = { git = "https://user:secret@github.com/someone/fork?branch=x", version = "0.3" }
mine = { path = "../mine", version = "0.1" }
private = { version = "2", registry = "company" }
nothing = { features = ["x"] }
missing = { workspace = true }

[build-dependencies]
cc = "1.0"

[dev-dependencies]
tempfile = "3.8"
anyhow = "1"

[target.'cfg(windows)'.dependencies]
windows-sys = { version = "0.59" }

[target.'cfg(unix)'.dev-dependencies]
nix = "0.29"

[dev_dependencies]
old-spelling = "0.1"
`;

describe('readCargoManifest', () => {
  it('reads every dependency table, undoes renames and takes workspace = true from the root', () => {
    const root = readCargoManifest(ROOT, 'Cargo.toml');
    expect(root.dependencies).toEqual([]);
    const member = readCargoManifest(MEMBER, 'crates/a/Cargo.toml', root.workspaceDependencies);
    expect(member.dependencies).toEqual([
      { name: 'serde', requirement: '1.0.100', dev: false },
      { name: 'tokio', requirement: '1.40', dev: false },
      { name: 'anyhow', requirement: '1', dev: false },
      { name: 'serde_json', requirement: '^1.0.120', dev: false },
      { name: 'cc', requirement: '1.0', dev: false },
      { name: 'tempfile', requirement: '3.8', dev: true },
      { name: 'anyhow', requirement: '1', dev: true },
      { name: 'old-spelling', requirement: '0.1', dev: true },
      { name: 'windows-sys', requirement: '0.59', dev: false },
      { name: 'nix', requirement: '0.29', dev: true },
    ]);
  });

  it('names path, git and other-registry dependencies (credentials and query dropped), never resolves them', () => {
    const root = readCargoManifest(ROOT, 'Cargo.toml');
    const member = readCargoManifest(MEMBER, 'crates/a/Cargo.toml', root.workspaceDependencies);
    expect(member.unvouched).toEqual([
      'crates/a/Cargo.toml: "local" skipped: a local path ("crates/local", from the workspace root), not resolved',
      'crates/a/Cargo.toml: "fork" skipped: from a git repository ("https://github.com/someone/fork"), not resolved',
      'crates/a/Cargo.toml: "mine" skipped: a local path ("../mine"), not resolved',
      'crates/a/Cargo.toml: "private" skipped: from a registry other than crates.io, not resolved',
    ]);
    expect(member.notes).toEqual([
      'crates/a/Cargo.toml: "nothing" skipped: no version requirement',
      'crates/a/Cargo.toml: "missing" skipped: inherited from a workspace whose [workspace.dependencies] was not read or does not name it',
    ]);
  });

  it('without the workspace root, inherited dependencies are named, not guessed', () => {
    const member = readCargoManifest(MEMBER, 'crates/a/Cargo.toml');
    expect(member.dependencies.map((d) => d.name)).not.toContain('serde');
    expect(member.notes.filter((n) => n.includes('inherited from a workspace'))).toHaveLength(4);
  });

  it('a root manifest with its own package reads its own [workspace.dependencies]', () => {
    const both = readCargoManifest('[package]\nname = "x"\n[workspace.dependencies]\nrand = "0.8"\n[dependencies]\nrand = { workspace = true }\n', 'Cargo.toml');
    expect(both.dependencies).toEqual([{ name: 'rand', requirement: '0.8', dev: false }]);
  });

  it('a file that is not TOML throws a LockfileError', () => {
    expect(() => readCargoManifest('[dependencies\nserde = ', 'Cargo.toml')).toThrow(LockfileError);
  });
});
