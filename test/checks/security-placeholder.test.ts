import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import check from '../../src/checks/security-placeholder.js';
import { ADOPTED_MIN_RELEASES } from '../../src/checks/lib/holding-package.js';
import type { RegistryFacts, TarballFacts } from '../../src/evidence/schema.js';
import { registryFacts as factsOfPackument } from '../../src/sources/npm/facts.js';
import { readTarball } from '../../src/sources/npm/tarball.js';
import { evidence, ok, unavailable, versionsAgo } from '../support/evidence-builder.js';
import { checkTable, outcomeOf } from './check-table.js';

/** npm's README for a security-holding package, as child_process 1.0.2 ships it (fixtures/holder/). */
const HOLDING_README =
  '# Security holding package\n\nThis package name is not currently in use, but was formerly occupied\nby another package. To avoid malicious use, npm is hanging on to the\npackage name, but loosely, and we\'ll probably give it to you if you\nwant it.\n\nYou may adopt this package by contacting support@npmjs.com and\nrequesting the name.\n';
const HOLDER_REPOSITORY = { raw: 'git+https://github.com/npm/security-holder.git', host: 'github', url: 'https://github.com/npm/security-holder', slug: 'npm/security-holder', directory: null };

const readme = (text: string): TarballFacts['readme'] => ({ path: 'README.md', size: text.length, text, truncated: false });
/** An npm-init manifest without description, as npm's older holding packages have. */
const bare = (overrides: Partial<RegistryFacts> = {}) => ({ name: 'dgram', version: '1.0.1', description: null, versions: versionsAgo([['1.0.1', 540]]), ...overrides });

const HELD_REASON = 'npm holds this name with a security-holding package: the package it held was removed, and nothing here is code to install';
const held = { id: 'security-placeholder', limit: 9.9, doNotUse: true, reason: HELD_REASON };

