/**
 * A dependency no registry serves, declared under another name than the package it fetches
 * (`"my-alias": "github:acme/real-pkg#<sha>"`): the skipped entry keeps the fetched package's
 * name and lists the declared one in `declaredAs`. Hand-written package-lock v3 in the shape
 * npm writes for such a dependency (the real pnpm case is test/lockfiles/real-lockfiles.test.ts,
 * hoppscotch/hoppscotch).
 */
import { describe, expect, it } from 'vitest';
import { readInputText } from '../../../src/lockfiles/index.js';

const SHA = '0123456789abcdef0123456789abcdef01234567';
const manifest = `${JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { 'my-alias': `github:acme/real-pkg#${SHA}`, 'same-name': `github:acme/same-name#${SHA}` } }, null, 2)}\n`;
const lock = `${JSON.stringify(
  {
    name: 'app',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'app', version: '1.0.0', dependencies: { 'my-alias': `github:acme/real-pkg#${SHA}`, 'same-name': `github:acme/same-name#${SHA}` } },
      'node_modules/my-alias': { name: 'real-pkg', version: '1.0.0', resolved: `git+ssh://git@github.com/acme/real-pkg.git#${SHA}` },
      'node_modules/same-name': { version: '1.0.0', resolved: `git+ssh://git@github.com/acme/same-name.git#${SHA}` },
    },
  },
  null,
  2,
)}\n`;

describe('a remote dependency declared under an alias', () => {
  it('package-lock v3: the fetched name, and the declared alias in declaredAs (absent when they are the same)', () => {
    const input = readInputText(lock, 'package-lock.json', { manifests: { 'package.json': manifest } });
    expect((input.skipped ?? []).map((s) => [s.name, s.declaredAs ?? null, s.host])).toEqual([
      ['real-pkg', ['my-alias'], 'github.com'],
      ['same-name', null, 'github.com'],
    ]);
  });
});
