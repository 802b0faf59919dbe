/**
 * `github:owner/repo` targets scored from the repository's own files, in process (the use case a
 * front door calls) against the fixture server replaying recorded public repositories
 * (fixtures/github-repos, fixtures/http/github/repos) with the answers the recordings lack
 * synthesised (test/repository/recorded-repos.ts). Faults — a 404 on a file, a truncated tree,
 * an answer without optional keys, a failing tree — make only the signals they feed unknown.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { checkTargets } from '../../src/app/check.js';
import { createRuntime } from '../../src/app/runtime.js';
import type { Evidence } from '../../src/evidence/schema.js';
import type { Report } from '../../src/report/schema.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { parseTarget } from '../../src/target/parse.js';
import { NO_MANIFEST } from '../../src/sources/github/repo-dependencies.js';
import { VERIFY_READ_BUDGET } from '../../src/sources/github/tree-file-source.js';
import { FIXTURES_ROOT, type FixtureResponse, type FixtureServer } from '../support/fixture-server.js';
import { cliEnv } from '../support/run-cli.js';
import { evidenceFromJson, rescoreEvidence } from '../../src/app/score.js';
import { renderJson } from '../../src/render/json.js';
import { NO_TOKEN_TAG_DATES } from '../../src/sources/github/tag-dates.js';
import {
  osvRecord,
  PUBLISHED,
  RECORDED_CASES,
  useRepositoryHarness,
  recordOf,
  repoAnswer,
  serveRecordedGraphql,
  serveRecordedRepo,
  servePublished,
  tagDatesAnswer,
  type PublishedPackages,
  type ServeRecordedOptions,
} from './recorded-repos.js';

const harness = useRepositoryHarness();
const runtimes = harness.runtimes;
let server: FixtureServer;
let home: string;
beforeEach(() => {
  ({ server, home } = harness);
});


/** Check `github:<fullName>` as of `now` (default: the day after the recorded commit). */
async function check(fullName: string, options: ServeRecordedOptions & { published?: PublishedPackages; token?: string }, now?: Date): Promise<{ report: Report; requests: number; evidence: Evidence }> {
  serveRecordedRepo(server, fullName, options);
  const published = options.published ?? PUBLISHED[fullName] ?? {};
  servePublished(server, published);
  // A PyPI project's link is verified by its pyproject.toml, setup.cfg or setup.py: GitHub answers 404 for the two it lacks.
  if (Object.keys(published.pypi ?? {}).length > 0) {
    for (const file of ['setup.cfg', 'setup.py']) server.expect('GET', `/github/repos/${fullName}/contents/${file}`, { status: 404 });
  }
  const at = now ?? new Date(new Date(recordOf(fullName).recordedCommit.committerDate).getTime() + 86_400_000);
  const runtime = createRuntime({ env: cliEnv(home, { server, env: { NERQ_NOW: at.toISOString(), ...(options.token === undefined ? {} : { GITHUB_TOKEN: options.token }) } }), cwd: home, clock: () => at });
  runtimes.push(runtime);
  const [outcome] = await checkTargets(runtime, { targets: [parseTarget(`github:${fullName}`)], gate: DEFAULT_GATE });
  if (outcome === undefined) throw new Error('no outcome');
  if (outcome.evidence === undefined || outcome.evidence === null) throw new Error('no evidence');
  return { report: outcome.report, evidence: outcome.evidence, requests: server.requests.filter((r) => r.path.startsWith('/github/')).length };
}

const dimension = (report: Report, id: string) => report.dimensions.find((d) => d.id === id);
const recordedCase = (repo: string) => {
  const found = RECORDED_CASES[repo];
  if (found === undefined) throw new Error(`no recorded case ${repo}`);
  return found;
};
const checkOf = (report: Report, id: string) => report.checks.find((c) => c.id === id);

const CODE_RUNNER = 'formulahendry/mcp-server-code-runner';

describe('a young, single-maintainer MCP server that runs code (formulahendry/mcp-server-code-runner)', () => {
  it('is no longer YES with documentation and compliance unknown: both known, 16 days of history a finding, two categories', async () => {
    const { report, requests } = await check(CODE_RUNNER, { license: 'MIT', stars: 230 });
    expect(report.verdictCode).not.toBe('yes');
    expect(report.coverage).toBeGreaterThanOrEqual(0.7);
    for (const id of ['security', 'maintenance', 'documentation', 'compliance', 'community']) expect(dimension(report, id)?.score, id).not.toBeNull();
    expect(report.category).toEqual({
      id: 'code-execution',
      reason: 'keyword "code-runner"',
      matches: [
        { id: 'code-execution', reason: 'keyword "code-runner"' },
        { id: 'mcp-server', reason: 'keywords "mcp" and "server"' },
      ],
    });
    // Its age from both clocks: created (synthesised from the first commit) and the first commit of its 24 (recorded history).
    expect(checkOf(report, 'project-maturity')).toMatchObject({
      messageId: 'too-young',
      score: 20,
      evidence: { days: 16, tags: '0', firstCommitAt: '2025-03-19T11:22:57.000Z', commits: 24, historyDays: 16 },
    });
    expect(report.verdictReasonDetails.map((r) => r.code)).toContain('verdict-held');
    expect(checkOf(report, 'readme')).toMatchObject({ messageId: 'good', evidence: { path: 'README.md', source: 'repository' } });
    expect(checkOf(report, 'license-file')).toMatchObject({ messageId: 'consistent', evidence: { files: ['LICENSE'], found: ['MIT'], declared: 'MIT' } });
    expect(checkOf(report, 'license-consistency')).toMatchObject({ messageId: 'consistent', evidence: { declared: 'MIT', repositoryLicense: 'MIT' } });
    expect(checkOf(report, 'changelog')).toMatchObject({ messageId: 'missing-repository', score: 40 });
    // 6 for the repository (repo, commits, releases, issues, community, root listing) + tree, tags,
    // the history's two commit listings (24 commits, two to a page: the first and the 12th), README, LICENSE, package.json.
    expect(requests).toBe(14);
  });

  it('31 version tags in its first two weeks: the churn is in the evidence, per week', async () => {
    const tags = Array.from({ length: 31 }, (_, i) => ({ name: `v0.1.${i}`, commit: { sha: `${i}`.padStart(40, '0') } }));
    const { report } = await check(CODE_RUNNER, { license: 'MIT', override: { '/tags': { body: tags } } }, new Date('2025-04-02T12:00:00Z'));
    expect(checkOf(report, 'project-maturity')).toMatchObject({ messageId: 'too-young', evidence: { days: 14, tags: '31', perWeek: 15.5 } });
  });

  it('a 404 on LICENSE leaves only the licence-file text unrecognised; the README still counts', async () => {
    const { report } = await check(CODE_RUNNER, { license: 'MIT', override: { '/contents/LICENSE': { status: 404 } } });
    expect(checkOf(report, 'license-file')).toMatchObject({ messageId: 'unrecognised', evidence: { files: ['LICENSE'], found: [] } });
    expect(checkOf(report, 'readme')?.messageId).toBe('good');
  });

  it('a 404 on the README makes the README unknown, never missing', async () => {
    const { report } = await check(CODE_RUNNER, { license: 'MIT', override: { '/contents/README.md': { status: 404 } } });
    expect(checkOf(report, 'readme')).toMatchObject({ score: null, messageId: 'unreadable' });
    expect(checkOf(report, 'license-file')?.messageId).toBe('consistent');
  });

  it('a truncated tree: what it does not list is unknown, what it lists stands', async () => {
    const record = recordOf(CODE_RUNNER);
    const tree = { sha: record.recordedCommit.tree, truncated: true, tree: [{ path: 'package.json', type: 'blob', size: 600 }] };
    const { report } = await check(CODE_RUNNER, { license: 'MIT', override: { [`/git/trees/${record.defaultBranch}`]: { body: tree } } });
    expect(checkOf(report, 'readme')).toMatchObject({ score: null, messageId: 'unreadable' });
    expect(checkOf(report, 'changelog')).toMatchObject({ score: null, messageId: 'unreadable' });
    expect(checkOf(report, 'license-file')).toMatchObject({ score: null, messageId: 'unreadable' });
    expect(report.category?.id).toBe('code-execution');
  });

  it('a truncated tree that lists no manifest: the dependency checks unknown (the manifests may be past the cut), never not applicable', async () => {
    const record = recordOf(CODE_RUNNER);
    const tree = { sha: record.recordedCommit.tree, truncated: true, tree: [{ path: 'src/index.ts', type: 'blob', size: 600 }] };
    const { report } = await check(CODE_RUNNER, { license: 'MIT', override: { [`/git/trees/${record.defaultBranch}`]: { body: tree } } });
    for (const id of ['vulnerable-dependencies', 'malicious-package']) {
      expect(checkOf(report, id)).toMatchObject({ score: null, status: 'unknown' });
    }
  });

  it('a lockfile pinning a package from another host than the public registry: the dependency checks never clean, the file and host named', async () => {
    const recorded = readFileSync(path.join(FIXTURES_ROOT, 'github/repos', CODE_RUNNER, 'contents/package-lock.json'), 'utf8');
    const lock = recorded.replace('{{REGISTRY}}', 'https://evil.example');
    expect(lock).not.toBe(recorded);
    const { report, evidence } = await check(CODE_RUNNER, { license: 'MIT', override: { '/contents/package-lock.json': { body: lock } } });
    const deps = evidence.sources.dependencies;
    expect(deps.status === 'ok' && deps.facts.unevaluated).toEqual([{ file: 'package-lock.json', ecosystem: 'npm from another registry (evil.example)' }]);
    for (const id of ['vulnerable-dependencies', 'malicious-package']) expect(checkOf(report, id)).toMatchObject({ score: null, status: 'unknown' });
  });

  it('a tree that fails makes the repository files unknown, with the reason; the repository checks stand', async () => {
    const record = recordOf(CODE_RUNNER);
    const { report } = await check(CODE_RUNNER, { license: 'MIT', override: { [`/git/trees/${record.defaultBranch}`]: { status: 500 } } });
    for (const id of ['readme', 'changelog', 'license-file', 'project-maturity']) expect(checkOf(report, id), id).toMatchObject({ score: null, status: 'unknown' });
    expect(checkOf(report, 'commit-activity')?.score).not.toBeNull();
  });

  it('an older GitHub Enterprise answer without topics, visibility and license: only the licence comparison is unknown', async () => {
    expect(repoAnswer(CODE_RUNNER, { license: 'MIT', omit: ['topics', 'visibility', 'license'] })).not.toHaveProperty('topics');
    const { report } = await check(CODE_RUNNER, { license: 'MIT', omit: ['topics', 'visibility', 'license'] });
    expect(checkOf(report, 'license-consistency')).toMatchObject({ score: null, messageId: 'detection-unknown' });
    // The LICENSE text is compared with package.json's licence instead.
    expect(checkOf(report, 'license-file')?.messageId).toBe('consistent');
    expect(report.category?.id).toBe('code-execution');
  });
});