checkTable(check, [
  {
    name: 'security-holding placeholder: npm\'s description and -security version',
    evidence: evidence({
      registry: {
        version: '0.0.1-security',
        versions: versionsAgo([['0.0.1-security', 300]]),
        description: 'security holding package',
        securityHolding: true,
      },
    }),
    score: 0,
    messageId: 'placeholder',
    data: { securityHolding: true, version: '0.0.1-security', marks: ['description', 'version'] },
    caps: [held],
  },
  {
    name: 'a 1.0.N version whose tarball README is npm\'s "Security holding package" text',
    evidence: evidence({ registry: bare({ repository: null }), tarball: { readme: readme(HOLDING_README), fileCount: 2 } }),
    score: 0,
    messageId: 'placeholder',
    data: { marks: ['readme'] },
    caps: [held],
    message: ['(readme)', 'nothing here is code to install'],
  },
  {
    name: 'the link to npm/security-holder with nothing else in the tarball (no README read)',
    evidence: evidence({ registry: bare({ repository: HOLDER_REPOSITORY }), tarball: { readme: null, fileCount: 2, licenseFiles: [] } }),
    score: 0,
    messageId: 'placeholder',
    data: { marks: ['repository'] },
    caps: [held],
  },
  {
    name: 'the tarball unread: the README the registry shows is read instead',
    evidence: evidence({ registry: bare({ readme: { size: HOLDING_README.length, text: HOLDING_README, truncated: false } }), tarball: unavailable('HTTP 503') }),
    score: 0,
    messageId: 'placeholder',
    data: { marks: ['readme'] },
    caps: [held],
  },
  { name: 'genuine package', evidence: evidence(), score: 100, messageId: 'genuine', data: { securityHolding: false } },
  {
    name: 'a version published before npm held the name (0.0.2-security after it): held, the placeholder named',
    evidence: evidence({ registry: { version: '1.0.2', versions: versionsAgo([['1.0.2', 700], ['0.0.2-security', 300]]) } }),
    score: 50,
    messageId: 'held-before',
    data: { securityHolding: false, placeholder: '0.0.2-security' },
    message: ['(0.0.2-security)'],
  },
  {
    name: 'a version published after the placeholder (npm gave the name to a new owner, as tslib 1.0.0 after 0.0.1-security): genuine',
    evidence: evidence({ registry: { version: '1.0.0', versions: versionsAgo([['0.0.1', 3000], ['0.0.1-security', 2000], ['1.0.0', 1990]]) } }),
    score: 100,
    messageId: 'genuine',
  },
  {
    name: "a mirror's times: one release besides the placeholder is held",
    evidence: evidence({ registry: { version: '1.0.2', trimmed: true, versions: [{ version: '0.0.2-security', time: null }, { version: '1.0.2', time: null }] } }),
    score: 50,
    messageId: 'held-before',
  },
  {
    name: `a mirror's times: ${ADOPTED_MIN_RELEASES} releases besides the placeholder are a project grown on the name (tslib's 28): genuine`,
    evidence: evidence({
      registry: { version: '1.0.4', trimmed: true, versions: ['0.0.1-security', '1.0.0', '1.0.1', '1.0.2', '1.0.3', '1.0.4'].map((version) => ({ version, time: null })) },
    }),
    score: 100,
    messageId: 'genuine',
  },
  {
    name: `a mirror's times: ${ADOPTED_MIN_RELEASES - 1} releases besides the placeholder are held`,
    evidence: evidence({
      registry: { version: '1.0.3', trimmed: true, versions: ['0.0.1-security', '1.0.0', '1.0.1', '1.0.2', '1.0.3'].map((version) => ({ version, time: null })) },
    }),
    score: 50,
    messageId: 'held-before',
  },
  {
    name: 'a pre-release named `-security` that is not npm\'s 0.0.N shape: genuine',
    evidence: evidence({ registry: { version: '2.0.0', versions: versionsAgo([['1.0.0-security', 700], ['2.0.0', 300]]) } }),
    score: 100,
    messageId: 'genuine',
  },
  {
    name: 'a real package with code that links to npm/security-holder (copied package.json) is no holding package',
    evidence: evidence({ registry: { repository: HOLDER_REPOSITORY }, tarball: { fileCount: 12 } }),
    score: 100,
    messageId: 'genuine',
  },
  {
    name: 'the link to npm/security-holder with the tarball unread is no mark alone',
    evidence: evidence({ registry: bare({ repository: HOLDER_REPOSITORY }), tarball: unavailable('HTTP 503') }),
    score: 100,
    messageId: 'genuine',
  },
  {
    name: 'a README that names npm\'s security-holder and its title further down marks nothing',
    evidence: evidence({
      tarball: {
        readme: readme(
          '# name-keeper\n\nLists npm names held by npm.\n\n## Usage\n\nA name npm took back shows its README:\n\n# Security holding package\n\nSee https://github.com/npm/security-holder and the words "security holding package".\n',
        ),
      },
    }),
    score: 100,
    messageId: 'genuine',
  },
  {
    name: 'a description that mentions the words is not npm\'s description',
    evidence: evidence({ registry: { description: 'Lists each security holding package npm published' } }),
    score: 100,
    messageId: 'genuine',
  },
  {
    name: 'a repository named security-holder under another owner marks nothing',
    evidence: evidence({
      registry: bare({ repository: { ...HOLDER_REPOSITORY, raw: 'git+https://github.com/someone/security-holder.git', url: 'https://github.com/someone/security-holder', slug: 'someone/security-holder' } }),
      tarball: { readme: readme('# security-holder\n\nHolds names.\n'), fileCount: 2 },
    }),
    score: 100,
    messageId: 'genuine',
  },
  {
    name: 'the tarball read is the version\'s own README: the registry\'s (another version\'s) holding text does not count',
    evidence: evidence({ registry: { readme: { size: HOLDING_README.length, text: HOLDING_README, truncated: false } } }),
    score: 100,
    messageId: 'genuine',
  },
]);

