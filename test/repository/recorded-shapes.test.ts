/**
 * `nerq check github:owner/repo --json` (the built CLI) on three more recorded public
 * repositories, each a shape the first five did not cover (fixtures/github-repos/README.md):
 * a Go MCP server (go.mod beside an npm UI lockfile), a bun-built TypeScript server whose
 * README advertises other owners' packages, and a one-day-old Python server with requirements.txt
 * and no lockfile. What git does not hold is synthesised as test/repository/recorded-repos.ts
 * says: the repository answer (stars, created_at from the first commit, the licence GitHub would
 * detect), releases and issues (none), the commit authors' GitHub accounts (none linked), the
 * registries' answers for the advertised and declared packages (one-version packuments / PyPI
 * projects linking where the public entries link), and OSV (no advisory unless a test names one).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/schema.js';
import { FIXTURES_ROOT } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { osvRecord, recordOf, serveRecordedGraphql, serveRecordedRepo, servePublished, useRepositoryHarness, type PublishedPackages, type ServeRecordedOptions } from './recorded-repos.js';

const harness = useRepositoryHarness();

/** Run `nerq check github:<fullName> --json` the day after the recorded commit; the report and the requests made. */
async function checkJson(
  fullName: string,
  options: ServeRecordedOptions & { token?: string },
  published: PublishedPackages,
): Promise<{ report: Report; code: number; paths: string[]; osvEcosystems: string[] }> {
  const { server } = harness;
  serveRecordedRepo(server, fullName, options);
  if (options.token !== undefined) serveRecordedGraphql(server, fullName, { license: options.license });
  servePublished(server, published);
  const at = new Date(new Date(recordOf(fullName).recordedCommit.committerDate).getTime() + 86_400_000).toISOString();
  const result = await runCli(['check', `github:${fullName}`, '--json'], { server, env: { NERQ_NOW: at, ...(options.token === undefined ? {} : { GITHUB_TOKEN: options.token }) } });
  expect(result.stderr).not.toMatch(/\n\s+at /); // never a stack trace
  const report = JSON.parse(result.stdout) as Report;
  const osvEcosystems = server.requests
    .filter((r) => r.path === '/osv/v1/querybatch')
    .flatMap((r) => (JSON.parse(r.body) as { queries: { package: { ecosystem: string } }[] }).queries.map((q) => q.package.ecosystem));
  return { report, code: result.code, paths: server.requests.map((r) => r.path), osvEcosystems: [...new Set(osvEcosystems)] };
}

const checkOf = (report: Report, id: string) => report.checks.find((c) => c.id === id);
const dimension = (report: Report, id: string) => report.dimensions.find((d) => d.id === id);

