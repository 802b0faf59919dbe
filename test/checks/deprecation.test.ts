import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import check from '../../src/checks/deprecation.js';
import { resolveNpmVersion } from '../../src/ecosystems/npm/resolve.js';
import type { RegistryFacts } from '../../src/evidence/schema.js';
import { registryFacts as factsOfPackument } from '../../src/sources/npm/facts.js';
import { evidence, ok, tarballFacts, unavailable } from '../support/evidence-builder.js';
import { checkTable, outcomeOf } from './check-table.js';

/** Evidence whose tarball README is `text`. */
const withReadme = (text: string, registry: Partial<RegistryFacts> = {}) =>
  evidence({ registry, tarball: tarballFacts({ readme: { path: 'README.md', size: text.length, text, truncated: false } }) });

checkTable(check, [
  {
    name: 'deprecated',
    evidence: evidence({ registry: { deprecated: 'use other-pkg instead' } }),
    score: 0,
    messageId: 'deprecated',
    data: { deprecated: true, message: 'use other-pkg instead' },
    caps: [
      { id: 'deprecated', limit: 49.9, reason: 'version is deprecated: use other-pkg instead', args: { version: expect.any(String), message: 'use other-pkg instead' } },
    ],
  },
  { name: 'not deprecated', evidence: evidence(), score: 100, messageId: 'not-deprecated', data: { deprecated: false } },
  { name: 'empty message un-deprecates', evidence: evidence({ registry: { deprecated: '' } }), score: 100, messageId: 'not-deprecated' },
  {
    name: 'unknown on a trimmed packument',
    evidence: evidence({ registry: { deprecated: null, trimmed: true } }),
    score: null,
    messageId: 'unknown',
    message: ['the registry did not include it'],
  },
  {
    name: 'unknown, and the `latest` version npm passed over is deprecated: held, with that notice',
    evidence: evidence({ registry: { deprecated: null, trimmed: true, version: '2.2.0', latestDeprecated: { version: '2.2.4', message: 'use chalk instead' } } }),
    score: null,
    messageId: 'latest-deprecated',
    data: { deprecated: null, version: '2.2.0', latestVersion: '2.2.4', message: 'use chalk instead' },
  },
  {
    name: 'known not deprecated while `latest` is: npm passed over a deprecated release on purpose — not deprecated',
    evidence: evidence({ registry: { deprecated: false, latestDeprecated: { version: '2.2.4', message: 'broken build' } } }),
    score: 100,
    messageId: 'not-deprecated',
  },
  {
    name: 'its own notice wins over the latest one\'s',
    evidence: evidence({ registry: { deprecated: 'old line', latestDeprecated: { version: '3.0.0', message: 'broken build' } } }),
    score: 0,
    messageId: 'deprecated',
    caps: [{ id: 'deprecated', limit: 49.9, reason: 'version is deprecated: old line' }],
  },
  {
    name: 'README title declares it',
    evidence: withReadme('# Deprecated\n\nThis package is no longer relevant.\n\n# example\n\nParses things.'),
    score: 20,
    messageId: 'readme-declared',
    data: { deprecated: false, readmeDeclared: true, where: 'title', excerpt: 'Deprecated' },
  },
  {
    name: 'README first paragraph declares it (after the title and badges)',
    evidence: withReadme('# example [![npm](https://img.shields.io/npm/v/example.svg)](https://npm.im/example)\n\n**Deprecated:** use `node:util` instead.\n'),
    score: 20,
    messageId: 'readme-declared',
    data: { where: 'first paragraph' },
  },
  {
    name: 'README declares it on a trimmed packument (deprecation otherwise unknown)',
    evidence: withReadme('# example\n\nThis module is no longer maintained.', { deprecated: null, trimmed: true }),
    score: 20,
    messageId: 'readme-declared',
    data: { deprecated: null, where: 'first paragraph' },
  },
  {
    name: 'the registry notice wins over the README',
    evidence: withReadme('# Deprecated', { deprecated: 'use y' }),
    score: 0,
    messageId: 'deprecated',
    caps: [{ id: 'deprecated', limit: 49.9, reason: 'version is deprecated: use y' }],
  },
  {
    name: 'a mention below the opening declares nothing',
    evidence: withReadme('# example\n\nParses things.\n\n## Notes\n\nThis package is deprecated in favour of nothing; request is deprecated.'),
    score: 100,
    messageId: 'not-deprecated',
  },
  {
    name: 'the registry description declares it on a trimmed packument (@sourcegraph/amp\'s words)',
    evidence: evidence({ registry: { deprecated: null, trimmed: true, description: 'Renamed to @ampcode/cli - see https://ampcode.com/news/npm-package-changes' } }),
    score: 20,
    messageId: 'description-declared',
    data: { deprecated: null, descriptionDeclared: true, excerpt: 'Renamed to @ampcode/cli - see https://ampcode.com/news/npm-package-changes' },
  },
  {
    name: 'a description about deprecation declares nothing',
    evidence: evidence({ registry: { description: 'Deprecation warnings for your API' } }),
    score: 100,
    messageId: 'not-deprecated',
  },
  {
    name: 'the registry notice wins over the description',
    evidence: evidence({ registry: { deprecated: 'use y', description: 'DEPRECATED: use y' } }),
    score: 0,
    messageId: 'deprecated',
    caps: [{ id: 'deprecated', limit: 49.9, reason: 'version is deprecated: use y' }],
  },
  {
    name: 'the README the registry shows, when the tarball is unavailable',
    evidence: evidence({
      registry: { readme: { size: 40, text: '# example\n\nThis project is archived.', truncated: false } },
      tarball: unavailable('timeout'),
    }),
    score: 20,
    messageId: 'readme-declared',
  },
]);

