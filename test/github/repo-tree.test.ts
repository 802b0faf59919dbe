/** Which files of a repository's tree matter (pure): another ecosystem's manifests are listed, never read. */
import { describe, expect, it } from 'vitest';
import { selectRepoFiles, type RepoTreeItem } from '../../src/sources/github/repo-tree.js';

const blob = (path: string): RepoTreeItem => ({ path, type: 'blob', size: 100 });

describe('selectRepoFiles', () => {
  it('names the manifests of ecosystems nerq does not evaluate, in published folders only, without reading them', () => {
    const selection = selectRepoFiles(['go.mod', 'go.sum', 'ui/package.json', 'ui/package-lock.json', 'crates/core/Cargo.toml', 'e2e/go.mod', 'examples/demo/Gemfile', 'third-party/x/go.mod', 'README.md'].map(blob));
    expect(selection.unevaluated).toEqual([
      { path: 'go.mod', ecosystem: 'Go' },
      { path: 'crates/core/Cargo.toml', ecosystem: 'crates.io' },
    ]);
    expect(selection.manifests.map((m) => m.path)).toEqual(['ui/package.json']);
    expect(selection.lockfiles).toEqual(['ui/package-lock.json']);
  });

  it('a root requirements file is selected with no manifest beside it; one in a sub-folder is not', () => {
    const selection = selectRepoFiles(['requirements.txt', 'server.py', 'scripts/requirements.txt', 'README.md'].map(blob));
    expect(selection.manifests).toEqual([]);
    expect(selection.lockfiles).toEqual(['requirements.txt']);
  });

  it('none in an npm-only tree', () => {
    expect(selectRepoFiles(['package.json', 'package-lock.json'].map(blob)).unevaluated).toEqual([]);
  });
});
