import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangedSinceError, changedSince } from '../../../src/audit/changed-since.js';
import { readInputs } from '../../../src/audit/detect.js';
import { foldDependencies } from '../../../src/audit/fold.js';
import { fixture } from './helpers.js';

let repo: string;
beforeEach(() => {
  repo = mkdtempSync(path.join(tmpdir(), 'nerq-changed-'));
});
afterEach(() => {
  rmSync(repo, { recursive: true, force: true });
});

const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: path.join(tmpdir(), 'nerq-no-gitconfig'), GIT_TERMINAL_PROMPT: '0' };
function git(...args: string[]): string {
  return execFileSync('git', ['-C', repo, '-c', 'user.name=nerq test', '-c', 'user.email=test@example.test', '-c', 'commit.gpgsign=false', ...args], {
    env: GIT_ENV,
    encoding: 'utf8',
  });
}
function write(relative: string, text: string): void {
  const full = path.join(repo, relative);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
}
function commit(message: string): string {
  git('add', '-A');
  git('commit', '-q', '-m', message);
  return git('rev-parse', 'HEAD').trim();
}

async function keptNames(ref: string, files: string[]): Promise<string[]> {
  const subjects = foldDependencies(await readInputs(repo, files), { direct: false, omitDev: false });
  const keep = await changedSince(repo, ref, files);
  return subjects.filter(keep).map((s) => `${s.name}@${s.version ?? s.spec}`);
}

describe('changedSince', () => {
  it('keeps only the packages added or changed since the revision', async () => {
    git('init', '-q');
    const lock = fixture('npm-v3/package-lock.json');
    write('package-lock.json', lock);
    write('package.json', fixture('npm-v3/package.json'));
    const base = commit('base');
    const changed = JSON.parse(lock) as { packages: Record<string, Record<string, unknown>> };
    changed.packages['node_modules/debug'] = { ...changed.packages['node_modules/debug'], version: '4.3.4' };
    changed.packages['node_modules/left-pad'] = { version: '1.3.0' };
    write('package-lock.json', JSON.stringify(changed, null, 2));
    expect(await keptNames(base, ['package-lock.json'])).toEqual(['debug@4.3.4', 'left-pad@1.3.0']);
    // Symbolic revisions work too, and an unchanged tree keeps nothing.
    commit('bump');
    expect(await keptNames('HEAD', ['package-lock.json'])).toEqual([]);
    expect(await keptNames('HEAD~1', ['package-lock.json'])).toEqual(['debug@4.3.4', 'left-pad@1.3.0']);
  });

  it('counts everything in a file that did not exist at the revision as new, and reads includes as they were', async () => {
    git('init', '-q');
    write('requirements.txt', '-r base.txt\nflask==3.0.0\n');
    write('base.txt', 'requests==2.31.0\n');
    const base = commit('base');
    write('base.txt', 'requests==2.32.0\n');
    write('sub/requirements-dev.txt', 'pytest==7.4.3\n');
    expect(await keptNames(base, ['requirements.txt', 'sub/requirements-dev.txt'])).toEqual(['pytest@7.4.3', 'requests@2.32.0']);
  });

  it('counts a file that cannot be parsed at the revision as absent', async () => {
    git('init', '-q');
    write('package.json', '{ "dependencies": { "a": "^1.0.0" ');
    const base = commit('broken');
    write('package.json', '{ "dependencies": { "a": "^1.0.0" } }');
    expect(await keptNames(base, ['package.json'])).toEqual(['a@^1.0.0']);
  });

  it('refuses an unknown revision, one that reads as an option, and a directory outside git', async () => {
    git('init', '-q');
    write('package.json', '{}');
    commit('base');
    await expect(changedSince(repo, 'no-such-branch', ['package.json'])).rejects.toThrow(new ChangedSinceError('--changed-since: "no-such-branch" is not a revision of this repository'));
    await expect(changedSince(repo, '--output=x', ['package.json'])).rejects.toThrow(new ChangedSinceError('--changed-since: "--output=x" is not a git revision'));
    const plain = mkdtempSync(path.join(tmpdir(), 'nerq-plain-'));
    try {
      await expect(changedSince(plain, 'HEAD', [])).rejects.toThrow(new ChangedSinceError('--changed-since: the audited directory is not in a git repository'));
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });
});
