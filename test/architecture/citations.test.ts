/**
 * Code cites the repository's own documents (docs/*.md, README.md, bench/RESULTS.md), never a
 * design document outside it or a tracker's issue number (docs/architecture.md).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
/** The design document outside the repository, or a tracker citation such as `(issue N)` with a number (a fixture repository's `#120` is data, not a citation). */
const OUTSIDE = new RegExp(['DESIGN', '\\.md'].join('') + '|\\b[Ii]ssue \\d+\\b');

function sources(dir: URL, prefix: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const url = new URL(name, dir);
    if (statSync(url).isDirectory()) return name === '__snapshots__' ? [] : sources(new URL(`${name}/`, dir), `${prefix}${name}/`);
    return /\.(ts|mjs|js)$/.test(name) ? [`${prefix}${name}`] : [];
  });
}

describe('citations in code', () => {
  const files = ['src', 'test', 'scripts', 'bench'].flatMap((top) => sources(new URL(`${top}/`, ROOT), `${top}/`));

  it('finds the files', () => {
    expect(files.length).toBeGreaterThan(300);
  });

  it('point into the repository', () => {
    const found = files.flatMap((file) =>
      readFileSync(new URL(file, ROOT), 'utf8')
        .split('\n')
        .flatMap((line, at) => (OUTSIDE.test(line) ? [`${file}:${at + 1}: ${line.trim().slice(0, 100)}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it('catches both forms (self-test)', () => {
    expect(OUTSIDE.test(`(${'DESIGN'}.md §5)`)).toBe(true);
    expect(OUTSIDE.test(`the store (${'issue'} 9)`)).toBe(true);
    expect(OUTSIDE.test('Issues #120 (comments); PR #119 reviewed after 2 h')).toBe(false);
  });
});
