/**
 * Hostile world: a workspace pattern whose literal base is a symbolic link out of the audited
 * tree. A pull request commits `packages` as a link to `/` (or to a folder elsewhere on the
 * machine) and names `packages/**` as the workspaces: walking the pattern would list folders
 * outside the tree, eight levels deep from the filesystem's root (seconds to minutes, for every
 * audit of the branch). No manifest there is read (each must resolve inside the tree), but no
 * folder outside the tree is listed either (docs/security.md, "The audited tree is untrusted").
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { readInputs } from '../../src/audit/detect.js';
import { noteCases } from './support/metrics.js';

const listed = vi.hoisted(() => [] as string[]);
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const readdir = (async (dir: string, ...rest: unknown[]) => {
    listed.push(String(dir));
    return (real.readdir as (...args: unknown[]) => Promise<unknown>)(dir, ...rest);
  }) as typeof real.readdir;
  return { ...real, default: { ...real, readdir }, readdir };
});

let scratch: string;
let outside: string;

beforeAll(() => {
  scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'nerq-workspace-walk-')));
  outside = path.join(scratch, 'outside');
  mkdirSync(path.join(outside, 'a', 'b', 'c'), { recursive: true });
  writeFileSync(path.join(outside, 'a', 'package.json'), JSON.stringify({ name: 'outside-member', version: '1.0.0' }));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
beforeEach(() => {
  listed.length = 0;
});

/** A tree whose package.json names `patterns` as workspaces, with `packages` a link to `target` and one real member. */
function tree(name: string, target: string, patterns: string[]): string {
  const dir = path.join(scratch, name);
  mkdirSync(path.join(dir, 'apps', 'web'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'root', version: '1.0.0', private: true, workspaces: patterns }));
  writeFileSync(path.join(dir, 'apps', 'web', 'package.json'), JSON.stringify({ name: 'web', version: '1.0.0' }));
  symlinkSync(target, path.join(dir, 'packages'));
  return dir;
}

describe('hostile: a workspace pattern through a symbolic link out of the tree', () => {
  it.for([
    ['a link to a folder elsewhere', () => outside],
    ['a link to the filesystem root', () => path.parse(scratch).root],
  ] as const)('%s: nothing outside the tree is listed; the members inside still are', async ([, target], { task }) => {
    noteCases(task);
    const dir = tree(`t-${task.id}`, target(), ['packages/**', 'packages/*', 'apps/*']);
    const [input] = await readInputs(dir, ['package.json']);
    const outsideListed = listed.filter((p) => !path.resolve(p).startsWith(`${dir}${path.sep}`) && path.resolve(p) !== dir);
    expect(outsideListed).toEqual([]);
    expect(listed.filter((p) => path.resolve(p).startsWith(path.join(dir, 'packages')))).toEqual([]);
    // The real member inside is still found: its manifest is read beside the root one.
    expect(input?.dependencies.map((d) => d.name) ?? []).not.toContain('outside-member');
    expect(listed.some((p) => path.resolve(p) === path.join(dir, 'apps'))).toBe(true);
  });
});