describe('a Go MCP server (github/github-mcp-server): go.mod + go.sum, a private npm UI, a container image', () => {
  const GO = 'github/github-mcp-server';

  it('its Go modules are evaluated beside the UI lockfile: one OSV batch per ecosystem, no advisory → a clean bill with the real count, YES', async () => {
    const { report, paths, osvEcosystems } = await checkJson(GO, { license: 'MIT', stars: 25_000, description: 'GitHub\'s official MCP Server' }, {});
    // 407 npm pins of ui/package-lock.json + the 39 modules go.mod requires.
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ status: 'pass', score: 100, messageId: 'repository-clean', evidence: { total: 446, dependenciesQueried: 446 } });
    expect(checkOf(report, 'vulnerable-dependencies')?.evidence).not.toHaveProperty('unevaluatedFiles');
    expect(checkOf(report, 'malicious-package')).toMatchObject({ status: 'pass', score: 100, messageId: 'clean-repository' });
    // A repository has no version of its own to look up: no own-advisory check.
    expect(checkOf(report, 'known-vulnerabilities')).toBeUndefined();
    expect([...osvEcosystems].sort()).toEqual(['Go', 'npm']);
    expect(paths.filter((p) => p === '/osv/v1/querybatch')).toHaveLength(2);
    // go.mod is read; go.sum only confirms what go.mod pins, and is not.
    expect(paths).toContain('/github/repos/github/github-mcp-server/contents/go.mod');
    expect(paths).not.toContain('/github/repos/github/github-mcp-server/contents/go.sum');
    // Nothing is looked up as a package in a registry.
    expect(paths.filter((p) => p.startsWith('/npm/') || p.startsWith('/pypi/'))).toEqual([]);
    expect(report.distribution).toMatchObject({ packages: [], images: [{ name: 'ghcr.io/github/github-mcp-server' }] });
    // Only a container image is advertised, on ghcr.io under the repository's owner: its own.
    expect(checkOf(report, 'advertised-packages')).toMatchObject({ score: 100, messageId: 'own-image', evidence: { ownImages: 'ghcr.io/github/github-mcp-server' } });
    // Documentation and compliance from the repository's own files.
    expect(checkOf(report, 'readme')).toMatchObject({ messageId: 'good-cut', evidence: { path: 'README.md', source: 'repository', docsFolder: true, truncated: true } });
    expect(checkOf(report, 'license-file')).toMatchObject({ messageId: 'consistent', evidence: { files: ['LICENSE'], found: ['MIT'] } });
    expect(checkOf(report, 'changelog')?.messageId).toBe('missing-repository');
    expect(report.category?.id).toBe('mcp-server');
    expect(checkOf(report, 'project-maturity')).toMatchObject({ messageId: 'established', evidence: { commits: 1099 } });
    expect(checkOf(report, 'ci-present')).toMatchObject({ messageId: 'workflows', score: 100 });
    // Every dimension known, the dependency checks too: coverage 0.818 (0.641 while Go was unevaluated), YES.
    // The contributors alone are unknown: the recording keeps no commit's account (fixtures/github-repos/README.md).
    for (const id of ['security', 'maintenance', 'documentation', 'compliance', 'community']) expect(dimension(report, id)?.score, id).not.toBeNull();
    expect(checkOf(report, 'contributors')?.messageId).toBe('unlinked');
    expect(report.coverage).toBeGreaterThanOrEqual(0.8);
    expect(report.verdictCode).toBe('yes');
    expect(report.verdictReasonDetails.map((r) => r.code)).not.toContain('danger-unchecked');
  });

  // A synthesised OSV answer (shaped as OSV serves a Go record: SEMVER events without the v) for
  // one of go.mod's real direct requires, github.com/go-chi/chi/v5 v5.3.1.
  it('a HIGH advisory on a required Go module is a finding with its id, path and fix, and in advisories[]', async () => {
    const advisory = osvRecord('GHSA-nerq-gomd-0001', 'github.com/go-chi/chi/v5', '5.0.0', '5.3.2', 'HIGH', 'Go');
    const { report } = await checkJson(GO, { license: 'MIT', osv: [advisory] }, {});
    const check = checkOf(report, 'vulnerable-dependencies');
    expect(check).toMatchObject({ status: 'warn', score: 40, messageId: 'repository-vulnerable', evidence: { ids: ['GHSA-nerq-gomd-0001'], affected: 1, worst: 'high' } });
    // The set holds npm packages (ui/package-lock.json) and Go modules: the finding names its ecosystem.
    expect(check?.evidence.details).toEqual(['Go: github.com/go-chi/chi/v5@5.3.1 (GHSA-nerq-gomd-0001 fixed in 5.3.2)']);
    expect(report.advisories).toEqual([expect.objectContaining({ id: 'GHSA-nerq-gomd-0001', package: 'github.com/go-chi/chi/v5', ecosystem: 'go', version: '5.3.1', fixed: '5.3.2', severity: 'high', affectsResolved: true })]);
  });

  // A synthesised malicious-packages record (MAL- id) for the module go.mod pins at a
  // pseudo-version, github.com/muesli/cache2go v0.0.0-20221011235721-518229cd8021.
  it('a malicious record on a module pinned at a pseudo-version is NO — DO NOT USE', async () => {
    const advisory = osvRecord('MAL-2099-0001', 'github.com/muesli/cache2go', '0', '0.0.1', 'CRITICAL', 'Go');
    const { report } = await checkJson(GO, { license: 'MIT', osv: [advisory] }, {});
    expect(checkOf(report, 'malicious-package')).toMatchObject({ score: 0, messageId: 'malicious-locked-dependency' });
    expect(report.verdictCode).toBe('do-not-use');
    expect(report.advisories).toEqual([expect.objectContaining({ id: 'MAL-2099-0001', version: '0.0.0-20221011235721-518229cd8021', affectsResolved: true, malicious: true })]);
  });

  it('OSV failing: both dependency checks unknown, never "no vulnerabilities"', async () => {
    const { report } = await checkJson(GO, { license: 'MIT', osvStatus: 503 }, {});
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ status: 'unknown', score: null });
    expect(checkOf(report, 'malicious-package')).toMatchObject({ status: 'unknown', score: null });
    expect(report.verdictCode).not.toBe('yes');
  });

  it('its security policy\'s channel is the address written `opensource-security[@]github.com`, not the organisation page linked in its opening', async () => {
    const { report } = await checkJson(GO, { license: 'MIT' }, {});
    expect(checkOf(report, 'security-policy')).toMatchObject({ score: 100, messageId: 'channel', evidence: { file: 'SECURITY.md', channel: 'opensource-security@github.com' } });
  });

  it('with a token (GraphQL for the repository, the same file reader): the same dependency set', async () => {
    const { report, paths } = await checkJson(GO, { license: 'MIT', token: `ghp_${'x'.repeat(36)}` }, {});
    expect(paths).toContain('/github/graphql');
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ status: 'pass', messageId: 'repository-clean', evidence: { total: 446 } });
    expect(checkOf(report, 'malicious-package')?.messageId).toBe('clean-repository');
  });

  // Releases synthesised in GitHub's REST shape (git holds no release): v1.10.1 with GitHub's
  // generated "What's Changed" notes, v1.10.0 with hand-written ones, v1.9.0 with the bare
  // "Full Changelog" link alone; tags and dates are the recorded tags'.
  const release = (tag: string, publishedAt: string, body: string) => ({
    url: `https://api.github.com/repos/${GO}/releases/1`,
    html_url: `https://github.com/${GO}/releases/tag/${tag}`,
    tag_name: tag,
    name: tag,
    draft: false,
    prerelease: false,
    created_at: publishedAt,
    published_at: publishedAt,
    assets: [],
    body,
  });
  const RELEASES = [
    release(
      'v1.10.1',
      '2026-08-20T09:10:00Z',
      "## What's Changed\r\n* Fix the issue tool's pagination by @a in https://github.com/github/github-mcp-server/pull/901\r\n\r\n\r\n**Full Changelog**: https://github.com/github/github-mcp-server/compare/v1.10.0...v1.10.1",
    ),
    release('v1.10.0', '2026-08-19T15:50:00Z', '## Highlights\r\n\r\n* New toolsets for projects\r\n* Read-only mode covers every tool'),
    release('v1.9.0', '2026-08-10T13:20:00Z', '**Full Changelog**: https://github.com/github/github-mcp-server/compare/v1.8.0...v1.9.0'),
  ];

  it('without a CHANGELOG file, release notes on its latest GitHub release are its changelog (releases synthesised)', async () => {
    const { report } = await checkJson(GO, { license: 'MIT', override: { '/releases': { body: RELEASES } } }, {});
    expect(checkOf(report, 'changelog')).toMatchObject({
      score: 100,
      messageId: 'releases-repository',
      evidence: { tag: 'v1.10.1', withNotes: 2, listed: 3 },
    });
  });

  it('without a CHANGELOG file and with the releases listing failing, the changelog is unknown, never "none"', async () => {
    const { report } = await checkJson(GO, { license: 'MIT', override: { '/releases': { status: 500 } } }, {});
    expect(checkOf(report, 'changelog')).toMatchObject({ status: 'unknown', score: null, messageId: 'releases-unreadable' });
  });

  it('an advisory in the UI lockfile is a finding beside the Go modules', async () => {
    const advisory = osvRecord('GHSA-nerq-gomc-0001', 'react-markdown', '10.0.0', '10.99.0', 'HIGH');
    const { report } = await checkJson(GO, { license: 'MIT', osv: [advisory] }, {});
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ messageId: 'repository-vulnerable', score: 40, evidence: { ids: ['GHSA-nerq-gomc-0001'] } });
    expect(report.advisories.map((a) => a.id)).toContain('GHSA-nerq-gomc-0001');
  });
});

