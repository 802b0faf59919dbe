/**
 * Which package `--include-package` folds in (docs/scoring.md §9), rule by rule — the codes
 * every front door reports (`named`, `root-manifest`, `first-verified`, `no-verified-package`,
 * the `bad-option` refusal) — and `package-unavailable` when the picked package's registry cannot
 * answer (against the fixture server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DistributedPackage, GithubDistribution, GithubFiles } from '../../src/evidence/schema.js';
import { collectIncludedPackage, pickIncludedPackage } from '../../src/pipeline/include-package.js';
import { startFixtureServer, expectNoUnexpected, expectNoUnexpectedRequests, type FixtureServer } from '../support/fixture-server.js';
import { npmConfigAt, runContextFor, testHttpClient } from './helpers.js';

const pkg = (ecosystem: 'npm' | 'pypi', name: string, status: DistributedPackage['status'] = 'verified'): DistributedPackage => ({
  ecosystem,
  name,
  command: null,
  declared: false,
  status,
  linksTo: status === 'verified' ? 'https://github.com/acme/tool' : null,
  reason: status,
  reasonCode: undefined,
});
const distribution = (...packages: DistributedPackage[]): GithubDistribution => ({ packages, images: [], skipped: [] });
const manifest = (path: string, ecosystem: 'npm' | 'pypi', name: string, priv = false): GithubFiles['manifests'][number] =>
  ({ path, ecosystem, name, private: priv, license: null, keywords: [], description: null, dependencies: [], devDependencies: [], hasBin: false }) as GithubFiles['manifests'][number];

const TWO = distribution(pkg('npm', 'tool-cli'), pkg('pypi', 'Tool_Py'), pkg('npm', 'tool-fake', 'elsewhere'));

describe('pickIncludedPackage', () => {
  it('a name on the verified list is `named` (npm:, pypi: with PEP 503, or bare)', () => {
    expect(pickIncludedPackage(TWO, [], 'acme/tool', 'pypi:tool-py')).toMatchObject({ kind: 'pick', code: 'named', pkg: { ecosystem: 'pypi', name: 'Tool_Py' } });
    expect(pickIncludedPackage(TWO, [], 'acme/tool', 'tool-cli')).toMatchObject({ kind: 'pick', code: 'named', pkg: { name: 'tool-cli' } });
  });

  it('a name that does not verify (unknown, published elsewhere, the wrong ecosystem) is a usage error listing the verified ones', () => {
    for (const asked of ['left-pad', 'tool-fake', 'pypi:tool-cli']) {
      const picked = pickIncludedPackage(TWO, [], 'acme/tool', asked);
      expect(picked.kind, asked).toBe('usage');
      if (picked.kind === 'usage') expect(picked.message).toContain('npm:tool-cli, pypi:Tool_Py');
    }
  });

  it('no name: the root manifest\'s package (`root-manifest`), else the first verified (`first-verified`)', () => {
    expect(pickIncludedPackage(TWO, [manifest('pyproject.toml', 'pypi', 'tool.py')], 'acme/tool', null)).toMatchObject({ code: 'root-manifest', pkg: { name: 'Tool_Py' } });
    // A private root manifest or one in a subfolder does not count.
    for (const manifests of [[manifest('package.json', 'npm', 'tool-cli', true)], [manifest('packages/py/pyproject.toml', 'pypi', 'Tool_Py')]]) {
      expect(pickIncludedPackage(TWO, manifests, 'acme/tool', null)).toMatchObject({ code: 'first-verified', pkg: { name: 'tool-cli' } });
    }
  });

  it('nothing verifies, or the distribution could not be read: `no-verified-package`, nothing folded in', () => {
    for (const dist of [distribution(pkg('npm', 'tool-fake', 'elsewhere')), undefined]) {
      expect(pickIncludedPackage(dist, [], 'acme/tool', null)).toMatchObject({ kind: 'none', note: { included: false, code: 'no-verified-package', name: null } });
    }
  });
});

describe('collectIncludedPackage', () => {
  let server: FixtureServer;
  const http = testHttpClient();
  beforeAll(async () => {
    server = await startFixtureServer();
    server.expect('GET', '/npm/tool-cli', { status: 503, body: { error: 'unavailable' } });
  });
  afterAll(async () => {
    expectNoUnexpected(server);
    await http.close();
    await server.close();
  });
  expectNoUnexpectedRequests(() => server);

  it('the picked package\'s registry cannot answer: `package-unavailable`, its sources unavailable (its checks unknown, not left out)', async () => {
    const ctx = runContextFor(http, server, new Date('2026-06-01T00:00:00Z'), { npm: npmConfigAt(`${server.url('npm')}/`) });
    const folded = await collectIncludedPackage(ctx, { kind: 'pick', pkg: pkg('npm', 'tool-cli'), code: 'root-manifest' }, 'acme/tool');
    expect(folded.note).toMatchObject({ included: false, code: 'package-unavailable', ecosystem: 'npm', name: 'tool-cli', version: null });
    expect(folded.sources.registry.status).toBe('unavailable');
    expect(folded.sources.tarball.status).toBe('unavailable');
    expect(folded.sources.downloads.status).toBe('unavailable');
    expect(folded.ownVulnerabilities).toBeNull();
  });
});
