/**
 * What users read says things in their words: the npm registry's internal name for a package's
 * metadata document ("packument") is for code, not prose. Code identifiers that carry it (a
 * message id such as `not-in-packument`, a source path such as `packument-scan.ts`) stay.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const DOCS = ['README.md', 'docs/scoring.md', 'docs/security.md', 'docs/serve.md', 'docs/checks.md', 'docs/mcp.md'];

describe('user-read documentation', () => {
  it.each(DOCS)('%s says "package metadata", never "packument" outside a code identifier', (file) => {
    const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
    const prose = text.replace(/[\w./-]*packument[\w./-]+|[\w./-]+packument[\w./-]*/gi, '');
    expect(prose.split('\n').filter((line) => /packument/i.test(line))).toEqual([]);
  });
});
