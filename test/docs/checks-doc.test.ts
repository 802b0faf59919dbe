/**
 * docs/checks.md is generated from the check metadata and must not go stale.
 * `UPDATE_GENERATED=1 npx vitest run test/docs/checks-doc.test.ts` rewrites it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import { FINISHED_CRITERIA } from '../../src/checks/lib/finished.js';
import { renderChecksDoc } from '../../src/docs/checks-doc.js';

const DOC = new URL('../../docs/checks.md', import.meta.url);

describe('docs/checks.md', () => {
  const rendered = renderChecksDoc(CHECKS);

  it('is up to date with the check metadata', () => {
    if (process.env.UPDATE_GENERATED === '1') writeFileSync(DOC, rendered);
    let current = '';
    try {
      current = readFileSync(DOC, 'utf8');
    } catch {
      // Missing file: fall through to the failing comparison.
    }
    expect(current, 'docs/checks.md is stale: run UPDATE_GENERATED=1 npx vitest run test/docs/checks-doc.test.ts').toBe(rendered);
  });
});

describe('README.md', () => {
  it('gives the number of checks there are', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`${CHECKS.length} checks ([docs/checks.md](docs/checks.md))`);
  });
});

describe('renderChecksDoc', () => {
  const rendered = renderChecksDoc(CHECKS);

  it('has a section per dimension, in order', () => {
    const headings = rendered.split('\n').filter((l) => l.startsWith('## '));
    expect(headings).toEqual(['## Security', '## Maintenance', '## Documentation', '## Compliance', '## Community', '## Finished-package rule']);
  });

  it.each(CHECKS.map((c) => [c.id, c] as const))('documents %s: table row, description and every message', (id, check) => {
    expect(rendered).toContain(`| [\`${id}\`](#${id}) | ${check.title} | ${check.weight} | ${check.needs.join(', ')} |`);
    expect(rendered).toContain(`### ${id}\n`);
    expect(rendered).toContain(check.description);
    for (const [messageId, template] of Object.entries(check.messages as Record<string, string>)) {
      expect(rendered).toContain(`- \`${messageId}\`: ${template}`);
    }
  });

  it('states the finished-package rule', () => {
    for (const criterion of FINISHED_CRITERIA) expect(rendered).toContain(`- \`${criterion}\`:`);
  });

  it('escapes pipes in table cells and is deterministic', () => {
    const [first] = CHECKS;
    if (first === undefined) throw new Error('no checks');
    const doc = renderChecksDoc([{ ...first, title: 'a | b' }]);
    expect(doc).toContain('a \\| b');
    expect(renderChecksDoc(CHECKS)).toBe(rendered);
  });

  it('says when a dimension has no checks', () => {
    expect(renderChecksDoc([])).toContain('No checks yet.');
  });
});
