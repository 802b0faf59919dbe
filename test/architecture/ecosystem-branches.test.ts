/**
 * Outside an ecosystem's own code (src/ecosystems/, src/lockfiles/), a decision that differs per
 * package ecosystem is an exhaustive table or a `switch` with a `never` check, never a two-way
 * test that sends every ecosystem but one into the other's branch: so a new ecosystem fails to
 * compile until it is answered (docs/architecture.md, "Add an ecosystem"). One-way tests for a
 * feature of one registry (npm's bulk advisories, its scopes) stay allowed.
 */
import { describe, expect, it } from 'vitest';
import { readTree } from './layers.js';

const ECOSYSTEM = `'(?:npm|pypi)'`;
/** `ecosystem === 'npm' ? …`, `x !== 'npm' && x !== 'pypi'`, `x === 'npm' || x === 'pypi'`. */
const TWO_WAY = [
  new RegExp(`[Ee]cosystem\\s*[!=]==\\s*${ECOSYSTEM}\\s*\\?`),
  new RegExp(`[Ee]cosystem\\s*!==\\s*${ECOSYSTEM}\\s*&&\\s*[\\w.?]*[Ee]cosystem\\s*!==\\s*${ECOSYSTEM}`),
  new RegExp(`[Ee]cosystem\\s*===\\s*${ECOSYSTEM}\\s*\\|\\|\\s*[\\w.?]*[Ee]cosystem\\s*===\\s*${ECOSYSTEM}`),
  new RegExp(`\\b(\\w+)\\s*===\\s*'npm'\\s*\\|\\|\\s*\\1\\s*===\\s*'pypi'`),
];

function twoWay(text: string): boolean {
  return TWO_WAY.some((pattern) => pattern.test(text));
}

describe('per-ecosystem decisions outside the ecosystems', () => {
  const tree = readTree(new URL('../../src/', import.meta.url));

  it('are tables or exhaustive switches, not two-way tests on npm and PyPI', () => {
    const found = [...tree]
      .filter(([file]) => !file.startsWith('ecosystems/') && !file.startsWith('lockfiles/'))
      .flatMap(([file, text]) => text.split('\n').flatMap((line, at) => (twoWay(line) ? [`src/${file}:${at + 1}`] : [])));
    expect(tree.size).toBeGreaterThan(300);
    expect(found).toEqual([]);
  });

  it('catches each two-way form and lets a one-way test pass (self-test)', () => {
    expect(twoWay("messageId: release.ecosystem === 'pypi' ? 'unknown-pypi' : 'unknown'")).toBe(true);
    expect(twoWay("if (target.ecosystem !== 'npm' && target.ecosystem !== 'pypi') return null;")).toBe(true);
    expect(twoWay("files.manifests.filter((m) => m.ecosystem === 'npm' || m.ecosystem === 'pypi')")).toBe(true);
    expect(twoWay("const fallback = target === 'npm' || target === 'pypi' ? target : null;")).toBe(true);
    expect(twoWay("if (subject.ecosystem !== 'npm') return null;")).toBe(false);
    expect(twoWay("securityHolding: d.ecosystem === 'npm' && d.version !== null")).toBe(false);
  });
});