/** Real packuments and tarballs npm's configured registry (a mirror) served (fixtures/PROVENANCE.md, `fixtures/holder/`). */
const fixture = (path: string) => new URL(`../../fixtures/holder/${path}`, import.meta.url);
const packument = (name: string): Record<string, unknown> => JSON.parse(readFileSync(fixture(`${name}.json`), 'utf8')) as Record<string, unknown>;

async function tarballOf(file: string): Promise<TarballFacts> {
  const read = await readTarball(readFileSync(fixture(file)));
  if (read.status !== 'ok') throw new Error(read.reason);
  return read.facts;
}

describe('real held names', () => {
  it("child_process 1.0.2 (npm's security-holder: README and repository link, an empty description, a 1.0.N version) is a holding package", async () => {
    const registry = factsOfPackument(packument('child_process'), '1.0.2');
    expect(registry.securityHolding).toBe(false);
    const outcome = outcomeOf(check, evidence({ registry: ok(registry), tarball: ok(await tarballOf('child_process-1.0.2.tgz')) }));
    expect(outcome).toMatchObject({ score: 0, messageId: 'placeholder', data: { marks: ['readme', 'repository'] } });
    expect(outcome.caps?.map((c) => [c.id, c.limit, c.doNotUse])).toEqual([['security-placeholder', 9.9, true]]);
  });

  it("crypto 1.0.1 (npm's deprecate-holder: a built-in's name npm keeps after deprecating it) is no security-holding package", async () => {
    const registry = factsOfPackument(packument('crypto'), '1.0.1');
    const outcome = outcomeOf(check, evidence({ registry: ok(registry), tarball: ok(await tarballOf('crypto-1.0.1.tgz')) }));
    expect(outcome).toMatchObject({ score: 100, messageId: 'genuine' });
  });

  it('mongose: 0.0.2-security is the holding package; 1.0.2, published on the name with code of its own, is not — but npm took the name back once, so it is held', async () => {
    const doc = packument('mongose');
    const placeholder = outcomeOf(check, evidence({ registry: ok(factsOfPackument(doc, '0.0.2-security')), tarball: unavailable('not read') }));
    expect(placeholder).toMatchObject({ score: 0, messageId: 'placeholder', data: { marks: ['description', 'version'] } });
    const later = evidence({ registry: ok(factsOfPackument(doc, '1.0.2')), tarball: ok(await tarballOf('mongose-1.0.2.tgz')) });
    const outcome = outcomeOf(check, later);
    expect(outcome).toMatchObject({ score: 50, messageId: 'held-before', data: { placeholder: '0.0.2-security' } });
    expect([outcome.caps ?? [], typeof outcome.holdVerdict]).toEqual([[], 'string']);
  });
});

describe("npm's description, read from the packument", () => {
  const doc = (description: string) => ({ name: 'x', versions: { '1.0.0': { name: 'x', version: '1.0.0', description } } });
  it.each([
    ['security holding package', true],
    ['Security holding package.', true],
    ['Lists each security holding package npm published', false],
  ] as const)('%j → securityHolding %s', (description, expected) => {
    expect(factsOfPackument(doc(description), '1.0.0').securityHolding).toBe(expected);
  });
});

describe('a name npm has held', () => {
  it('holds the verdict only for a version beside a placeholder, never for a genuine package or the placeholder itself', () => {
    const later = outcomeOf(check, evidence({ registry: { version: '1.0.2', versions: versionsAgo([['1.0.2', 700], ['0.0.2-security', 300]]) } }));
    expect(typeof later.holdVerdict).toBe('string');
    expect(later.caps ?? []).toEqual([]);
    expect(outcomeOf(check, evidence()).holdVerdict).toBeUndefined();
    const itself = outcomeOf(check, evidence({ registry: { version: '0.0.2-security', versions: versionsAgo([['1.0.2', 700], ['0.0.2-security', 300]]), securityHolding: true } }));
    expect([itself.messageId, itself.holdVerdict]).toEqual(['placeholder', undefined]);
  });
});