describe('the other recorded repositories', () => {
  it('a mature MCP server from a well-known organisation (microsoft/playwright-mcp)', async () => {
    const { report, requests } = await check('microsoft/playwright-mcp', { license: 'Apache-2.0', stars: 20_000, topics: ['mcp', 'playwright'] });
    expect(report.category?.id).toBe('mcp-server');
    expect(report.coverage).toBeGreaterThanOrEqual(0.7);
    for (const id of ['documentation', 'compliance']) expect(dimension(report, id)?.score, id).not.toBeNull();
    expect(checkOf(report, 'license-consistency')?.messageId).toBe('consistent');
    // 16 before its 2 workflows were read (one request each without a token).
    expect(requests).toBeLessThanOrEqual(18);
  });

  it('a Python MCP server: pyproject.toml read as its manifest (blazickjp/arxiv-mcp-server)', async () => {
    const { report } = await check('blazickjp/arxiv-mcp-server', { license: 'Apache-2.0' });
    expect(report.category?.matches ?? [report.category]).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'mcp-server' })]));
    expect(report.coverage).toBeGreaterThanOrEqual(0.7);
    expect(checkOf(report, 'license-file')?.messageId).toBe('consistent');
  });

  it('a list of links with no manifest or code (wong2/awesome-mcp-servers) is no MCP server though its title says "MCP Servers"', async () => {
    const { report } = await check('wong2/awesome-mcp-servers', { license: 'MIT' });
    expect(report.category?.id).toBe('library');
    expect(report.category?.reason).toMatch(/^a list of links: \d+ of the README's \d+ lines/);
    expect(report.category?.matches).toBeUndefined();
  });

  it('the same list beside a package.json (edited tree): a project with a manifest is judged by its words again', async () => {
    const manifest = JSON.stringify({ name: 'awesome-mcp-servers', version: '1.0.0', license: 'MIT' });
    const tree = editedTree('wong2/awesome-mcp-servers', (entries) => {
      entries.push({ path: 'package.json', mode: '100644', type: 'blob', sha: '6'.repeat(40), size: manifest.length } as { path: string; size: number });
    });
    const { report } = await check('wong2/awesome-mcp-servers', { license: 'MIT', override: { '/git/trees/main': { body: tree }, '/contents/package.json': { body: manifest } } });
    expect(report.category?.id).toBe('mcp-server');
  });

  it('a repository with no manifest at all: the LICENSE against the detected licence (wong2/awesome-mcp-servers)', async () => {
    const { report } = await check('wong2/awesome-mcp-servers', { license: 'MIT' });
    expect(checkOf(report, 'license-file')).toMatchObject({ messageId: 'consistent', evidence: { declared: 'MIT' } });
    expect(checkOf(report, 'license-consistency')?.messageId).toBe('consistent');
    expect(dimension(report, 'documentation')?.score).not.toBeNull();
    expect(report.coverage).toBeGreaterThanOrEqual(0.7);
  });
});

describe('repositories unlike the first nine: a Poetry-only Python server, a Rust tool with three licence files, a README-deprecated repository', () => {
  it('a pyproject.toml with [tool.poetry] and no [project] is its manifest: poetry.lock pins the dependencies (ian1roberts/mcp_server)', async () => {
    // `pip install mcp-server` in its README names a project it does not publish: not served (404).
    const { report, requests } = await check('ian1roberts/mcp_server', { license: 'MIT', stars: 1 });
    expect(report.category?.id).toBe('mcp-server');
    expect(report.coverage).toBeGreaterThanOrEqual(0.7);
    for (const id of ['security', 'maintenance', 'documentation', 'compliance', 'community']) expect(dimension(report, id)?.score, id).not.toBeNull();
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ status: 'pass', messageId: 'repository-clean', evidence: { total: 53, dependenciesQueried: 53, unresolved: [] } });
    expect(checkOf(report, 'malicious-package')).toMatchObject({ messageId: 'clean-repository', evidence: { dependenciesChecked: true } });
    expect(checkOf(report, 'license-file')).toMatchObject({ messageId: 'consistent', evidence: { files: ['LICENSE'], declared: 'MIT' } });
    // Four days of history and one tag hold it.
    expect(checkOf(report, 'project-maturity')).toMatchObject({ messageId: 'too-young', evidence: { days: 4, commits: 7, tags: '1' } });
    expect(report.verdictCode).toBe('caution');
    expect(report.verdictReasonDetails.map((r) => r.args?.check)).toEqual(['advertised-packages', 'project-maturity']);
    // 6 for the repository + tree, tags, two commit listings, README, LICENSE, pyproject.toml, poetry.lock.
    expect(requests).toBe(14);
  });

  it('COPYING, LICENSE-MIT and UNLICENSE: all three read, either licence matches the detected Unlicense (BurntSushi/ripgrep)', async () => {
    const { report, requests } = await check('BurntSushi/ripgrep', { license: 'Unlicense', stars: 50_000 });
    expect(checkOf(report, 'license-file')).toMatchObject({ score: 100, messageId: 'consistent', evidence: { files: ['COPYING', 'LICENSE-MIT', 'UNLICENSE'], found: ['MIT', 'Unlicense'] } });
    // Its root Cargo.toml declares `Unlicense OR MIT`: that declaration, not the files, is compared.
    expect(checkOf(report, 'license-consistency')).toMatchObject({ score: 100, messageId: 'consistent', evidence: { declared: 'Unlicense OR MIT', declaredIds: ['Unlicense', 'MIT'], repositoryLicense: 'Unlicense' } });
    expect(checkOf(report, 'license-file')).toMatchObject({ evidence: { declared: 'Unlicense OR MIT' } });
    expect(dimension(report, 'compliance')?.score).toBe(100);
    // Its Cargo.lock files pin the crates it builds with; the history on `master` dates it.
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ messageId: 'repository-clean', evidence: { total: 71 } });
    expect(checkOf(report, 'project-maturity')).toMatchObject({ messageId: 'established', evidence: { commits: 2287, firstCommitAt: '2016-02-27T16:07:26.000Z' } });
    expect(checkOf(report, 'commit-activity')?.evidence).toMatchObject({ branch: 'master' });
    // A Rust command (its binary's crates/core/main.rs), not a library.
    expect(report.category).toEqual({ id: 'cli', reason: 'ships a command' });
    // 6 for the repository + tree, .github tree, tags, two commit listings, README, 3 licence files, 2 Cargo.lock, 2 Cargo.toml, 2 workflows.
    expect(requests).toBe(21);
  });

  it('a README that declares the repository deprecated and moved holds the verdict though GitHub has not archived it (Rishirandhawa/mcp-rust-sdk)', async () => {
    const { report, evidence } = await check('Rishirandhawa/mcp-rust-sdk', { license: 'MIT', stars: 5 });
    expect(checkOf(report, 'repository-archived')).toMatchObject({ score: 20, messageId: 'readme-declared', evidence: { archived: false, readmeDeclared: true, where: 'title' } });
    expect(report.verdictReasonDetails.map((r) => r.args?.check)).toContain('repository-archived');
    expect(report.verdictCode).not.toBe('yes');
    // Its SECURITY.md names template addresses only.
    expect(checkOf(report, 'security-policy')).toMatchObject({ messageId: 'dangling', evidence: { placeholders: expect.arrayContaining(['your-security-email@example.com']) } });
    // Its Cargo.toml without Cargo.lock: the 24 direct requirements resolved as cargo would against the
    // recorded crates.io index files (fixtures/http/crates-index), direct only; `axum = "0.7"` matches
    // no version those files hold and stays unresolved, named — never counted clean.
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({
      score: 100,
      messageId: 'repository-clean-ranges',
      evidence: { total: 24, rangeResolved: 23, unresolved: ['axum'], directOnly: true, rangeFiles: 'Cargo.toml' },
    });
    const deps = evidence.sources.dependencies;
    const resolved = deps.status === 'ok' ? Object.fromEntries(deps.facts.dependencies.map((d) => [`${d.name}@${d.range}`, d.version])) : {};
    // Caret on 0.x and 1.x, the highest non-yanked match (tokio-stream 0.1.13 is yanked), dev dependencies too.
    expect(resolved).toMatchObject({ 'tokio@1.35': '1.48.0', 'reqwest@0.11': '0.11.27', 'tower-http@0.5': '0.5.2', 'thiserror@1.0': '1.0.61', 'tokio-stream@0.1': '0.1.15', 'tempfile@3.8': '3.10.1', 'axum@0.7': null });
    expect(deps.status === 'ok' && deps.facts.unevaluated).toBeUndefined();
    // The Cargo.toml no Cargo.lock pins is still read for its `license = "MIT"`.
    expect(checkOf(report, 'license-consistency')).toMatchObject({ score: 100, messageId: 'consistent', evidence: { declared: 'MIT', repositoryLicense: 'MIT' } });
    for (const id of ['security', 'maintenance', 'documentation', 'compliance', 'community']) expect(dimension(report, id)?.score, id).not.toBeNull();
  });
});

