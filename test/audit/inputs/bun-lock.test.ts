import { describe, expect, it } from 'vitest';
import { readBunLock } from '../../../src/lockfiles/index.js';
import { find, fixture, lineOf, lockfileErrorOf, only, readFixture } from './helpers.js';

describe('bun.lock', () => {
  it('puts each package at its key under "packages"', () => {
    const text = fixture('bun/bun.lock');
    const input = readFixture('bun', 'bun.lock');
    for (const d of input.dependencies) expect(d.line).toBe(lineOf(text, `"${d.name}": ["${d.name}@`));
  });

  const lock = `{
  // bun writes no comments, but the format is JSONC
  "lockfileVersion": 1,
  "workspaces": {
    "": {
      "name": "root",
      "devDependencies": { "tool": "^1.0.0", },
    },
    "packages/web": {
      "name": "@acme/web",
      "dependencies": { "@acme/ui": "workspace:*", "react": "^17.0.0", "debug": "^4", "fork": "github:someone/fork", },
    },
    "packages/ui": {
      "name": "@acme/ui",
      "dependencies": { "react": "^18.0.0", },
    },
  },
  "packages": {
    "@acme/ui": ["@acme/ui@workspace:packages/ui"],
    "@acme/web": ["@acme/web@workspace:packages/web"],
    "@acme/web/react": ["react@17.0.2", "", { "dependencies": { "loose-envify": "^1.1.0" } }, "sha512-a"],
    "debug": ["debug@4.3.4", "https://private.example.test/debug/-/debug-4.3.4.tgz", { "dependencies": { "ms": "2.1.2" } }, "sha512-b"],
    "debug/ms": ["ms@2.1.2", "", {}, "sha512-c"],
    "fork": ["fork@github:someone/fork#0123456", {}, "someone-fork-0123456"],
    "loose-envify": ["loose-envify@1.4.0", "", {}, "sha512-d"],
    "ms": ["ms@2.0.0", "", {}, "sha512-e"],
    "react": ["react@18.2.0", "", { "dependencies": { "loose-envify": "^1.1.0" } }, "sha512-f"],
    "tool": ["tool@1.0.0", "", { "dependencies": { "ms": "2.0.0" } }, "sha512-g"],
  },
}
`;

  it("resolves a workspace's own copy under its package name, nested copies under their parent, and skips workspaces and git", () => {
    const input = readBunLock(lock, 'bun.lock');
    expect(only(input, 'react', '17.0.2')).toMatchObject({ direct: true, workspace: 'packages/web', file: 'packages/web/package.json' });
    expect(only(input, 'react', '18.2.0')).toMatchObject({ direct: true, workspace: 'packages/ui' });
    expect(only(input, 'ms', '2.1.2')).toMatchObject({ direct: false, dev: false, line: lineOf(lock, '"debug/ms"') });
    expect(only(input, 'ms', '2.0.0')).toMatchObject({ direct: false, dev: true });
    expect(only(input, 'tool')).toMatchObject({ direct: true, dev: true, workspace: '.' });
    expect(only(input, 'debug').resolved).toBe('https://private.example.test/debug/-/debug-4.3.4.tgz');
    expect(find(input, '@acme/ui')).toEqual([]);
    expect(find(input, 'fork')).toEqual([]);
    expect(input.notes).toEqual([`bun.lock:${lineOf(lock, '"fork": [')}: "fork" skipped: not a registry package`]);
  });

  it('reports a package entry that is not a list at its line', () => {
    const broken = lock.replace('"ms": ["ms@2.0.0", "", {}, "sha512-e"]', '"ms": "ms@2.0.0"');
    expect(lockfileErrorOf(() => readBunLock(broken, 'bun.lock')).line).toBe(lineOf(broken, '"ms": "ms@2.0.0"'));
  });
});
