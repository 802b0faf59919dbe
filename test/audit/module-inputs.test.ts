/**
 * go.mod and Cargo.lock as audit inputs (README.md, "nerq audit [dir]"): detected beside
 * the other inputs, their pins become subjects of ecosystem `go` / `cargo`, a local `replace`
 * directory is the project's own code (a note, never a subject), a git crate is an unvouched remote,
 * the Cargo.toml of a workspace member tells dev-only crates; the policy never passes a module (its
 * trust is not scored) and fails one an advisory or a malicious record affects. The go.mod files are
 * the real ones recorded under fixtures/lockfiles/real (fixtures/PROVENANCE.md); the Cargo files are
 * synthetic.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareAudit } from '../../src/app/audit.js';
import { detectInputs } from '../../src/audit/detect.js';
import { moduleReport, MODULE_NOT_SCORED, type ModuleSubject } from '../../src/audit/module-report.js';
import { applyPolicy, mergePolicy } from '../../src/audit/policy.js';
import { parseIgnoreTarget } from '../../src/audit/policy-schema.js';
import { readInputText } from '../../src/lockfiles/index.js';
import { modulePurl } from '../../src/target/purl.js';
import type { AdvisoryFacts } from '../../src/evidence/schema.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { REPO_ROOT } from '../support/run-cli.js';
import { NOW } from './policy/reports.js';

const REAL = path.join(REPO_ROOT, 'fixtures', 'lockfiles', 'real');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-modules-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const write = (relative: string, text: string) => {
  mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
  writeFileSync(path.join(dir, relative), text);
};

describe('detecting and reading go.mod and Cargo.lock', () => {
  it('both are inputs beside the npm one, after it', async () => {
    write('package.json', '{"name":"ui","version":"1.0.0"}');
    write('go.mod', 'module example.com/x\n');
    write('Cargo.lock', 'version = 4\n');
    expect(await detectInputs(dir)).toEqual(['package.json', 'go.mod', 'Cargo.lock']);
  });

  it('gradle.lockfile: detected beside the others; DataDog/dd-javac-plugin\'s 11 Maven modules are subjects of ecosystem `maven`, the test-only ones dev', async () => {
    write('package.json', '{"name":"ui","version":"1.0.0"}');
    copyFileSync(path.join(REAL, 'DataDog__dd-javac-plugin', 'gradle.lockfile'), path.join(dir, 'gradle.lockfile'));
    expect(await detectInputs(dir)).toEqual(['package.json', 'gradle.lockfile']);
    rmSync(path.join(dir, 'package.json'));
    const plan = await prepareAudit({ dir });
    expect(plan.subjects).toHaveLength(11);
    expect(plan.subjects.every((s) => s.ecosystem === 'maven')).toBe(true);
    expect(modulePurl('maven', 'org.burningwave:core', '12.66.2')).toBe('pkg:maven/org.burningwave/core@12.66.2');
    expect(modulePurl('maven', 'not-a-coordinate', '1')).toBeNull();
    expect(plan.subjects.filter((s) => s.dev !== true).map((s) => `${s.name}@${s.version}`).sort()).toEqual(['io.github.toolfactory:jvm-driver@9.8.0', 'org.burningwave:core@12.66.2', 'org.burningwave:jvm-driver@8.19.1']);
  });

  it("mcp-go's otel go.mod: 22 Go modules, the module replaced by ../ a note (the project's own code), not a subject or a remote", async () => {
    copyFileSync(path.join(REAL, 'mark3labs__mcp-go', 'otel', 'go.mod'), path.join(dir, 'go.mod'));
    const plan = await prepareAudit({ dir });
    expect(plan.subjects).toHaveLength(22);
    expect(plan.subjects.every((s) => s.ecosystem === 'go' && s.version?.startsWith('v') === true)).toBe(true);
    expect(plan.subjects.filter((s) => s.direct)).toHaveLength(7);
    expect(plan.subjects.some((s) => s.name === 'github.com/mark3labs/mcp-go')).toBe(false);
    expect(plan.remotes).toEqual([]);
    expect(plan.inputs[0]?.skipped?.map((s) => [s.kind, s.ecosystem, s.name, s.line, s.source])).toEqual([['local', 'go', 'github.com/mark3labs/mcp-go', 34, '../']]);
    expect(plan.warnings.filter((w) => w.code === 'input-note').map((w) => w.message)).toEqual([expect.stringMatching(/^go\.mod:34: "github\.com\/mark3labs\/mcp-go@v0\.53\.0" skipped: replaced by the local directory/)]);
  });

  it("a workspace member's Cargo.toml makes a crate it only lists under [dev-dependencies] dev; --omit dev leaves it out; a git crate is a remote", async () => {
    write('Cargo.toml', '[workspace]\nmembers = ["crates/*"]\n');
    write('crates/app/Cargo.toml', '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\nruntime_crate = "1"\nforked = { git = "https://github.com/example/forked" }\n\n[dev-dependencies]\ntester = "2"\n');
    write(
      'Cargo.lock',
      [
        'version = 4',
        '',
        '[[package]]\nname = "app"\nversion = "0.1.0"\ndependencies = [\n "forked",\n "runtime_crate",\n "tester",\n]',
        '[[package]]\nname = "forked"\nversion = "0.3.0"\nsource = "git+https://github.com/example/forked#0123456789abcdef0123456789abcdef01234567"',
        '[[package]]\nname = "runtime_crate"\nversion = "1.0.1"\nsource = "registry+https://github.com/rust-lang/crates.io-index"',
        '[[package]]\nname = "tester"\nversion = "2.0.0"\nsource = "registry+https://github.com/rust-lang/crates.io-index"',
        '',
      ].join('\n\n'),
    );
    const plan = await prepareAudit({ dir });
    expect(plan.subjects.map((s) => [s.ecosystem, s.name, s.version, s.direct, s.dev])).toEqual([
      ['cargo', 'runtime_crate', '1.0.1', true, false],
      ['cargo', 'tester', '2.0.0', true, true],
    ]);
    expect(plan.remotes.map((r) => [r.kind, r.ecosystem, r.name, r.host, r.direct, r.dev, r.source])).toEqual([
      ['remote', 'cargo', 'forked', 'github.com', true, false, 'git+https://github.com/example/forked#0123456789abcdef0123456789abcdef01234567'],
    ]);
    const runtime = await prepareAudit({ dir, omitDev: true });
    expect(runtime.subjects.map((s) => s.name)).toEqual(['runtime_crate']);
  });
});

describe('a crate from a private registry or git host with credentials', () => {
  it('is a remote whose source keeps neither the user name and password nor the query string', () => {
    const lock = [
      'version = 4',
      '[[package]]\nname = "app"\nversion = "0.1.0"\ndependencies = ["inner", "private"]',
      '[[package]]\nname = "inner"\nversion = "1.0.0"\nsource = "git+https://user:s3cret@git.example.com/team/inner?token=abc#0123456789abcdef"',
      '[[package]]\nname = "private"\nversion = "2.0.0"\nsource = "sparse+https://cargo.example.com/index/"',
    ].join('\n\n');
    const input = readInputText(lock, 'Cargo.lock');
    expect(input.dependencies).toEqual([]);
    expect(input.skipped?.map((s) => [s.kind, s.name, s.host, s.source])).toEqual([
      ['remote', 'inner', 'git.example.com', 'git+https://git.example.com/team/inner#0123456789abcdef'],
      ['remote', 'private', 'cargo.example.com', 'sparse+https://cargo.example.com/index/'],
    ]);
    expect(JSON.stringify(input)).not.toContain('s3cret');
  });
});

describe('--changed-since with a go.mod', () => {
  it('keeps only the modules added or moved to another version since the revision', async () => {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=Nerq Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, stdio: 'ignore' });
    write('go.mod', 'module example.com/app\n\nrequire (\n\texample.com/kept v1.0.0\n\texample.com/moved v1.0.0\n)\n');
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'base');
    git('tag', 'base');
    write('go.mod', 'module example.com/app\n\nrequire (\n\texample.com/kept v1.0.0\n\texample.com/moved v1.1.0\n\texample.com/added v0.1.0 // indirect\n)\n');
    const plan = await prepareAudit({ dir, changedSince: 'base', policyFromHead: true });
    expect(plan.subjects.map((s) => [s.ecosystem, s.name, s.version, s.direct])).toEqual([
      ['go', 'example.com/added', 'v0.1.0', false],
      ['go', 'example.com/moved', 'v1.1.0', true],
    ]);
  });
});

const subject = (ecosystem: 'go' | 'cargo' = 'go', name = 'golang.org/x/net', version = 'v0.1.0'): ModuleSubject => ({
  ecosystem,
  name,
  version,
  spec: null,
  direct: true,
  dev: false,
  declaredIn: [{ file: 'go.mod', line: 3, workspace: null }],
  resolved: null,
  via: [],
});

const advisory = (id: string, severity: AdvisoryFacts['severity'], malicious = false): AdvisoryFacts => ({
  id,
  aliases: [],
  summary: null,
  severity,
  severitySource: 'database',
  cvss: null,
  cvssVector: null,
  package: 'golang.org/x/net',
  ecosystem: 'go',
  version: '0.1.0',
  affectsResolved: true,
  fixed: null,
  published: null,
  malicious,
  url: null,
});

const ok = (advisories: AdvisoryFacts[]) =>
  ({ status: 'ok', facts: { advisories, dependencyAdvisories: null, dependenciesQueried: 0, dependencyAdvisoriesReason: null } }) as const;
const options = { gate: DEFAULT_GATE, evaluatedAt: NOW.toISOString() };
const decide = (report: ReturnType<typeof moduleReport>, flags = {}, file = null) => applyPolicy(report, subject(), mergePolicy(file, flags), NOW);

describe('the report and the policy of a Go module or crate', () => {
  it('is never scored: score and grade null, verdict unknown, the stable code; a purl of its ecosystem', () => {
    const report = moduleReport(subject(), ok([]), options);
    expect([report.score, report.grade, report.verdictCode, report.error?.code]).toEqual([null, null, 'unknown', MODULE_NOT_SCORED]);
    expect(report.target).toMatchObject({ ecosystem: 'go', purl: 'pkg:golang/golang.org/x/net@v0.1.0' });
    expect(moduleReport(subject('cargo', 'serde_json', '1.0.0'), ok([]), options).target.purl).toBe('pkg:cargo/serde_json@1.0.0');
  });

  it('no advisory: incomplete (not-scored), never pass', () => {
    expect(decide(moduleReport(subject(), ok([]), options))).toMatchObject({ status: 'incomplete', failures: [{ rule: 'not-scored' }] });
  });

  it('an advisory of unknown severity fails it as high (rule advisory); a moderate one only at --fail-on moderate', () => {
    expect(decide(moduleReport(subject(), ok([advisory('GO-1', 'unknown')]), options))).toMatchObject({ status: 'fail', failures: [{ rule: 'advisory' }] });
    const moderate = moduleReport(subject(), ok([advisory('GO-2', 'moderate')]), options);
    expect(decide(moderate).status).toBe('incomplete');
    expect(decide(moderate, { failOnSeverity: 'moderate' })).toMatchObject({ status: 'fail', failures: [{ rule: 'advisory' }] });
  });

  it('a malicious record fails it (rule malicious); OSV unavailable leaves it unchecked (not-checked)', () => {
    expect(decide(moduleReport(subject(), ok([advisory('MAL-1', 'critical', true)]), options))).toMatchObject({ status: 'fail', failures: [{ rule: 'malicious' }], ignoredBy: null });
    const down = moduleReport(subject(), { status: 'unavailable', reason: 'OSV: HTTP 503', code: 'http-status' }, options);
    expect(down.sources).toEqual([{ id: 'vulnerabilities', status: 'unavailable', reason: 'OSV: HTTP 503' }]);
    expect(decide(down)).toMatchObject({ status: 'incomplete', failures: [{ rule: 'not-checked', checks: ['known-vulnerabilities', 'malicious-package'] }] });
  });
});

describe('ignore entries for Go modules and crates', () => {
  it('go: and cargo: take an exact version or none; a range is refused', () => {
    expect(parseIgnoreTarget('go:golang.org/x/net@v0.1.0')).toEqual({ ecosystem: 'go', name: 'golang.org/x/net', range: 'v0.1.0' });
    expect(parseIgnoreTarget('cargo:serde')).toEqual({ ecosystem: 'cargo', name: 'serde', range: null });
    expect(typeof parseIgnoreTarget('cargo:serde@^1')).toBe('string');
  });
});