describe('a Cargo workspace and a Gradle build of one organisation (modelcontextprotocol/rust-sdk, modelcontextprotocol/kotlin-sdk)', () => {
  it('the workspace root Cargo.toml declares the licence (`[workspace.package] license`): compared though GitHub cannot identify the licence file', async () => {
    const { report, requests, evidence } = await check('modelcontextprotocol/rust-sdk', { license: 'NOASSERTION', stars: 2500, cratesIndexRecords: 'crates-index-2026' });
    expect(checkOf(report, 'license-file')).toMatchObject({ score: 100, messageId: 'consistent', evidence: { files: ['LICENSE'], declared: 'Apache-2.0', found: expect.arrayContaining(['Apache-2.0', 'MIT']) } });
    expect(checkOf(report, 'license-consistency')).toMatchObject({ score: null, messageId: 'repository-unrecognised', evidence: { declared: 'Apache-2.0' } });
    expect(dimension(report, 'compliance')?.score).toBe(100);
    // Its Cargo.toml files are pinned by no Cargo.lock: the members' requirements (`workspace = true`
    // from the root's [workspace.dependencies]) resolved against the recorded crates.io index files,
    // the newer ones of fixtures/http/crates-index-2026 where they exist (thiserror 2, hyper 1 …).
    // Those no recorded file matches (releases after the newest recorded index: syn 3, darling 0.24 …)
    // stay unresolved and named; the path dependencies are named.
    const vulnerable = checkOf(report, 'vulnerable-dependencies');
    expect(vulnerable).toMatchObject({ messageId: 'repository-clean-ranges', evidence: { total: 50, rangeResolved: 36, directOnly: true } });
    expect(vulnerable?.evidence?.unresolved).toEqual(expect.arrayContaining(['syn', 'darling', 'hyper-util', 'chrono']));
    expect(vulnerable?.evidence?.unresolved).not.toContain('thiserror');
    const deps = evidence.sources.dependencies;
    expect(deps.status === 'ok' && deps.facts.rangeLookups).toEqual({ used: 40, limit: 40 });
    expect(deps.status === 'ok' && deps.facts.unvouched).toEqual([
      'conformance/Cargo.toml: "rmcp" skipped: a local path ("../crates/rmcp"), not resolved',
      'crates/rmcp/Cargo.toml: "rmcp-macros" skipped: a local path ("./crates/rmcp-macros", from the workspace root), not resolved',
    ]);
    const byName = deps.status === 'ok' ? deps.facts.dependencies : [];
    // Beyond the 40 lookups a repository may spend: unresolved with the reason.
    expect(byName.find((d) => d.name === 'hyper-util')).toMatchObject({ version: null, reason: 'not resolved: more than 40 registry lookups per repository' });
    // Caret requirements on 1.x, 2.x and 0.x resolved to the highest non-yanked match of the newer files.
    const resolved = Object.fromEntries(byName.map((d) => [`${d.name}@${d.range}`, d.version]));
    expect(resolved).toMatchObject({ 'thiserror@2': '2.0.18', 'hyper@1': '1.8.1', 'reqwest@0.13': '0.13.1', 'reqwest@0.13.2': null, 'pastey@0.2.0': '0.2.1', 'oauth2@5.0': '5.0.0', 'schemars@1.1.0': '1.2.0', 'process-wrap@9.0': '9.0.1', 'which@8': '8.0.0' });
    // A requirement only pre-releases match (rand 0.10.0-rc.8, hmac 0.13.0-pre.5) is not resolved to one.
    expect(byName.find((d) => d.name === 'rand')).toMatchObject({ version: null, reason: 'no published version matches 0.10' });
    expect(byName.find((d) => d.name === 'hmac')).toMatchObject({ version: null, reason: 'no published version matches 0.13' });
    expect(report.verdictReasonDetails.map((r) => r.code)).toContain('danger-unchecked');
    expect(report.category?.id).toBe('mcp-server');
    // No changelog at the root: the one beside a published member crate's Cargo.toml, from the listing (no request more).
    expect(checkOf(report, 'changelog')).toMatchObject({ score: 100, messageId: 'present-repository', evidence: { path: 'crates/rmcp/CHANGELOG.md' } });
    // 4 + README, LICENSE, the root Cargo.toml (for its licence and workspace dependencies), SECURITY.md, 7 workflows,
    // and the listing's .github tree; one more: its SECURITY.md's only channel is private reporting, which GitHub is
    // asked about; and the three published member crates' Cargo.toml files no Cargo.lock pins.
    expect(requests).toBe(26);
    expect(checkOf(report, 'security-policy')).toMatchObject({ score: 100, messageId: 'channel', evidence: { channelKind: "GitHub's private vulnerability reporting" } });
  });

  it('a Gradle build declares no licence nerq reads: the licence file is not compared (70), never "undeclared"; the MCP inspector of the same owner is a sibling, not an impostor', async () => {
    const { report, requests, evidence } = await check('modelcontextprotocol/kotlin-sdk', {
      license: 'NOASSERTION',
      stars: 1000,
      published: { npm: { '@modelcontextprotocol/inspector': 'https://github.com/modelcontextprotocol/inspector' } },
    });
    expect(checkOf(report, 'license-file')).toMatchObject({ score: 70, messageId: 'not-compared', evidence: { declared: null } });
    // Nothing of its own is advertised: the check is left out (it scored 0 and held the verdict when the scope alone claimed the project).
    expect(checkOf(report, 'advertised-packages')).toBeUndefined();
    expect(report.verdictReasonDetails.map((r) => r.args?.check)).not.toContain('advertised-packages');
    // Its Gradle version catalog (gradle/libs.versions.toml) gives the 37 libraries the build declares, at
    // the versions it declares: direct only, no lockfile — known for advisories, never "clean" for malicious packages.
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ score: 100, messageId: 'repository-clean-ranges', evidence: { total: 37, rangeResolved: 37, directOnly: true, rangeFiles: 'gradle/libs.versions.toml' } });
    expect(checkOf(report, 'malicious-package')).toMatchObject({ score: null, messageId: 'repository-direct-only', evidence: { rangeResolved: 37, rangeFiles: 'gradle/libs.versions.toml' } });
    const deps = evidence.sources.dependencies;
    expect(deps.status === 'ok' && deps.facts.unevaluated).toBeUndefined();
    const byName = deps.status === 'ok' ? Object.fromEntries(deps.facts.dependencies.map((d) => [d.name, d])) : {};
    expect(byName['io.ktor:ktor-server-core']).toMatchObject({ ecosystem: 'maven', version: '3.5.1', range: '3.5.1', path: [], file: 'gradle/libs.versions.toml' });
    expect(byName['io.netty:netty-bom']).toMatchObject({ ecosystem: 'maven', version: '4.2.16.Final' });
    // The catalog is one request more than the listing-only Gradle build (25).
    expect(requests).toBe(26);
    for (const id of ['security', 'maintenance', 'documentation', 'compliance', 'community']) expect(dimension(report, id)?.score, id).not.toBeNull();
    expect(report.verdictCode).toBe('caution');
  });
});

describe('a Maven advisory in a Gradle version catalog (modelcontextprotocol/kotlin-sdk, its catalog with one library more)', () => {
  const KOTLIN = 'modelcontextprotocol/kotlin-sdk';
  const CATALOG = readFileSync(path.join(FIXTURES_ROOT, 'github', 'repos', KOTLIN, 'contents', 'gradle', 'libs.versions.toml'), 'utf8');
  /**
   * GHSA-jjjh-jjxp-wpff (CVE-2022-42003, jackson-databind deep wrapper array nesting) in OSV's
   * schema: Maven ranges with ECOSYSTEM events, the 2.13 line fixed in the micro-patch 2.13.4.2.
   */
  const JACKSON = {
    schema_version: '1.7.3',
    id: 'GHSA-jjjh-jjxp-wpff',
    aliases: ['CVE-2022-42003'],
    modified: '2026-01-01T00:00:00Z',
    published: '2022-10-03T00:00:00Z',
    summary: 'Uncontrolled Resource Consumption in Jackson-databind',
    details: 'In FasterXML jackson-databind before versions 2.13.4.1 and 2.12.17.1, resource exhaustion can occur because of a lack of a check in primitive value deserializers.',
    severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H' }],
    affected: [
      {
        package: { ecosystem: 'Maven', name: 'com.fasterxml.jackson.core:jackson-databind', purl: 'pkg:maven/com.fasterxml.jackson.core/jackson-databind' },
        ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '2.13.0' }, { fixed: '2.13.4.2' }] }],
      },
      {
        package: { ecosystem: 'Maven', name: 'com.fasterxml.jackson.core:jackson-databind', purl: 'pkg:maven/com.fasterxml.jackson.core/jackson-databind' },
        ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '2.12.7.1' }] }],
      },
    ],
    database_specific: { severity: 'HIGH', github_reviewed: true },
  };
  const withLibrary = (line: string) => ({ '/contents/gradle/libs.versions.toml': { body: CATALOG.replace('[plugins]', `${line}\n\n[plugins]`) } });

  it('a runtime library at an affected version: a finding with the fix version, in the report\'s advisories', async () => {
    const { report } = await check(KOTLIN, {
      license: 'NOASSERTION',
      stars: 1000,
      osv: [JACKSON],
      override: withLibrary('jackson-databind = { module = "com.fasterxml.jackson.core:jackson-databind", version = "2.13.4" }'),
      published: { npm: { '@modelcontextprotocol/inspector': 'https://github.com/modelcontextprotocol/inspector' } },
    });
    const finding = checkOf(report, 'vulnerable-dependencies');
    expect(finding).toMatchObject({ messageId: 'repository-vulnerable', evidence: { worst: 'high', ids: ['GHSA-jjjh-jjxp-wpff'], directOnly: true } });
    expect(report.advisories).toEqual([
      expect.objectContaining({ id: 'GHSA-jjjh-jjxp-wpff', package: 'com.fasterxml.jackson.core:jackson-databind', ecosystem: 'maven', version: '2.13.4', fixed: '2.13.4.2', affectsResolved: true }),
    ]);
  });

  it('the fix is the lowest fixed version above the declared one in Maven order (2.12.7 → the micro-patch 2.12.7.1); a version range is unresolved, never guessed', async () => {
    const { report, evidence } = await check(KOTLIN, {
      license: 'NOASSERTION',
      stars: 1000,
      osv: [JACKSON],
      override: withLibrary('jackson-databind = "com.fasterxml.jackson.core:jackson-databind:2.12.7"\njackson-core = { module = "com.fasterxml.jackson.core:jackson-core", version = { strictly = "[2.13,2.14)" } }'),
      published: { npm: { '@modelcontextprotocol/inspector': 'https://github.com/modelcontextprotocol/inspector' } },
    });
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ messageId: 'repository-vulnerable', evidence: { total: 39, unresolved: ['com.fasterxml.jackson.core:jackson-core'] } });
    expect(report.advisories).toEqual([expect.objectContaining({ id: 'GHSA-jjjh-jjxp-wpff', version: '2.12.7', fixed: '2.12.7.1' })]);
    const deps = evidence.sources.dependencies;
    const core = deps.status === 'ok' ? deps.facts.dependencies.find((d) => d.name === 'com.fasterxml.jackson.core:jackson-core') : undefined;
    expect(core).toMatchObject({ version: null, range: 'strictly [2.13,2.14)', reason: expect.stringMatching(/^a version range/) });
  });
  it('a catalog that is not TOML: the dependency set is unavailable with the reason naming the file, never a crash or a clean answer', async () => {
    const { report, evidence } = await check(KOTLIN, {
      license: 'NOASSERTION',
      stars: 1000,
      override: { '/contents/gradle/libs.versions.toml': { body: '[libraries]\nx = { module = "a:b", version = \n' } },
      published: { npm: { '@modelcontextprotocol/inspector': 'https://github.com/modelcontextprotocol/inspector' } },
    });
    expect(evidence.sources.dependencies).toMatchObject({ status: 'unavailable', code: 'unreadable-file', reason: expect.stringMatching(/^gradle\/libs\.versions\.toml/) });
    expect(checkOf(report, 'vulnerable-dependencies')?.score).toBeNull();
    expect(checkOf(report, 'malicious-package')?.score).toBeNull();
  });
});