describe('deprecation: the verdict hold', () => {
  it('holds the verdict when the README declares the package deprecated, and only then', () => {
    const byReadme = outcomeOf(check, withReadme('# Deprecated'));
    expect([byReadme.messageId, typeof byReadme.holdVerdict]).toEqual(['readme-declared', 'string']);
    expect(outcomeOf(check, withReadme('# example\n\nParses.')).holdVerdict).toBeUndefined();
    const byDescription = outcomeOf(check, evidence({ registry: { description: '[Deprecated] A helper' } }));
    expect([byDescription.messageId, typeof byDescription.holdVerdict]).toEqual(['description-declared', 'string']);
  });
});

describe('deprecation message', () => {
  it('keeps at most 200 characters of a hostile message in data and the cap reason', () => {
    const outcome = outcomeOf(check, evidence({ registry: { deprecated: `  ${'z'.repeat(1000)}` } }));
    expect(Array.from(String(outcome.data?.message)).length).toBe(200);
    expect(outcome.caps?.[0]?.reason.length).toBeLessThan(240);
  });
});

describe('a deprecated `latest` npm passes over, in a mirror\'s trimmed packument', () => {
  // @types/chalk as the mirror serves it (fixtures/PROVENANCE.md): 2.2.2 and 2.2.4 carry the stub notice, 2.2.0 nothing.
  const packument = JSON.parse(readFileSync(new URL('../../fixtures/http/npm/@types/chalk.json', import.meta.url), 'utf8')) as Record<string, unknown>;

  it('@types/chalk resolves to 2.2.0 (latest 2.2.4 is deprecated), whose own status is unknown: held with 2.2.4\'s notice, not passed as unknown', () => {
    const resolved = resolveNpmVersion(packument, undefined);
    expect(resolved).toEqual({ ok: true, version: '2.2.0' });
    const facts = factsOfPackument(packument, '2.2.0');
    expect(facts.deprecated).toBeNull();
    expect(facts.latestDeprecated).toEqual({ version: '2.2.4', message: expect.stringMatching(/^This is a stub types definition/) });
    const outcome = outcomeOf(check, evidence({ registry: ok(facts), tarball: unavailable('not read') }));
    expect(outcome.messageId).toBe('latest-deprecated');
    expect(outcome.score).toBeNull();
    expect(outcome.holdVerdict).toBeDefined();
  });

  it('@types/chalk@2.2.4 itself is deprecated: the cap, and no latest notice of another version', () => {
    const facts = factsOfPackument(packument, '2.2.4');
    expect(facts.latestDeprecated).toBeNull();
    expect(outcomeOf(check, evidence({ registry: ok(facts) })).caps?.map((c) => c.id)).toEqual(['deprecated']);
  });
});
