/**
 * The link verifier's view of a repository already read (tree-file-source.ts): folders listed from
 * the tree, texts already read served without a request, a path the tree lacks missing without a
 * request, and at most the budget of other files asked of GitHub.
 */
import { describe, expect, it } from 'vitest';
import type { DirRead, FileRead, RepoFileSource } from '../../src/sources/github/link.js';
import { alreadyReadFileSource } from '../../src/sources/github/tree-file-source.js';

const TREE = [
  { path: 'package.json', type: 'blob' as const, size: 100 },
  { path: 'packages', type: 'tree' as const, size: null },
  { path: 'packages/a', type: 'tree' as const, size: null },
  { path: 'packages/a/package.json', type: 'blob' as const, size: 50 },
  { path: 'packages/b', type: 'tree' as const, size: null },
  { path: 'packages/b/package.json', type: 'blob' as const, size: 50 },
  { path: 'packages/c', type: 'tree' as const, size: null },
  { path: 'packages/c/package.json', type: 'blob' as const, size: 50 },
];

/** A REST source that records what it is asked. */
function recordingRest(): RepoFileSource & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    rootEntries: null,
    async read(paths) {
      asked.push(...paths);
      return new Map(paths.map((p): [string, FileRead] => [p, { kind: 'file', text: `{"name":"${p}"}` }]));
    },
    async list(dirs) {
      asked.push(...dirs.map((d) => `list:${d}`));
      return new Map(dirs.map((d): [string, DirRead] => [d, { kind: 'missing' }]));
    },
  };
}

describe('alreadyReadFileSource', () => {
  const texts = new Map([['package.json', '{"name":"root"}']]);

  it('lists folders from the tree and serves texts already read, with no request', async () => {
    const rest = recordingRest();
    const files = alreadyReadFileSource({ tree: TREE, truncated: false, texts }, rest);
    expect(files.rootEntries).toEqual([
      { path: 'package.json', type: 'file' },
      { path: 'packages', type: 'dir' },
    ]);
    const listed = await files.list(['packages', 'nowhere']);
    expect(listed.get('packages')).toEqual({ kind: 'dir', entries: ['a', 'b', 'c'].map((n) => ({ path: n, type: 'dir' })) });
    expect(listed.get('nowhere')).toEqual({ kind: 'missing' });
    const read = await files.read(['package.json', 'setup.py']);
    expect(read.get('package.json')).toEqual({ kind: 'file', text: '{"name":"root"}' });
    expect(read.get('setup.py')).toEqual({ kind: 'missing' });
    expect(rest.asked).toEqual([]);
  });

  it('asks GitHub for files the tree lists and nobody read, at most the budget over every call', async () => {
    const rest = recordingRest();
    const files = alreadyReadFileSource({ tree: TREE, truncated: false, texts }, rest, 2);
    const first = await files.read(['packages/a/package.json']);
    const second = await files.read(['packages/b/package.json', 'packages/c/package.json']);
    expect(first.get('packages/a/package.json')?.kind).toBe('file');
    expect(second.get('packages/b/package.json')?.kind).toBe('file');
    expect(second.get('packages/c/package.json')).toMatchObject({ kind: 'error', reason: expect.stringMatching(/^not read: at most 2 /) });
    expect(rest.asked).toEqual(['packages/a/package.json', 'packages/b/package.json']);
  });

  it('a truncated tree cannot say what is missing: every question goes to GitHub', async () => {
    const rest = recordingRest();
    const files = alreadyReadFileSource({ tree: TREE, truncated: true, texts }, rest);
    expect(files).toBe(rest);
  });
});