describe('a Maven build: pom.xml files (modelcontextprotocol/java-sdk\'s root pom and one module, served in a recorded repository with no manifest)', () => {
  const REAL = path.join(FIXTURES_ROOT, '..', 'lockfiles', 'real', 'modelcontextprotocol__java-sdk');
  const ROOT_POM = readFileSync(path.join(REAL, 'pom.xml'), 'utf8');
  const MODULE_POM = readFileSync(path.join(REAL, 'mcp-json-jackson2', 'pom.xml'), 'utf8');
  const REPO = 'wong2/awesome-mcp-servers';
  const tree = () =>
    editedTree(REPO, (entries) => {
      entries.push({ path: 'pom.xml', mode: '100644', type: 'blob', sha: '1'.repeat(40), size: ROOT_POM.length } as { path: string; size: number });
      entries.push({ path: 'mcp-json-jackson2', mode: '040000', type: 'tree', sha: '2'.repeat(40) } as { path: string });
      entries.push({ path: 'mcp-json-jackson2/pom.xml', mode: '100644', type: 'blob', sha: '3'.repeat(40), size: MODULE_POM.length } as { path: string; size: number });
    });
  const override = () => ({ '/git/trees/main': { body: tree() }, '/contents/pom.xml': { body: ROOT_POM }, '/contents/mcp-json-jackson2/pom.xml': { body: MODULE_POM } });

  it('the module\'s versions come from the parent\'s properties; a test-scope dependency\'s advisory is reported apart as dev', async () => {
    const osv = [osvRecord('GHSA-synt-0003-0003', 'org.assertj:assertj-core', '3.0.0', '3.28.0', 'HIGH', 'Maven')];
    const { report, evidence } = await check(REPO, { license: 'MIT', osv, override: override() });
    const deps = evidence.sources.dependencies;
    expect(deps.status).toBe('ok');
    if (deps.status !== 'ok') return;
    expect(deps.facts.unpinned).toEqual(['pom.xml', 'mcp-json-jackson2/pom.xml']);
    expect(deps.facts.unevaluated).toBeUndefined();
    const byName = Object.fromEntries(deps.facts.dependencies.map((d) => [d.name, d]));
    expect(byName['com.fasterxml.jackson.core:jackson-databind']).toMatchObject({ ecosystem: 'maven', version: '2.21.1', range: '${jackson2.version}', dev: false, file: 'mcp-json-jackson2/pom.xml' });
    expect(byName['io.projectreactor:reactor-bom']).toMatchObject({ version: '2024.0.0', file: 'pom.xml' });
    expect(byName['org.assertj:assertj-core']).toMatchObject({ version: '3.27.6', dev: true });
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ messageId: 'repository-dev-only', evidence: { ids: [], devIds: ['GHSA-synt-0003-0003'], directOnly: true } });
    expect(report.advisories).toEqual([expect.objectContaining({ id: 'GHSA-synt-0003-0003', ecosystem: 'maven', version: '3.27.6', fixed: '3.28.0' })]);
    expect(checkOf(report, 'malicious-package')).toMatchObject({ score: null, messageId: 'repository-direct-only' });
    // Each pom.xml read is one request (the root one serves its licence too: not asked twice).
    expect(server.requests.filter((r) => r.path.endsWith('pom.xml')).map((r) => r.path)).toEqual([`/github/repos/${REPO}/contents/pom.xml`, `/github/repos/${REPO}/contents/mcp-json-jackson2/pom.xml`]);
  });

  it('a pom.xml that is not XML, or declares a document type: the set is unavailable with the reason, never a crash', async () => {
    for (const body of ['<project><dependencies>', '<!DOCTYPE project [<!ENTITY x "y">]><project/>']) {
      const { report, evidence } = await check(REPO, { license: 'MIT', override: { ...override(), '/contents/pom.xml': { body } } });
      expect(evidence.sources.dependencies).toMatchObject({ status: 'unavailable', code: 'unreadable-file', reason: expect.stringMatching(/^pom\.xml/) });
      expect(checkOf(report, 'vulnerable-dependencies')?.score).toBeNull();
    }
  });
});

describe('a Gradle build with dependency locking: gradle.lockfile (DataDog/dd-javac-plugin\'s, served in a recorded repository with no manifest)', () => {
  const LOCK = readFileSync(path.join(FIXTURES_ROOT, '..', 'lockfiles', 'real', 'DataDog__dd-javac-plugin', 'gradle.lockfile'), 'utf8');
  const REPO = 'wong2/awesome-mcp-servers';
  const override = () => ({
    '/git/trees/main': {
      body: editedTree(REPO, (entries) => {
        entries.push({ path: 'build.gradle', mode: '100644', type: 'blob', sha: '4'.repeat(40), size: 900 } as { path: string; size: number });
        entries.push({ path: 'gradle.lockfile', mode: '100644', type: 'blob', sha: '5'.repeat(40), size: LOCK.length } as { path: string; size: number });
      }),
    },
    '/contents/gradle.lockfile': { body: LOCK },
    // Read for the licence it may declare (synthesised: a build script that declares none).
    '/contents/build.gradle': { body: "plugins {\n  id 'java-library'\n}\n" },
  });

  it('the whole resolved graph pinned: clean is clean (not direct only), the malicious-package check runs; a test-only module\'s advisory is dev', async () => {
    const osv = [osvRecord('GHSA-synt-0004-0004', 'org.junit.platform:junit-platform-commons', '1.0.0', '1.9.3', 'HIGH', 'Maven')];
    const { report, evidence } = await check(REPO, { license: 'MIT', osv, override: override() });
    const deps = evidence.sources.dependencies;
    expect(deps).toMatchObject({ status: 'ok', facts: { lockfiles: ['gradle.lockfile'], unpinned: [] } });
    expect(deps.status === 'ok' && deps.facts.unevaluated).toBeUndefined();
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ messageId: 'repository-dev-only', evidence: { total: 11, devIds: ['GHSA-synt-0004-0004'], directOnly: false } });
    expect(report.advisories).toEqual([expect.objectContaining({ id: 'GHSA-synt-0004-0004', ecosystem: 'maven', version: '1.9.2', fixed: '1.9.3' })]);
    expect(checkOf(report, 'malicious-package')).toMatchObject({ score: 100, messageId: 'clean-repository' });
  });
});

describe('every recorded repository whose files exist: all five dimensions known, coverage ≥ 0.7, a verdict with its reason', () => {
  // Each served with the synthesised answers of RECORDED_CASES (test/repository/recorded-repos.ts).
  const cases: Array<{ repo: string; verdict: string; heldBy: string[] }> = [
    // 16 days of history holds it (project-maturity), and an MCP server that runs code below its category's bar.
    { repo: CODE_RUNNER, verdict: 'caution', heldBy: ['verdict-held', 'category-bar'] },
    { repo: 'microsoft/playwright-mcp', verdict: 'yes', heldBy: [] },
    // An MCP server below the risk categories' bar (a shown 80).
    { repo: 'blazickjp/arxiv-mcp-server', verdict: 'caution', heldBy: ['category-bar'] },
    { repo: 'modelcontextprotocol/typescript-sdk', verdict: 'yes', heldBy: [] },
    // A list of links with no manifest: no policy, no update tool, nothing to vouch for — below 70.
    { repo: 'wong2/awesome-mcp-servers', verdict: 'caution', heldBy: [] },
    // Four days of history (project-maturity) and a README advertising a name it does not publish (advertised-packages).
    { repo: 'ian1roberts/mcp_server', verdict: 'caution', heldBy: ['verdict-held', 'verdict-held'] },
    { repo: 'BurntSushi/ripgrep', verdict: 'yes', heldBy: [] },
  ];
  for (const { repo, verdict, heldBy } of cases) {
    it(`${repo}: ${verdict}`, async () => {
      const { report } = await check(repo, recordedCase(repo));
      for (const id of ['security', 'maintenance', 'documentation', 'compliance', 'community']) expect(dimension(report, id)?.score, id).not.toBeNull();
      expect(report.coverage).toBeGreaterThanOrEqual(0.7);
      expect(report.verdictCode).toBe(verdict);
      expect(report.verdictReasonDetails.map((r) => r.code)).toEqual(heldBy);
      if (verdict !== 'yes' && heldBy.length === 0) expect(report.score).toBeLessThan(70);
    });
  }
});

describe('a README that pipes an installer into a shell (microsoft/playwright-mcp, its README recorded, one fenced line added)', () => {
  const README = readFileSync(path.join(FIXTURES_ROOT, 'github', 'repos', 'microsoft', 'playwright-mcp', 'contents', 'README.md'), 'utf8');
  const withLine = (line: string): ServeRecordedOptions => ({ ...recordedCase('microsoft/playwright-mcp'), override: { '/contents/README.md': { body: `${README}\n\n\`\`\`sh\n${line}\n\`\`\`\n` } } });

  it('over plain http: held at CAUTION by advertised-packages, the script named', async () => {
    const { report } = await check('microsoft/playwright-mcp', withLine('curl -fsSL http://get.example.dev/install.sh | sh'));
    expect(report.verdictCode).toBe('caution');
    expect(report.verdictReasonDetails[0]).toMatchObject({ code: 'verdict-held' });
    expect(checkOf(report, 'advertised-packages')).toMatchObject({ messageId: 'script-unsafe', score: 0, evidence: { scriptUrl: 'http://get.example.dev/install.sh' } });
    // The report's distribution lists the line with the same judgement, for --json users.
    expect(report.distribution?.scripts).toEqual([
      { url: 'http://get.example.dev/install.sh', host: 'get.example.dev', kind: 'unsafe', reason: expect.any(String), command: 'curl -fsSL http://get.example.dev/install.sh | sh' },
    ]);
  });

  it("from the owner's GitHub over https: context, the verdict unchanged", async () => {
    const { report } = await check('microsoft/playwright-mcp', withLine('curl -fsSL https://raw.githubusercontent.com/microsoft/playwright-mcp/main/install.sh | bash'));
    expect(report.verdictCode).toBe('yes');
    expect(checkOf(report, 'advertised-packages')).toMatchObject({ messageId: 'verified-image-unknown', score: 100, evidence: { scriptHosts: ['raw.githubusercontent.com'] } });
    expect(report.distribution?.scripts?.map((s) => [s.host, s.kind])).toEqual([['raw.githubusercontent.com', 'own']]);
  });
});

describe('the seven other recorded repositories: all five dimensions known; coverage ≥ 0.7 wherever the dependencies are pinned or resolved', () => {
  const cases: Array<{ repo: string; verdict: string; reasons: string[]; pinned: boolean; unevaluated?: false }> = [
    { repo: 'github/github-mcp-server', verdict: 'yes', reasons: [], pinned: true },
    { repo: 'upstash/context7', verdict: 'yes', reasons: [], pinned: true },
    { repo: 'rust-mcp-stack/rust-mcp-filesystem', verdict: 'yes', reasons: [], pinned: true },
    // One day of history; requirements.txt names its dependencies without pins: the malicious-package check cannot run on ranges.
    { repo: 'GongRzhe/Office-Word-MCP-Server', verdict: 'caution', reasons: ['verdict-held', 'danger-unchecked'], pinned: true },
    // Cargo.toml without Cargo.lock: its direct requirements resolved against the recorded crates.io
    // index files (23 of 24), so the dependency check is known and coverage reaches 0.7; the
    // malicious-package check still cannot run on ranges (danger-unchecked).
    { repo: 'Rishirandhawa/mcp-rust-sdk', verdict: 'caution', reasons: ['verdict-held', 'verdict-held', 'danger-unchecked'], pinned: true },
    // No lockfile exists (a Cargo workspace whose requirements the recorded index files mostly do not
    // match; a Gradle build whose version catalog declares direct versions only, so the malicious-package
    // check stays unknown): coverage stays below 0.7 — never raised by reading unknowns as clean.
    { repo: 'modelcontextprotocol/rust-sdk', verdict: 'caution', reasons: ['danger-unchecked'], pinned: false, unevaluated: false },
    { repo: 'modelcontextprotocol/kotlin-sdk', verdict: 'caution', reasons: ['danger-unchecked'], pinned: false, unevaluated: false },
  ];
  for (const { repo, verdict, reasons, pinned, unevaluated } of cases) {
    it(`${repo}: ${verdict}`, async () => {
      const { report } = await check(repo, recordedCase(repo));
      for (const id of ['security', 'maintenance', 'documentation', 'compliance', 'community']) expect(dimension(report, id)?.score, id).not.toBeNull();
      expect(report.verdictCode).toBe(verdict);
      expect(report.verdictReasonDetails.map((r) => r.code)).toEqual(reasons);
      if (pinned) {
        expect(report.coverage).toBeGreaterThanOrEqual(0.7);
      } else {
        expect(report.coverage).toBeLessThan(0.7);
        if (unevaluated !== false) expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ score: null, messageId: 'repository-unevaluated' });
      }
    });
  }
});