describe('a bun-built TypeScript MCP server (upstash/context7) whose README advertises other owners\' packages', () => {
  const CONTEXT7 = 'upstash/context7';
  const published: PublishedPackages = {
    npm: {
      '@upstash/context7-mcp': 'https://github.com/upstash/context7',
      '@smithery/cli': 'https://github.com/smithery-ai/cli',
      '@modelcontextprotocol/inspector': 'https://github.com/modelcontextprotocol/inspector',
      tsx: 'https://github.com/privatenumber/tsx',
    },
  };

  it('reads bun.lock as the dependency set, verifies its own package, names the others as third-party', async () => {
    const { report, osvEcosystems } = await checkJson(CONTEXT7, { license: 'MIT', stars: 30_000, topics: ['mcp', 'mcp-server'] }, published);
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ messageId: 'repository-clean', score: 100, evidence: { dependenciesQueried: 233 } });
    expect(checkOf(report, 'malicious-package')).toMatchObject({ messageId: 'clean-repository', evidence: { pinned: 233 } });
    expect(osvEcosystems).toEqual(['npm']);
    const packages = report.distribution?.packages.map((p) => [p.name, p.status]);
    expect(packages).toEqual(
      expect.arrayContaining([
        ['@upstash/context7-mcp', 'verified'],
        ['@smithery/cli', 'elsewhere'],
        ['@modelcontextprotocol/inspector', 'elsewhere'],
        ['tsx', 'elsewhere'],
      ]),
    );
    expect(report.distribution?.packages.find((p) => p.name === '@upstash/context7-mcp')?.check).toBe('npm:@upstash/context7-mcp');
    expect(checkOf(report, 'advertised-packages')?.score).not.toBe(0);
    expect(report.category?.id).toBe('mcp-server');
    expect(checkOf(report, 'readme')).toMatchObject({ messageId: 'good', evidence: { source: 'repository' } });
    expect(checkOf(report, 'license-consistency')).toMatchObject({ messageId: 'consistent', evidence: { declared: 'MIT', repositoryLicense: 'MIT' } });
    expect(checkOf(report, 'security-policy')).toMatchObject({ score: 0, messageId: 'none' });
    expect(checkOf(report, 'project-maturity')).toMatchObject({ messageId: 'established', evidence: { commits: 486 } });
    // The contributors unknown (no account recorded for its commits): 0.843.
    expect(report.coverage).toBeGreaterThanOrEqual(0.8);
    // Seven months old, an organisation's, its package verified and its pins clean (OSV's answer is
    // synthesised: no advisory): YES over the MCP-server bar, though no security policy.
    expect(report.verdictCode).toBe('yes');
    expect(report.score).toBeGreaterThanOrEqual(80);
    expect(report.score).toBeLessThan(90);
  });

  it('its README advertising a package that is not published holds the verdict and names it', async () => {
    const { report } = await checkJson(CONTEXT7, { license: 'MIT', stars: 30_000 }, { npm: Object.fromEntries(Object.entries(published.npm ?? {}).filter(([name]) => name !== 'tsx')) });
    expect(checkOf(report, 'advertised-packages')).toMatchObject({ score: 0, messageId: 'missing' });
    expect(report.verdictReasonDetails.map((r) => r.code)).toContain('verdict-held');
  });
});

