import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPolicy, PolicyError } from '../../../src/audit/policy.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'nerq-policy-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Write files under the temporary root (objects as JSON); returns the root-relative path joined. */
async function files(tree: Record<string, unknown>): Promise<void> {
  for (const [rel, content] of Object.entries(tree)) {
    const file = path.join(root, rel);
    await mkdir(path.dirname(file), { recursive: true });
    if (rel.endsWith('/')) await mkdir(file, { recursive: true });
    else await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
}

const at = (...parts: string[]) => path.join(root, ...parts);

async function policyErrorOf(promise: Promise<unknown>): Promise<PolicyError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PolicyError);
  return error as PolicyError;
}

describe('loadPolicy discovery', () => {
  it('reads .nerqrc.json in the audited directory', async () => {
    await files({ 'repo/.git/': null, 'repo/.nerqrc.json': { minScore: 70 } });
    const loaded = await loadPolicy(at('repo'));
    expect(loaded.source).toBe('.nerqrc.json');
    expect(loaded.policy).toMatchObject({ minScore: 70, source: '.nerqrc.json' });
  });

  it('walks up to the repository root', async () => {
    await files({ 'repo/.git/': null, 'repo/.nerqrc.json': { minScore: 65 }, 'repo/packages/app/package.json': { name: 'app' } });
    const loaded = await loadPolicy(at('repo', 'packages', 'app'));
    expect(loaded.source).toBe('../../.nerqrc.json');
    expect(loaded.policy?.minScore).toBe(65);
  });

  it('stops at the repository root: a policy above it is not used', async () => {
    await files({ '.nerqrc.json': { minScore: 99 }, 'repo/.git/': null, 'repo/app/package.json': { name: 'app' } });
    expect(await loadPolicy(at('repo', 'app'))).toEqual({ policy: null, source: null });
  });

  it('a .git file (worktree, submodule) marks the repository root too', async () => {
    await files({ '.nerqrc.json': { minScore: 99 }, 'repo/.git': 'gitdir: ../elsewhere\n', 'repo/app/': null });
    expect((await loadPolicy(at('repo', 'app'))).policy).toBeNull();
  });

  it('reads the "nerq" key of package.json', async () => {
    await files({ 'repo/.git/': null, 'repo/package.json': { name: 'x', nerq: { minScore: 55, failOn: 'no' } } });
    const loaded = await loadPolicy(at('repo'));
    expect(loaded.source).toBe('package.json#nerq');
    expect(loaded.policy).toMatchObject({ minScore: 55, failOn: 'no' });
  });

  it('a package.json without "nerq" does not stop the search', async () => {
    await files({ 'repo/.git/': null, 'repo/package.json': { name: 'root', nerq: { minScore: 58 } }, 'repo/app/package.json': { name: 'app' } });
    const loaded = await loadPolicy(at('repo', 'app'));
    expect(loaded.source).toBe('../package.json#nerq');
    expect(loaded.policy?.minScore).toBe(58);
  });

  it('.nerqrc.json wins over package.json in the same directory; the nearest directory wins overall', async () => {
    await files({
      'repo/.git/': null,
      'repo/.nerqrc.json': { minScore: 10 },
      'repo/app/.nerqrc.json': { minScore: 20 },
      'repo/app/package.json': { name: 'app', nerq: { minScore: 30 } },
    });
    expect((await loadPolicy(at('repo', 'app'))).policy?.minScore).toBe(20);
  });

  it('a malformed discovered policy names the file and key', async () => {
    await files({ 'repo/.git/': null, 'repo/package.json': { name: 'x', nerq: { ignore: [{ package: 'a' }] } } });
    const error = await policyErrorOf(loadPolicy(at('repo')));
    expect(error.message).toBe('package.json: nerq.ignore[0].reason: required');
  });

  it('invalid JSON names the file, line and column', async () => {
    await files({ 'repo/.git/': null, 'repo/.nerqrc.json': '{\n  "minScore": 50,\n  oops\n}\n' });
    const error = await policyErrorOf(loadPolicy(at('repo')));
    expect(error.message).toMatch(/^\.nerqrc\.json: invalid JSON at line 3 column \d+$/);
  });
});

describe('loadPolicy with --policy', () => {
  it('reads the named file, even outside the repository', async () => {
    await files({ 'policies/strict.json': { minScore: 80 }, 'repo/.git/': null, 'repo/.nerqrc.json': { minScore: 1 } });
    const loaded = await loadPolicy(at('repo'), at('policies', 'strict.json'));
    expect(loaded.policy?.minScore).toBe(80);
    expect(loaded.source).toBe(at('policies', 'strict.json').split(path.sep).join('/'));
  });

  it('reads the "nerq" key of a named package.json', async () => {
    await files({ 'other/package.json': { nerq: { minCoverage: 0.9 } } });
    expect((await loadPolicy(at('repo'), at('other', 'package.json'))).policy?.minCoverage).toBe(0.9);
  });

  it('a named package.json without "nerq" is an error', async () => {
    await files({ 'other/package.json': { name: 'x' } });
    const error = await policyErrorOf(loadPolicy(at('repo'), at('other', 'package.json')));
    expect(error.message).toMatch(/package\.json: nerq: required: the file has no "nerq" key$/);
  });

  it('a missing file is an error naming it', async () => {
    const error = await policyErrorOf(loadPolicy(root, 'no-such-policy.json'));
    expect(error.message).toBe('no-such-policy.json: no such file');
  });

  it('a directory is not a policy file', async () => {
    await files({ 'adir/': null });
    const error = await policyErrorOf(loadPolicy(root, at('adir')));
    expect(error.message).toMatch(/adir: not a regular file$/);
  });
});