describe("a bot's commits are not maintenance (formulahendry/mcp-server-code-runner)", () => {
  // A real dependabot[bot] commit as GitHub lists it (fixtures/PROVENANCE.md), newer than the recorded ones.
  const DEPENDABOT = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'github', 'commits', 'dependabot.PyGithub.3253acaa.json'), 'utf8')) as Record<string, unknown>;
  const RECORDED = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'github', 'repos', CODE_RUNNER, 'commits.json'), 'utf8')) as unknown[];
  const withDependabot: Record<string, FixtureResponse> = { '/commits?per_page=100&sha=main': { body: [DEPENDABOT, ...RECORDED] } };

  it('a year with only a dependency bump by dependabot: no person committed, scored as none, never active', async () => {
    // 2026-05-01: the bump (2025-09-08) is in the year, the people's 24 commits (to 2025-04-04) are not.
    const { report, evidence } = await check(CODE_RUNNER, { license: 'MIT', override: withDependabot }, new Date('2026-05-01T00:00:00Z'));
    expect(evidence.sources.github).toMatchObject({ facts: { activity: { commits365d: 1, botCommits365d: 1 } } });
    expect(checkOf(report, 'commit-activity')).toMatchObject({ messageId: 'bots-only', score: 10, evidence: { commits365d: 1, counted365d: 0 } });
  });

  it("the people's commits of the year counted, the bots' not: slowing, not active", async () => {
    // 2025-09-10: the bump alone in the quarter; the year also holds the recorded 23 commits by people and one by smithery-ai[bot].
    const { report } = await check(CODE_RUNNER, { license: 'MIT', override: withDependabot }, new Date('2025-09-10T00:00:00Z'));
    expect(checkOf(report, 'commit-activity')).toMatchObject({ messageId: 'slowing', evidence: { commits90d: 1, counted90d: 0, counted365d: 23, commits365d: 25 } });
  });
});

describe('every commit dated in the future (formulahendry/mcp-server-code-runner checked on a clock set before its first commit)', () => {
  it('the commit activity is unknown, never dormant; the verdict not YES', async () => {
    const { report } = await check(CODE_RUNNER, { license: 'MIT' }, new Date('2025-03-01T00:00:00Z'));
    expect(checkOf(report, 'commit-activity')).toMatchObject({ messageId: 'future-dated', score: null, evidence: { commits365d: 0, lastCommitAt: '2025-04-04T10:35:24Z' } });
    expect(report.verdictCode).not.toBe('yes');
  });
});

describe('commits that name no GitHub account (formulahendry/mcp-server-code-runner)', () => {
  const RECORDED = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'github', 'repos', CODE_RUNNER, 'commits.json'), 'utf8')) as Array<{ commit: { author: { name: string } } }>;

  it("GitHub's `author` null on every person's commit (a mail address alone): the contributors are unknown, never 0", async () => {
    const { report } = await check(CODE_RUNNER, { license: 'MIT' });
    // 24 commits examined: 23 by people no account names, one by smithery-ai[bot].
    expect(checkOf(report, 'contributors')).toMatchObject({ messageId: 'unlinked', score: null, evidence: { count: 0, commitsExamined: 24, unlinked: 23 } });
  });

  it('the same commits with their accounts linked are counted', async () => {
    const linked = RECORDED.map((c) => (c.commit.author.name.endsWith('[bot]') ? c : { ...c, author: { login: c.commit.author.name, type: 'User' } }));
    const { report } = await check(CODE_RUNNER, { license: 'MIT', override: { '/commits?per_page=100&sha=main': { body: linked } } });
    expect(checkOf(report, 'contributors')).toMatchObject({ messageId: 'few', score: 40, evidence: { count: 2, busFactor: 1, commitsExamined: 24 } });
  });
});

describe('maturity: when the history starts and how fast it publishes (microsoft/playwright-mcp)', () => {
  const PLAYWRIGHT = 'microsoft/playwright-mcp';
  const HISTORY = '/commits?per_page=2&sha=main';
  const FIVE_YEARS_AGO = '2021-08-01T00:00:00Z';
  /** The repository answer as GitHub would give it for a repository created on `created`. */
  const createdOn = (created: string) => ({ '': { body: { ...repoAnswer(PLAYWRIGHT, { license: 'Apache-2.0' }), created_at: created } } });
  const AT = new Date('2026-08-08T12:00:00Z');

  it('a repository created five years ago whose recorded history starts 16 days before now: young, in days, verdict held', async () => {
    // code-runner's recorded history (first commit 2025-03-19) in a repository GitHub created in 2020.
    const { report } = await check(CODE_RUNNER, { license: 'MIT', override: { '': { body: { ...repoAnswer(CODE_RUNNER, { license: 'MIT' }), created_at: '2020-01-10T00:00:00Z' } } } });
    expect(checkOf(report, 'project-maturity')).toMatchObject({ messageId: 'too-young', score: 20, evidence: { days: 16, historyDays: 16, createdDays: 1912 } });
    expect(report.verdictReasonDetails.map((r) => r.code)).toContain('verdict-held');
  });

  it('established: the shorter clock (its first commit, 2025-03-21) is its age, the first release dated', async () => {
    const releases = [{ tag_name: 'v0.0.1', draft: false, prerelease: false, published_at: '2025-04-01T00:00:00Z', assets: [] }];
    const { report, evidence } = await check(PLAYWRIGHT, { license: 'Apache-2.0', override: { ...createdOn(FIVE_YEARS_AGO), '/releases': { body: releases } } }, AT);
    expect(checkOf(report, 'project-maturity')).toMatchObject({
      messageId: 'established',
      score: 100,
      evidence: { days: 504, historyDays: 504, commits: 572, firstReleaseDays: 494, firstReleaseExact: true, releasesRecent: '0' },
    });
    expect(evidence.sources.github).toMatchObject({ status: 'ok', facts: { files: { history: { commits: 572, reason: null } } } });
  });

  it('31 releases within 14 days in a repository five years on GitHub: churn holding the verdict', async () => {
    const releases = Array.from({ length: 31 }, (_, i) => ({
      tag_name: `v1.${i}.0`,
      draft: false,
      prerelease: false,
      published_at: new Date(AT.getTime() - i * 10 * 3_600_000).toISOString(),
      assets: [],
    }));
    const { report } = await check(PLAYWRIGHT, { license: 'Apache-2.0', stars: 20_000, override: { ...createdOn(FIVE_YEARS_AGO), '/releases': { body: releases } } }, AT);
    expect(checkOf(report, 'project-maturity')).toMatchObject({ messageId: 'release-churn', score: 40, evidence: { releasesRecent: '31', releasesPerWeek: 7.2 } });
    expect(report.verdictCode).not.toBe('yes');
    expect(report.verdictReasonDetails.map((r) => r.code)).toContain('verdict-held');
  });

  const FILE_CHECKS = ['readme', 'license-file', 'commit-activity'];
  // A 5xx the retries do not cure marks GitHub's REST service down for the run (README,
  // "Unreachable hosts"): the files read after it are unknown too; what was read before stands.
  const unknownCases: Array<[string, Record<string, FixtureResponse>, RegExp, string[]]> = [
    ['a listing without its Link header (as a proxy may leave it)', { [HISTORY]: { body: [{ commit: { author: { date: '2026-08-07T00:00:00Z' }, committer: { date: '2026-08-07T00:00:00Z' } } }, { commit: { author: { date: '2026-08-06T00:00:00Z' }, committer: { date: '2026-08-06T00:00:00Z' } } }] } }, /no Link header/, FILE_CHECKS],
    ['an empty repository (409)', { [HISTORY]: { status: 409, body: { message: 'Git Repository is empty.', documentation_url: 'https://docs.github.com/rest/commits/commits#list-commits' } } }, /empty/, FILE_CHECKS],
    ['a server error (502)', { [HISTORY]: { status: 502, body: 'bad gateway' } }, /502/, ['commit-activity']],
  ];
  for (const [name, override, reason, standing] of unknownCases) {
    it(`${name}: the history is unknown and so is an old repository's age, never a pass; the rest stands`, async () => {
      const { report } = await check(PLAYWRIGHT, { license: 'Apache-2.0', override: { ...createdOn(FIVE_YEARS_AGO), ...override } }, AT);
      const maturity = checkOf(report, 'project-maturity');
      expect(maturity).toMatchObject({ messageId: 'history-unknown', score: null, status: 'unknown', evidence: { historyDays: null, createdDays: 1833 } });
      expect(String(maturity?.evidence.historyReason)).toMatch(reason);
      for (const id of standing) expect(checkOf(report, id)?.score, id).not.toBeNull();
    });
  }
});