describe('a one-day-old Python MCP server with requirements.txt and no lockfile (GongRzhe/Office-Word-MCP-Server)', () => {
  const WORD = 'GongRzhe/Office-Word-MCP-Server';
  const published: PublishedPackages = {
    pypi: {
      'office-word-mcp-server': 'https://github.com/GongRzhe/Office-Word-MCP-Server',
      mcp: 'https://github.com/modelcontextprotocol/python-sdk',
      'python-docx': 'https://github.com/python-openxml/python-docx',
    },
  };

  it('resolves the requirements from PyPI, never says clean for what no lockfile pins, and is held as one day old', async () => {
    const { report, osvEcosystems } = await checkJson(WORD, { license: 'MIT' }, published);
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ messageId: 'repository-clean-ranges', evidence: { directOnly: true, rangeFiles: 'requirements.txt' } });
    expect(checkOf(report, 'malicious-package')).toMatchObject({ status: 'unknown', messageId: 'repository-direct-only' });
    expect(osvEcosystems).toEqual(['PyPI']);
    expect(report.distribution?.packages).toEqual([expect.objectContaining({ ecosystem: 'pypi', name: 'office-word-mcp-server', status: 'verified', declared: true })]);
    expect(checkOf(report, 'project-maturity')).toMatchObject({ messageId: 'too-young', score: 20, evidence: { days: 1, commits: 6 } });
    expect(report.category?.id).toBe('mcp-server');
    expect(checkOf(report, 'readme')).toMatchObject({ messageId: 'good', evidence: { source: 'repository' } });
    expect(checkOf(report, 'license-consistency')).toMatchObject({ messageId: 'consistent', evidence: { repositoryLicense: 'MIT' } });
    expect(checkOf(report, 'license-file')).toMatchObject({ messageId: 'consistent', evidence: { found: ['MIT'] } });
    expect(checkOf(report, 'security-policy')?.messageId).toBe('none');
    expect(checkOf(report, 'ci-present')?.messageId).toBe('none');
    for (const id of ['security', 'maintenance', 'documentation', 'compliance', 'community']) expect(dimension(report, id)?.score, id).not.toBeNull();
    expect(report.verdictCode).not.toBe('yes');
    expect(report.verdictReasonDetails.map((r) => r.code)).toContain('verdict-held');
    expect(report.coverage).toBeGreaterThanOrEqual(0.7);
  });

  it('with only its requirements.txt (the recorded tree without pyproject.toml, as many Python servers ship): the same dependency set, never "no manifest"', async () => {
    const record = recordOf(WORD);
    const recorded = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'github', 'repos', WORD, 'git', 'trees', `${record.recordedCommit.tree}.json`), 'utf8')) as { tree: { path: string }[] };
    const tree = { ...recorded, tree: recorded.tree.filter((e) => e.path !== 'pyproject.toml') };
    const { report, osvEcosystems } = await checkJson(WORD, { license: 'MIT', override: { [`/git/trees/${record.defaultBranch}`]: { body: tree } } }, published);
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ messageId: 'repository-clean-ranges', evidence: { rangeFiles: 'requirements.txt', dependenciesQueried: 2 } });
    expect(checkOf(report, 'malicious-package')).toMatchObject({ status: 'unknown', messageId: 'repository-direct-only' });
    expect(osvEcosystems).toEqual(['PyPI']);
  });

  it('a registry that does not know the requirements leaves the dependency checks unknown, never clean', async () => {
    const { report } = await checkJson(WORD, { license: 'MIT' }, { pypi: { 'office-word-mcp-server': 'https://github.com/GongRzhe/Office-Word-MCP-Server' } });
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ status: 'unknown', score: null });
    expect(checkOf(report, 'malicious-package')).toMatchObject({ status: 'unknown', messageId: 'repository-unchecked' });
  });
});

