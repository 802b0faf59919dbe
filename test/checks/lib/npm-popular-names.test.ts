/**
 * src/ecosystems/npm/popular-names.ts is generated from the installed npm-high-impact (the
 * union of its three lists, in its own order): UPDATE_GENERATED=1 rewrites it (`npm run generate`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { npmHighImpact, npmTopDependents, npmTopDownloads } from 'npm-high-impact';
import { describe, expect, it } from 'vitest';
import { NPM_POPULAR_NAMES, NPM_POPULAR_SOURCE } from '../../../src/ecosystems/npm/popular-names.js';

const FILE = new URL('../../../src/ecosystems/npm/popular-names.ts', import.meta.url);

function expectedModule(): string {
  const { version } = JSON.parse(readFileSync(new URL('../../../node_modules/npm-high-impact/package.json', import.meta.url), 'utf8')) as { version: string };
  const names = [...new Set([...npmHighImpact, ...npmTopDependents, ...npmTopDownloads])];
  return [
    `// Generated from npm-high-impact ${version} by test/checks/lib/npm-popular-names.test.ts (UPDATE_GENERATED=1): do not edit.`,
    '// The names, most popular first, as one newline-separated string: V8 reads one string literal far',
    '// faster than an array literal of 17,000 elements, and every `nerq check` loads this module.',
    `export const NPM_POPULAR_SOURCE = { name: 'npm-high-impact', version: '${version}' } as const;`,
    `export const NPM_POPULAR_NAMES = ${JSON.stringify(names.join('\n'))};`,
    '',
  ].join('\n');
}

describe('the generated popular npm names', () => {
  it('is the union of npm-high-impact’s lists at the installed version, in order', () => {
    const expected = expectedModule();
    if (process.env.UPDATE_GENERATED === '1') writeFileSync(FILE, expected);
    expect(readFileSync(FILE, 'utf8'), 'src/ecosystems/npm/popular-names.ts is stale: run npm run generate').toBe(expected);
  });

  it('splits back into the names, each once, none empty', () => {
    const names = NPM_POPULAR_NAMES.split('\n');
    expect(names.length).toBe(new Set(names).size);
    expect(names).not.toContain('');
    expect(names.slice(0, 3)).toEqual(npmHighImpact.slice(0, 3));
    expect(NPM_POPULAR_SOURCE.name).toBe('npm-high-impact');
  });
});