describe('dated version tags: a repository that tags without publishing GitHub releases (microsoft/playwright-mcp: 72 recorded tags, no release synthesised)', () => {
  const PLAYWRIGHT = 'microsoft/playwright-mcp';
  const FIVE_YEARS_AGO = '2021-08-01T00:00:00Z';
  const AT = new Date('2026-08-08T12:00:00Z');
  const TOKEN = 'ghp_nerqTestToken0123456789abcdefABCDEF';
  const options = { license: 'Apache-2.0', stars: 20_000, topics: ['mcp'] };
  const created = { '': { body: { ...repoAnswer(PLAYWRIGHT, { license: 'Apache-2.0' }), created_at: FIVE_YEARS_AGO } } };
  const graphqlLines = () => server.requests.filter((r) => r.path.startsWith('/github/graphql'));
  /** The recorded tags' answer with the newest `n` re-dated one every ten hours back from AT (a burst). */
  const burst = (n: number) => {
    const answer = tagDatesAnswer(PLAYWRIGHT);
    (answer.data.repository.refs.nodes as Array<{ target: { committedDate: string } }>).slice(0, n).forEach((node, i) => {
      node.target.committedDate = new Date(AT.getTime() - (i + 1) * 10 * 3_600_000).toISOString();
    });
    return { body: answer };
  };

  it('without a token: no extra request; the tags stay undated, the pace of the last 30 days said to be unknown, never calm', async () => {
    const { report, evidence, requests } = await check(PLAYWRIGHT, { ...options, override: created }, AT);
    expect(graphqlLines()).toEqual([]);
    expect(checkOf(report, 'project-maturity')).toMatchObject({
      messageId: 'established',
      score: 100,
      evidence: { tags: '72', tagDates: 'unknown', tagDatesReason: NO_TOKEN_TAG_DATES, tagsRecent: null },
    });
    expect(String(checkOf(report, 'project-maturity')?.message)).toContain('the pace of its version tags over the last 30 days is unknown');
    expect(evidence.sources.github).toMatchObject({ status: 'ok', facts: { files: { tagDates: { tags: null, reason: NO_TOKEN_TAG_DATES } } } });
    // The repository's 7 (repository, commits, releases, issues, community profile, root listing,
    // .github tree) and its files' 11 (tree, tags, two history pages, README, LICENSE, package.json,
    // package-lock.json, SECURITY.md, and its 2 workflows, one request each without a token).
    expect(requests).toBe(18);
  });

  it('with a token: one GraphQL query more dates the 72 tags by their commits — reported, and no burst in the last 30 days', async () => {
    serveRecordedGraphql(server, PLAYWRIGHT, { license: 'Apache-2.0', created: FIVE_YEARS_AGO });
    const { report, evidence, requests } = await check(PLAYWRIGHT, { ...options, token: TOKEN }, AT);
    expect(graphqlLines()).toHaveLength(3);
    const tagQuery = graphqlLines().find((r) => r.body.includes('NerqTagDates'));
    expect(JSON.parse(tagQuery?.body ?? '{}')).toMatchObject({ variables: { owner: 'microsoft', name: 'playwright-mcp' } });
    expect(checkOf(report, 'project-maturity')).toMatchObject({
      messageId: 'established',
      score: 100,
      // v0.0.79 (2026-08-05) and v0.0.78 (2026-07-09, 19:08 UTC) fall within 30 days of AT; v0.0.7 (2025-03-28) is the oldest.
      evidence: { tags: '72', tagDates: 'dated', tagsRecent: '2', latestTagAt: '2026-08-06T00:13:38.000Z', firstTagAt: '2025-03-28T20:43:44.000Z', tagPace: '' },
    });
    const github = evidence.sources.github;
    expect(github.status === 'ok' && github.facts.files?.tagDates?.tags).toHaveLength(72);
    // 1 GraphQL query for the repository, the REST tree, tags and two history pages (4), 1 GraphQL
    // query for README, LICENSE, package.json, package-lock.json, SECURITY.md and both workflows,
    // and 1 for the tag dates: 7 (12 before the files rode in the workflows' query).
    expect(requests).toBe(1 + 4 + 1 + 1);
    const filesQuery = graphqlLines().filter((r) => r.body.includes('NerqFiles'));
    expect(filesQuery).toHaveLength(1);
    const asked = Object.values((JSON.parse(filesQuery[0]?.body ?? '{}') as { variables: Record<string, string> }).variables).filter((v) => v.includes(':'));
    expect(asked.map((e) => e.slice(e.indexOf(':') + 1)).sort()).toEqual(
      ['.github/workflows/ci.yml', '.github/workflows/publish.yml', 'LICENSE', 'README.md', 'SECURITY.md', 'package-lock.json', 'package.json'].sort(),
    );
    expect(server.requests.filter((r) => r.path.includes('/contents/'))).toEqual([]);
    // Both workflows read; neither runs on events outsiders cause, so the check is left out.
    expect(github.status === 'ok' ? github.facts.files?.workflowSafety?.read : null).toHaveLength(2);
    expect(report.checks.find((c) => c.id === 'workflow-safety')).toBeUndefined();
  });

  it('with a token, 31 tags dated within 13 days: dated tag churn holds the verdict', async () => {
    serveRecordedGraphql(server, PLAYWRIGHT, { license: 'Apache-2.0', created: FIVE_YEARS_AGO, tags: burst(31) });
    const { report } = await check(PLAYWRIGHT, { ...options, token: TOKEN }, AT);
    expect(checkOf(report, 'project-maturity')).toMatchObject({ messageId: 'tag-churn', score: 40, evidence: { tagsRecent: '31', tagsRecentPerWeek: 7.2 } });
    expect(report.verdictCode).not.toBe('yes');
    expect(report.verdictReasonDetails.map((r) => r.code)).toContain('verdict-held');
  });

  it('with a token, the releases listing failing: the dated tags still judge the last 30 days (the releases alone are unknown)', async () => {
    serveRecordedGraphql(server, PLAYWRIGHT, { license: 'Apache-2.0', created: FIVE_YEARS_AGO, tags: burst(31), releasesUnanswered: true });
    const { report, evidence } = await check(PLAYWRIGHT, { ...options, token: TOKEN }, AT);
    const github = evidence.sources.github;
    expect(github.status === 'ok' && github.facts.releases).toBeNull();
    expect(github.status === 'ok' && Object.keys(github.facts.unknown)).toContain('releases');
    expect(checkOf(report, 'project-maturity')).toMatchObject({ messageId: 'tag-churn', score: 40, evidence: { tagDates: 'dated', tagsRecent: '31', releasesRecent: null } });
    expect(report.verdictReasonDetails.map((r) => r.code)).toContain('verdict-held');
  });

  const faults: Array<[string, Record<string, unknown>, RegExp]> = [
    ['an errors array', { body: { data: null, errors: [{ type: 'INTERNAL', message: 'Something went wrong while executing your query.' }] } }, /Something went wrong/],
    ['a server error (502)', { status: 502, body: 'bad gateway' }, /502/],
    ['a spent GraphQL rate limit', { status: 200, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(AT.getTime() / 1000) + 3600) }, body: { data: null, errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for user ID 1001.' }] } }, /rate limit/],
    ['a tag dated in the future', { body: { data: { repository: { refs: { totalCount: 1, nodes: [{ name: 'v9.0.0', target: { __typename: 'Commit', committedDate: '2031-01-01T00:00:00Z' } }] } } } } }, /in the future/],
  ];
  for (const [name, tags, reason] of faults) {
    it(`with a token, ${name} on the tag dates: unknown with the reason, never calm; the files read stand`, async () => {
      serveRecordedGraphql(server, PLAYWRIGHT, { license: 'Apache-2.0', created: FIVE_YEARS_AGO, tags });
      const { report } = await check(PLAYWRIGHT, { ...options, token: TOKEN }, AT);
      const maturity = checkOf(report, 'project-maturity');
      expect(maturity).toMatchObject({ messageId: 'established', evidence: { tagDates: 'unknown', tagsRecent: null, latestTagAt: null } });
      expect(String(maturity?.evidence.tagDatesReason)).toMatch(reason);
      for (const id of ['readme', 'license-file', 'security-policy']) expect(checkOf(report, id)?.score, id).not.toBeNull();
    });
  }

  it('saved evidence with dated tags re-scores to the same report (nerq score)', async () => {
    serveRecordedGraphql(server, PLAYWRIGHT, { license: 'Apache-2.0', created: FIVE_YEARS_AGO, tags: burst(31) });
    const { report, evidence } = await check(PLAYWRIGHT, { ...options, token: TOKEN }, AT);
    const [again] = rescoreEvidence(evidenceFromJson(JSON.parse(JSON.stringify(evidence))), { gate: DEFAULT_GATE });
    expect(renderJson(again!, { pretty: true })).toBe(renderJson({ ...report, previous: null }, { pretty: true }));
    expect(checkOf(again!, 'project-maturity')?.messageId).toBe('tag-churn');
  });
});

describe('a monorepo', () => {
  it.each([
    ['a registry of another host', 'registry=https://npm.evil.example/\n', 'npm from another registry (npm.evil.example)'],
    ["a scope's registry of another host", '@modelcontextprotocol:registry=https://npm.evil.example/\n', 'npm from another registry (npm.evil.example)'],
    ['a registry an environment variable gives', 'registry=${NPM_REGISTRY}\n', 'npm from a registry an environment variable sets'],
  ])("its .npmrc names %s: every install of the lockfile fetches there, so the set is no clean bill on the public registry's word", async (_name, npmrc, ecosystem) => {
    const { report, evidence } = await check('modelcontextprotocol/typescript-sdk', { ...recordedCase('modelcontextprotocol/typescript-sdk'), override: { '/contents/.npmrc': { body: npmrc } } });
    const deps = evidence.sources.dependencies;
    expect(deps.status === 'ok' && deps.facts.unevaluated).toEqual([{ file: '.npmrc', ecosystem }]);
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ score: null, messageId: 'repository-unevaluated' });
    expect(checkOf(report, 'malicious-package')?.score).toBeNull();
    expect(report.verdictCode).not.toBe('yes');
  });

  it('its .npmrc unread (GitHub fails it): what it sets is not known, the set no clean bill', async () => {
    const { evidence } = await check('modelcontextprotocol/typescript-sdk', { ...recordedCase('modelcontextprotocol/typescript-sdk'), override: { '/contents/.npmrc': { status: 503 } } });
    const deps = evidence.sources.dependencies;
    expect(deps.status === 'ok' && deps.facts.unevaluated).toEqual([{ file: '.npmrc', ecosystem: 'npm from a registry its settings may set (the file was not read or does not parse)' }]);
  });

  it('reads the published packages\' manifests, not test fixtures or examples (modelcontextprotocol/typescript-sdk)', async () => {
    // One example's manifest the recording left out would fail; examples cannot vouch, so it is never asked.
    const { report, requests, evidence } = await check('modelcontextprotocol/typescript-sdk', {
      license: 'Apache-2.0',
      topics: [],
      override: { '/contents/examples/guides/package.json': { status: 503 } },
    });
    // pnpm-workspace.yaml's `packages/**/*` is matched against the tree: the packages two levels
    // deep (packages/middleware/express) are members, and their manifests name them.
    expect(report.distribution?.packages.map((p) => `${p.name} ${p.status}`)).toEqual([
      '@modelcontextprotocol/server verified',
      '@modelcontextprotocol/client verified',
      '@modelcontextprotocol/node verified',
      '@modelcontextprotocol/express verified',
      'express elsewhere',
    ]);
    expect(report.distribution?.packages.map((p) => p.check)).toEqual([
      'npm:@modelcontextprotocol/server',
      'npm:@modelcontextprotocol/client',
      'npm:@modelcontextprotocol/node',
      'npm:@modelcontextprotocol/express',
      null,
    ]);
    expect(report.distribution?.packages.find((p) => p.name === '@modelcontextprotocol/express')?.reason).toBe(
      'package.json in workspace member packages/middleware/express at main names "@modelcontextprotocol/express"',
    );
    expect(checkOf(report, 'advertised-packages')).toMatchObject({ messageId: 'verified', score: 100, evidence: { thirdParty: ['npm:express'] } });
    // The transitional Apache-2.0 LICENSE GitHub detects against the published packages' MIT.
    expect(checkOf(report, 'license-consistency')).toMatchObject({ messageId: 'different', evidence: { declared: 'MIT', repositoryLicense: 'Apache-2.0' } });
    // The transitional LICENSE holds the MIT text as well as Apache-2.0's: the file covers the declared MIT.
    expect(checkOf(report, 'license-file')).toMatchObject({ messageId: 'consistent', score: 100 });
    // No changelog at the root or in docs/: the changesets CHANGELOG beside the first published member's manifest (the private root's folder never).
    expect(checkOf(report, 'changelog')).toMatchObject({ score: 100, messageId: 'present-repository', evidence: { path: 'packages/client/CHANGELOG.md' } });
    // The inconsistency is a finding, not a hold: the mcp-server bar (a shown 80) decides the verdict.
    expect(report.score).toBeGreaterThanOrEqual(80);
    expect(report.verdictCode).toBe('yes');
    expect(report.category?.id).toBe('mcp-server');
    // Only published packages' manifests are read: none under test, fixture or example folders, by
    // the repository's own files or by the link verifier (examples/guides, whose manifest GitHub
    // would fail on, is never asked).
    const read = server.requests.map((r) => r.path).filter((p) => p.includes('/contents/') && p.endsWith('package.json'));
    expect(read.length).toBeGreaterThan(1);
    expect(read.filter((p) => /\/(?:test|tests|fixtures?|examples?)\//.test(p))).toEqual([]);
    expect(report.coverage).toBeGreaterThanOrEqual(0.7);
    // GitHub requests without a token: the repository's 7, its own files' 14 (tree, tags, the
    // history's first and last commit pages, README, LICENSE, 6 manifests, the lockfile,
    // SECURITY.md), its .npmrc (the registry an install of the lockfile fetches from: the public
    // one, so nothing is named), then pnpm-workspace.yaml and the three member manifests named like their
    // packages (packages/client/package.json was already read): workspace members come from the
    // tree, with no folder listing; and 8 of its 8 workflows (the cap without a token, one request
    // each). 34 in all (25 before the workflows were read); and one more: SECURITY.md's only channel
    // is private reporting, which GitHub is asked about (private-reporting.ts).
    expect(requests).toBe(7 + 14 + 1 + 1 + 3 + 8 + 1);
    expect(requests).toBeLessThanOrEqual(7 + 14 + 1 + VERIFY_READ_BUDGET + 8 + 1);
    const deps = evidence.sources.dependencies;
    expect(deps.status === 'ok' && deps.facts.unevaluated).toBeUndefined();
    expect(checkOf(report, 'workflow-safety')).toMatchObject({ score: 100, evidence: { listed: 8, read: 8, unreadCount: 0 } });
    // Its history: 1,605 commits, the first on 2024-09-24 (recorded).
    expect(checkOf(report, 'project-maturity')).toMatchObject({ evidence: { commits: 1605, firstCommitAt: '2024-09-24T20:32:00.000Z' } });
  });
});

describe('a monorepo whose member manifest GitHub cannot give', () => {
  it('leaves that package unconfirmed, the others verified; the search then ends at the read budget (code `budget`)', async () => {
    const { evidence, report } = await check('modelcontextprotocol/typescript-sdk', {
      license: 'Apache-2.0',
      topics: [],
      override: { '/contents/packages/middleware/express/package.json': { status: 503 } },
    });
    // The report carries the code of the one unconfirmed package only.
    expect(report.distribution?.packages.map((p) => p.reasonCode ?? null)).toEqual([null, null, null, 'budget', null]);
    const github = evidence.sources.github;
    const packages = github.status === 'ok' ? (github.facts.distribution?.packages ?? []) : [];
    expect(packages.map((p) => [p.name, p.status, p.reasonCode ?? null])).toEqual([
      ['@modelcontextprotocol/server', 'verified', null],
      ['@modelcontextprotocol/client', 'verified', null],
      ['@modelcontextprotocol/node', 'verified', null],
      ['@modelcontextprotocol/express', 'unconfirmed', 'budget'],
      ['express', 'elsewhere', null],
    ]);
    // The reason names the first failed read (GitHub's REST service, failing repeatedly, is taken as
    // down for the run, so members read beside it fail too: host-health.ts) and the members left
    // unread; the code is the budget (a member past it may be the publisher).
    expect(packages.find((p) => p.name === '@modelcontextprotocol/express')?.reason).toMatch(/; \d+ member manifests could not be read \(HTTP 503 [^)]*\); \d+ member manifests were not read \(a request bound was reached\)$/);
  });
});