describe('a Rust MCP server (rust-mcp-stack/rust-mcp-filesystem): Cargo.toml + Cargo.lock only, an npm installer package advertised', () => {
  const RUST = 'rust-mcp-stack/rust-mcp-filesystem';
  it('its Cargo.lock is the dependency set: 188 crates asked of OSV in one batch, none with an advisory → a clean bill, never "no manifest"', async () => {
    const { report, paths, osvEcosystems } = await checkJson(RUST, { license: 'MIT', stars: 150 }, { npm: { '@rustmcp/rust-mcp-filesystem': 'https://github.com/rust-mcp-stack/rust-mcp-filesystem' } });
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ status: 'pass', score: 100, messageId: 'repository-clean', evidence: { total: 188, dependenciesQueried: 188 } });
    expect(checkOf(report, 'malicious-package')).toMatchObject({ status: 'pass', score: 100, messageId: 'clean-repository' });
    expect(osvEcosystems).toEqual(['crates.io']);
    expect(paths.filter((p) => p === '/osv/v1/querybatch')).toHaveLength(1);
    // Its README's npm installer (built by its release tooling) links here, but no package.json names it: unconfirmed, looked up once.
    expect(report.distribution?.packages).toEqual([
      expect.objectContaining({ ecosystem: 'npm', name: '@rustmcp/rust-mcp-filesystem', status: 'unconfirmed', reasonCode: 'not-named', declared: false }),
    ]);
    expect(paths.filter((p) => p.startsWith('/npm/'))).toEqual(['/npm/@rustmcp%2frust-mcp-filesystem']);
    expect(checkOf(report, 'advertised-packages')).toMatchObject({ score: 70, messageId: 'unconfirmed' });
    // Documentation, policy and licence from its own files.
    expect(checkOf(report, 'changelog')).toMatchObject({ score: 100, messageId: 'present-repository', evidence: { path: 'CHANGELOG.md' } });
    expect(checkOf(report, 'readme')).toMatchObject({ messageId: 'good', evidence: { docsFolder: true, source: 'repository' } });
    expect(checkOf(report, 'security-policy')).toMatchObject({ score: 100, messageId: 'channel', evidence: { channelKind: "GitHub's private vulnerability reporting" } });
    expect(checkOf(report, 'license-file')).toMatchObject({ messageId: 'consistent', evidence: { found: ['MIT'] } });
    expect(report.category?.id).toBe('mcp-server');
    expect(checkOf(report, 'project-maturity')).toMatchObject({ messageId: 'established', evidence: { commits: 138 } });
    for (const id of ['security', 'maintenance', 'documentation', 'compliance', 'community']) expect(dimension(report, id)?.score, id).not.toBeNull();
    // Coverage 0.843 (0.703 while its crates were unevaluated; the contributors unknown, no account recorded for its commits); the dependency checks no longer hold the verdict.
    expect(report.coverage).toBeGreaterThanOrEqual(0.8);
    expect(report.verdictReasonDetails.map((r) => r.code)).not.toContain('danger-unchecked');
  });

  // A synthesised OSV answer shaped as an OSV crates.io record, for one of Cargo.lock's real
  // pins: memchr 2.8.3, which the project reaches only through other crates.
  it('a HIGH advisory on a transitive crate is a finding with its id, dependency path and fix', async () => {
    const advisory = osvRecord('RUSTSEC-2099-0001', 'memchr', '2.0.0', '2.99.0', 'HIGH', 'crates.io');
    const { report } = await checkJson(RUST, { license: 'MIT', osv: [advisory] }, {});
    const check = checkOf(report, 'vulnerable-dependencies');
    expect(check).toMatchObject({ status: 'warn', score: 40, messageId: 'repository-vulnerable', evidence: { ids: ['RUSTSEC-2099-0001'], worst: 'high' } });
    expect(check?.evidence.details).toEqual([expect.stringMatching(/^\S+( › \S+)* › memchr@2\.8\.3 \(RUSTSEC-2099-0001 fixed in 2\.99\.0\)$/)]);
    expect(report.advisories).toEqual([expect.objectContaining({ id: 'RUSTSEC-2099-0001', package: 'memchr', version: '2.8.3', fixed: '2.99.0', severity: 'high' })]);
  });

  it('an advisory only on its dev-dependency tempfile weighs as development only', async () => {
    const advisory = osvRecord('RUSTSEC-2099-0002', 'tempfile', '3.0.0', '3.99.0', 'HIGH', 'crates.io');
    const { report } = await checkJson(RUST, { license: 'MIT', osv: [advisory] }, {});
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ score: 80, messageId: 'repository-dev-only', evidence: { devIds: ['RUSTSEC-2099-0002'], ids: [] } });
  });

  it('OSV failing: both dependency checks unknown, never clean', async () => {
    const { report } = await checkJson(RUST, { license: 'MIT', osvStatus: 503 }, {});
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ status: 'unknown', score: null });
    expect(checkOf(report, 'malicious-package')).toMatchObject({ status: 'unknown', score: null });
    expect(report.verdictReasonDetails.map((r) => r.code)).toContain('danger-unchecked');
  });
});
