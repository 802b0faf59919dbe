import { describe, expect, it } from 'vitest';
import { foreignRegistry } from '../../../src/ecosystems/mcp/registry-base.js';

const VOUCHED = ['http://127.0.0.1:4873/npm/', 'https://pypi.org'];

describe('foreignRegistry', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['https://pypi.org', false],
    ['https://PyPI.org/', false],
    ['http://127.0.0.1:4873/npm', false],
    ['https://pypi.org.evil.example', true],
    ['https://pypi.org/simple-evil', true],
    ['http://127.0.0.1:4874/npm/', true],
    ['ftp://pypi.org', true],
    ['not a url', true],
  ])('%s → foreign %s', (base, foreign) => {
    expect(foreignRegistry(base, VOUCHED) !== null).toBe(foreign);
  });

  it('names the registry without its credentials or query', () => {
    const reason = foreignRegistry('https://me:tok3n@registry.evil.example/path?key=abc', VOUCHED);
    expect(reason).toContain('registry.evil.example/path');
    expect(reason).not.toMatch(/tok3n|abc/);
  });
});