/** A malicious-packages record (MAL- id, exact versions) for a package the recorded lockfile pins. */
function malRecord(id: string, name: string, version: string): Record<string, unknown> {
  return {
    schema_version: '1.7.3',
    id,
    modified: '2026-04-01T00:00:00Z',
    published: '2026-04-01T00:00:00Z',
    summary: `Malicious code in ${name} (npm)`,
    details: 'Synthesised for a test.',
    affected: [{ package: { ecosystem: 'npm', name }, versions: [version] }],
  };
}

/** The recorded root tree of a repository with `edit` applied to its entries. */
function editedTree(fullName: string, edit: (entries: { path: string; size?: number }[]) => void): Record<string, unknown> {
  const tree = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'github', 'repos', fullName, 'git', 'trees', `${recordOf(fullName).recordedCommit.tree}.json`), 'utf8')) as {
    tree: { path: string; size?: number }[];
  };
  edit(tree.tree);
  return tree;
}

describe('dependencies and vulnerabilities from the repository\'s lockfiles', () => {
  const options = { license: 'MIT', topics: ['mcp'] };

  it('an advisory on a runtime dependency the lockfile pins is a finding with its id, path and fix, and is in the report\'s advisories', async () => {
    const osv = [osvRecord('GHSA-synt-0001-0001', 'path-to-regexp', '8.0.0', '8.4.0', 'HIGH')];
    const { report, evidence } = await check(CODE_RUNNER, { ...options, osv });
    const deps = evidence.sources.dependencies;
    expect(deps.status).toBe('ok');
    if (deps.status !== 'ok') return;
    expect(deps.facts.lockfiles).toEqual(['package-lock.json']);
    expect(deps.facts.unpinned).toEqual([]);
    expect(deps.facts.dependencies.find((d) => d.name === 'path-to-regexp')).toMatchObject({ version: '8.2.0', dev: false });
    const finding = checkOf(report, 'vulnerable-dependencies');
    expect(finding).toMatchObject({ messageId: 'repository-vulnerable', score: 40, evidence: { worst: 'high', ids: ['GHSA-synt-0001-0001'], devIds: [] } });
    const details = finding?.evidence.details as string[];
    expect(details).toHaveLength(1);
    expect(details[0]).toMatch(/^@modelcontextprotocol\/sdk › .*router › path-to-regexp@8\.2\.0 \(GHSA-synt-0001-0001 fixed in 8\.4\.0\)$/);
    expect(report.advisories).toEqual([expect.objectContaining({ id: 'GHSA-synt-0001-0001', package: 'path-to-regexp', version: '8.2.0', fixed: '8.4.0', affectsResolved: true })]);
    // No version of its own to look up: the target's own advisories are not applicable, not clean.
    expect(checkOf(report, 'known-vulnerabilities')).toBeUndefined();
    expect(checkOf(report, 'malicious-package')?.messageId).toBe('clean-repository');
    // One batch for every pinned dependency.
    expect(server.requests.filter((r) => r.method === 'POST' && r.path === '/osv/v1/querybatch')).toHaveLength(1);
  });

  it('an advisory only in development dependencies is reported apart and weighs less', async () => {
    const osv = [osvRecord('GHSA-synt-0002-0002', 'typescript', '5.0.0', '5.9.0', 'HIGH')];
    const { report } = await check(CODE_RUNNER, { ...options, osv });
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({
      messageId: 'repository-dev-only',
      score: 80,
      evidence: { ids: [], devIds: ['GHSA-synt-0002-0002'], devWorst: 'high', devDetails: ['typescript@5.8.2 (GHSA-synt-0002-0002 fixed in 5.9.0)'] },
    });
    expect(report.advisories.map((a) => a.id)).toEqual(['GHSA-synt-0002-0002']);
  });

  it('a malicious dependency in the lockfile: NO — DO NOT USE, as for a package', async () => {
    const osv = [malRecord('MAL-2026-0001', 'zod', '3.24.2')];
    const { report } = await check(CODE_RUNNER, { ...options, osv });
    expect(checkOf(report, 'malicious-package')).toMatchObject({ messageId: 'malicious-locked-dependency', score: 0, evidence: { dependencyIds: ['MAL-2026-0001'] } });
    expect(report.verdictCode).toBe('do-not-use');
    expect(report.advisories).toEqual([expect.objectContaining({ id: 'MAL-2026-0001', malicious: true })]);
  });

  it('a Python repository: uv.lock pins the set, asked in the PyPI ecosystem', async () => {
    const { report, evidence, requests } = await check('blazickjp/arxiv-mcp-server', { license: 'Apache-2.0' });
    expect(requests).toBe(ARXIV_REQUESTS);
    const deps = evidence.sources.dependencies;
    expect(deps.status === 'ok' && deps.facts.lockfiles).toEqual(['uv.lock']);
    expect(deps.status === 'ok' && deps.facts.dependencies.every((d) => d.ecosystem === 'pypi' && d.version !== null)).toBe(true);
    const queries = server.requests.filter((r) => r.path === '/osv/v1/querybatch').flatMap((r) => (JSON.parse(r.body) as { queries: { package: { ecosystem: string } }[] }).queries);
    expect(new Set(queries.map((q) => q.package.ecosystem))).toEqual(new Set(['PyPI']));
    expect(checkOf(report, 'vulnerable-dependencies')?.messageId).toBe('repository-clean');
  });

  /** GitHub requests for the recorded arxiv-mcp-server without a token. */
  const ARXIV_REQUESTS = 20;
  // The recorded tree with a uv.toml or pip.conf at the root (the recording has none): one request more, for that file.
  const withPythonSettings = (file: string, text: string): ServeRecordedOptions => {
    const record = recordOf('blazickjp/arxiv-mcp-server');
    const treeFile = path.join(FIXTURES_ROOT, 'github', 'repos', 'blazickjp/arxiv-mcp-server', 'git', 'trees', `${record.recordedCommit.tree}.json`);
    const tree = JSON.parse(readFileSync(treeFile, 'utf8')) as { tree: unknown[] };
    const entry = { path: file, mode: '100644', type: 'blob', sha: '0'.repeat(40), size: text.length };
    return {
      license: 'Apache-2.0',
      override: { [`/git/trees/${record.defaultBranch}`]: { body: { ...tree, tree: [...tree.tree, entry] } }, [`/contents/${file}`]: { body: text } },
    };
  };

  it.each([
    ['uv.toml', 'index-url = "https://py.evil.example/simple"\n', 'PyPI from another index (py.evil.example)'],
    ['pip.conf', '[global]\nextra-index-url = https://py.corp.example/simple\n', 'PyPI and an extra index (py.corp.example): a name on both may be installed from either (dependency confusion)'],
  ])('a Python repository whose %s points installs elsewhere: the file named in unevaluated, the set no clean bill', async (file, text, ecosystem) => {
    const { report, evidence, requests } = await check('blazickjp/arxiv-mcp-server', withPythonSettings(file, text));
    const deps = evidence.sources.dependencies;
    expect(deps.status === 'ok' && deps.facts.unevaluated).toEqual([{ file, ecosystem }]);
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ score: null, messageId: 'repository-unevaluated' });
    expect(requests).toBe(ARXIV_REQUESTS + 1);
    expect(server.requests.filter((r) => r.path.endsWith(`/contents/${file}`))).toHaveLength(1);
  });

  it('no manifest: the dependency checks are not applicable, with the reason', async () => {
    const { report, evidence } = await check('wong2/awesome-mcp-servers', { license: 'MIT' });
    expect(evidence.sources.dependencies).toEqual({ status: 'not-applicable', reason: NO_MANIFEST });
    expect(evidence.sources.vulnerabilities).toEqual({ status: 'not-applicable', reason: NO_MANIFEST });
    for (const id of ['vulnerable-dependencies', 'malicious-package', 'known-vulnerabilities']) expect(checkOf(report, id), id).toBeUndefined();
    expect(server.requests.filter((r) => r.path.startsWith('/osv/'))).toEqual([]);
  });

  it('a lockfile over the size cap: the dependency set is unavailable with the reason, the file never asked for', async () => {
    const tree = editedTree(CODE_RUNNER, (entries) => {
      const lock = entries.find((e) => e.path === 'package-lock.json');
      if (lock !== undefined) lock.size = 2 * 1024 * 1024;
    });
    const { report, evidence } = await check(CODE_RUNNER, { ...options, override: { '/git/trees/main': { body: tree } } });
    expect(evidence.sources.dependencies).toMatchObject({ status: 'unavailable', reason: expect.stringMatching(/^package-lock\.json could not be read: over the 1024 KiB cap/) });
    expect(evidence.sources.vulnerabilities.status).toBe('unavailable');
    expect(checkOf(report, 'vulnerable-dependencies')?.score).toBeNull();
    expect(checkOf(report, 'malicious-package')?.score).toBeNull();
    expect(server.requests.some((r) => r.path.endsWith('/contents/package-lock.json'))).toBe(false);
    expect(report.verdictCode).not.toBe('yes');
  });

  it('a malformed lockfile: unavailable, never a crash or a clean answer', async () => {
    const { report, evidence } = await check(CODE_RUNNER, { ...options, override: { '/contents/package-lock.json': { body: '{"lockfileVersion": 3, "packages": {' } } });
    expect(evidence.sources.dependencies).toMatchObject({ status: 'unavailable', reason: expect.stringMatching(/^package-lock\.json/) });
    expect(checkOf(report, 'vulnerable-dependencies')?.score).toBeNull();
    expect(checkOf(report, 'malicious-package')?.score).toBeNull();
  });

  it('OSV answering a body of the wrong shape: the advisories are unknown, never clean', async () => {
    const { report, evidence } = await check(CODE_RUNNER, { ...options, osvMalformed: true });
    expect(evidence.sources.vulnerabilities).toMatchObject({ status: 'unavailable', reason: expect.stringMatching(/^OSV/) });
    expect(checkOf(report, 'vulnerable-dependencies')?.score).toBeNull();
    expect(checkOf(report, 'malicious-package')?.score).toBeNull();
  });
});

describe('what a repository advertises (formulahendry/mcp-server-code-runner: `npx -y mcp-server-code-runner@latest` in its client configurations)', () => {
  it('a package that links back and that its package.json names: verified, offered as its own target; the Docker Hub image named unknown, moving nothing', async () => {
    const { report } = await check(CODE_RUNNER, { license: 'MIT' });
    expect(report.distribution?.packages.map((p) => [p.ecosystem, p.name, p.status, p.check])).toEqual([
      ['npm', 'mcp-server-code-runner', 'verified', 'npm:mcp-server-code-runner'],
      ['npm', '@smithery/cli', 'elsewhere', null],
    ]);
    expect(report.distribution?.images.map((i) => i.name)).toEqual(['formulahendry/mcp-server-code-runner']);
    expect(checkOf(report, 'advertised-packages')).toMatchObject({
      messageId: 'verified-image-unknown',
      score: 100,
      evidence: { thirdParty: ['npm:@smithery/cli'], unknownImages: 'formulahendry/mcp-server-code-runner' },
    });
  });

  it("the images its README runs: the owner's ghcr.io image its own, another account's a finding that holds the verdict, Docker Hub's unknown, an unreadable one ignored", async () => {
    const readme = [
      '# Code Runner MCP Server',
      '',
      '```sh',
      'npx -y mcp-server-code-runner@latest',
      'docker run --rm -i ghcr.io/FormulaHendry/mcp-server-code-runner:0.1.6',
      'docker run --rm -i ghcr.io/someone-else/code-runner',
      'docker run --rm -i formulahendry/mcp-server-code-runner',
      'docker run --rm -i ghcr.io/someone-else/-runner',
      '```',
      '',
    ].join('\n');
    const { report } = await check(CODE_RUNNER, { license: 'MIT', override: { '/contents/README.md': { body: readme } } });
    expect(report.distribution?.images.map((i) => i.name)).toEqual([
      'ghcr.io/formulahendry/mcp-server-code-runner',
      'ghcr.io/someone-else/code-runner',
      'formulahendry/mcp-server-code-runner',
      'ghcr.io/someone-else/-runner',
    ]);
    expect(checkOf(report, 'advertised-packages')).toMatchObject({
      messageId: 'image-elsewhere',
      score: 0,
      evidence: {
        foreignImages: 'ghcr.io/someone-else/code-runner',
        imageAccount: 'someone-else',
        ownImages: 'ghcr.io/formulahendry/mcp-server-code-runner',
        unknownImages: 'formulahendry/mcp-server-code-runner',
        verified: 'npm:mcp-server-code-runner',
      },
    });
    expect(report.verdictCode).not.toBe('yes');
    expect(report.verdictReasonDetails.map((r) => [r.code, r.args.check])).toContainEqual(['verdict-held', 'advertised-packages']);
  });

  it('an advertised package nobody published: a finding that names it, the verdict held', async () => {
    const { report } = await check(CODE_RUNNER, { license: 'MIT', stars: 230, published: { npm: { '@smithery/cli': 'https://github.com/smithery-ai/cli' } } });
    expect(report.distribution?.packages.find((p) => p.name === 'mcp-server-code-runner')).toMatchObject({ status: 'missing', check: null });
    expect(checkOf(report, 'advertised-packages')).toMatchObject({ messageId: 'missing', score: 0, evidence: { missing: 'npm:mcp-server-code-runner' } });
    expect(report.verdictCode).not.toBe('yes');
    expect(report.verdictReasonDetails.map((r) => [r.code, r.args.check])).toContainEqual(['verdict-held', 'advertised-packages']);
  });

  it('the advertised name published from another repository: a finding naming it and where it points', async () => {
    const { report } = await check(CODE_RUNNER, {
      license: 'MIT',
      published: { npm: { 'mcp-server-code-runner': 'https://github.com/mallory/code-runner', '@smithery/cli': 'https://github.com/smithery-ai/cli' } },
    });
    expect(checkOf(report, 'advertised-packages')).toMatchObject({
      messageId: 'elsewhere',
      score: 0,
      evidence: { elsewhere: 'npm:mcp-server-code-runner', linksTo: 'https://github.com/mallory/code-runner' },
    });
  });

  it('a registry that cannot answer leaves the check unknown, never a pass', async () => {
    server.expect('GET', '/npm/mcp-server-code-runner', { status: 503 });
    const { report } = await check(CODE_RUNNER, { license: 'MIT', published: { npm: { '@smithery/cli': 'https://github.com/smithery-ai/cli' } } });
    expect(report.distribution?.packages.find((p) => p.name === 'mcp-server-code-runner')?.status).toBe('unavailable');
    expect(checkOf(report, 'advertised-packages')).toMatchObject({ messageId: 'registry-unknown', score: null });
  });
});

describe('the images recorded READMEs run', () => {
  it("github/github-mcp-server: `docker run … ghcr.io/github/github-mcp-server`, the owner's own image", async () => {
    const { report } = await check('github/github-mcp-server', { license: 'MIT', stars: 25_000, published: {} });
    expect(checkOf(report, 'advertised-packages')).toMatchObject({ messageId: 'own-image', score: 100, evidence: { ownImages: 'ghcr.io/github/github-mcp-server', unknownImages: '' } });
  });

  it('microsoft/playwright-mcp: its verified npm package scores, the image on mcr.microsoft.com (nothing read ties it to the repository) named unknown', async () => {
    const { report } = await check('microsoft/playwright-mcp', { license: 'Apache-2.0', topics: ['mcp'] });
    expect(checkOf(report, 'advertised-packages')).toMatchObject({ messageId: 'verified-image-unknown', score: 100, evidence: { unknownImages: 'mcr.microsoft.com/playwright/mcp' } });
  });
});

describe('a Python MCP server whose README warns against an unrelated npm package of the same name (blazickjp/arxiv-mcp-server)', () => {
  it('verifies its PyPI project through pyproject.toml and does not count the warning as an advertisement', async () => {
    const { report } = await check('blazickjp/arxiv-mcp-server', { license: 'Apache-2.0' });
    expect(report.distribution?.packages.map((p) => [p.ecosystem, p.name, p.status, p.check])).toEqual([['pypi', 'arxiv-mcp-server', 'verified', 'pypi:arxiv-mcp-server']]);
    expect(checkOf(report, 'advertised-packages')).toMatchObject({ messageId: 'verified', score: 100 });
  });
});

describe('a security policy that works, read from the repository', () => {
  it('an e-mail channel (microsoft/playwright-mcp) passes; the policy is one more file read', async () => {
    const { report } = await check('microsoft/playwright-mcp', { license: 'Apache-2.0', topics: ['mcp'] });
    expect(checkOf(report, 'security-policy')).toMatchObject({ messageId: 'channel', score: 100, evidence: { file: 'SECURITY.md', channel: 'secure@microsoft.com' } });
    expect(server.requests.filter((r) => r.path.endsWith('/contents/SECURITY.md'))).toHaveLength(1);
  });

  it('a placeholder address (blazickjp/arxiv-mcp-server: maintainer@example.com) points nowhere: a warning that says so', async () => {
    const { report } = await check('blazickjp/arxiv-mcp-server', { license: 'Apache-2.0' });
    expect(checkOf(report, 'security-policy')).toMatchObject({ messageId: 'dangling', score: 40, status: 'warn', evidence: { placeholders: ['maintainer@example.com'] } });
  });

  it("private reporting its only channel (modelcontextprotocol/typescript-sdk): GitHub is asked once; not enabled, it points nowhere", async () => {
    const { report } = await check('modelcontextprotocol/typescript-sdk', { license: 'Apache-2.0', topics: [], override: { '/private-vulnerability-reporting': { body: { enabled: false } } } });
    expect(checkOf(report, 'security-policy')).toMatchObject({ messageId: 'dangling', score: 40, status: 'warn', evidence: { privateReporting: false } });
    expect(server.requests.filter((r) => r.path === '/github/repos/modelcontextprotocol/typescript-sdk/private-vulnerability-reporting')).toHaveLength(1);
  });

  it('private reporting its only channel, and GitHub refuses to say (403): unknown, never credited', async () => {
    const { report } = await check('modelcontextprotocol/typescript-sdk', { license: 'Apache-2.0', topics: [], override: { '/private-vulnerability-reporting': { status: 403, body: { message: 'Forbidden' } } } });
    expect(checkOf(report, 'security-policy')).toMatchObject({ messageId: 'private-reporting-unknown', score: null });
  });

  it('an e-mail channel asks GitHub nothing about private reporting (microsoft/playwright-mcp)', async () => {
    await check('microsoft/playwright-mcp', { license: 'Apache-2.0', topics: ['mcp'] });
    expect(server.requests.filter((r) => r.path.endsWith('/private-vulnerability-reporting'))).toEqual([]);
  });

  it('a policy GitHub cannot serve (503) falls back to its presence, never to a made-up channel', async () => {
    const { report } = await check('microsoft/playwright-mcp', { license: 'Apache-2.0', topics: ['mcp'], override: { '/contents/SECURITY.md': { status: 503 } } });
    expect(checkOf(report, 'security-policy')).toMatchObject({ messageId: 'repository', score: 100 });
  });
});
