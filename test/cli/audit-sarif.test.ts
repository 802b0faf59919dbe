/**
 * `nerq audit --format sarif` through the built CLI — the SARIF 2.1.0 required fields,
 * one result per failing (error) or unevaluated (warning) package, located at the lockfile line
 * that declares it, relative to the repository root; and in GitHub Actions
 * (`GITHUB_ACTIONS=true`) `::error file=…,line=…::` annotations on stderr while stdout stays a
 * valid SARIF log or JSON report.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CHECKS } from '../../src/checks/index.js';
import { FINDING_RULES, POLICY_RULES } from '../../src/render/sarif.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { CVSS_CRITICAL, lineOf, osvRecord, packageLockV3, parseAudit, useAuditServer, writeIn, type AuditServerOptions, type SyntheticPackage } from './audit-helpers.js';
import { packumentPath } from './helpers.js';
import { unlocatedResults } from '../support/sarif-located.js';

/**
 * The SARIF 2.1.0 schema's required fields (sarif-schema-2.1.0.json), as in
 * test/render/audit/sarif.test.ts: sarifLog needs version and runs; run needs tool; tool needs
 * driver; toolComponent needs name; reportingDescriptor needs id; result needs message, which
 * needs text or id; physicalLocation needs artifactLocation (or address); region startLine ≥ 1.
 */
const Text = z.object({ text: z.string() });
const Result = z.object({
  message: z.object({ text: z.string().optional(), id: z.string().optional() }).refine((m) => m.text !== undefined || m.id !== undefined),
  ruleId: z.string(),
  ruleIndex: z.number().int().min(0),
  level: z.enum(['none', 'note', 'warning', 'error']),
  locations: z.array(
    z.object({ physicalLocation: z.object({ artifactLocation: z.object({ uri: z.string() }), region: z.object({ startLine: z.number().int().min(1) }) }) }),
  ),
  partialFingerprints: z.record(z.string(), z.string()),
  properties: z.object({ package: z.string(), version: z.string().nullable() }).loose(),
});
const SarifLog = z.object({
  $schema: z.url(),
  version: z.literal('2.1.0'),
  runs: z
    .array(
      z.object({
        tool: z.object({
          driver: z.object({
            name: z.literal('nerq'),
            version: z.string(),
            rules: z.array(z.object({ id: z.string(), shortDescription: Text.optional(), fullDescription: Text.optional(), help: Text.optional() })),
          }),
        }),
        results: z.array(Result),
      }),
    )
    .length(1),
});

const GOOD: SyntheticPackage = { name: 'nerq-audit-good', version: '1.0.0' };
const OLD: SyntheticPackage = { name: 'nerq-audit-old', version: '2.3.1', deprecated: 'no longer maintained' };
const VULNERABLE: SyntheticPackage = { name: 'nerq-audit-vulnerable', version: '0.4.2' };
const GONE = { name: 'nerq-audit-gone', version: '1.1.0' };

let server: FixtureServer;
/** The repository root; the audited project is its `app/` folder. */
let repo: string;
let lockText: string;

const options: AuditServerOptions = {
  // Unpublished since the lockfile was written: could not be evaluated.
  before: (started) => started.expect('GET', packumentPath(GONE.name), { status: 404 }),
  packages: [GOOD, OLD, VULNERABLE],
  advisories: [osvRecord('GHSA-test-crit-0101', [VULNERABLE.name], CVSS_CRITICAL)],
};
const dirs = useAuditServer(options, (started) => {
  server = started;
  const { lock, manifest } = packageLockV3(
    [GOOD, OLD, VULNERABLE, GONE].map((p) => ({ name: p.name, version: p.version, direct: true })),
    server.url('npm'),
  );
  lockText = lock;
  repo = dirs.project({ '.git/HEAD': 'ref: refs/heads/main\n', 'app/package-lock.json': lock, 'app/package.json': manifest });
});

const audit = (flags: string[], env: Record<string, string> = {}) => runCli(['audit', 'app', ...flags], { server, env, cwd: repo });

/** The 1-based line of the lockfile entry that pins `name` (`"node_modules/<name>": {`). */
const pinnedAt = (name: string | undefined): number => lineOf(lockText, `"node_modules/${name}": {`);

describe('--format sarif', () => {
  it('is SARIF 2.1.0 with one located result per failing or unevaluated package', async () => {
    const result = await audit(['--format', 'sarif']);
    expect(result.code, result.stderr).toBe(1);
    const log = SarifLog.parse(JSON.parse(result.stdout));
    const [run] = log.runs;
    const rules = run?.tool.driver.rules ?? [];
    expect(rules.map((r) => r.id)).toEqual([...CHECKS.map((c) => c.id), ...POLICY_RULES.map((r) => `policy/${r.rule}`), ...FINDING_RULES.map((r) => `finding/${r.code}`)]);

    const results = run?.results ?? [];
    expect(results.map((r) => [r.properties.package, r.level, r.ruleId]).sort()).toEqual(
      [
        [GONE.name, 'warning', 'policy/not-evaluated'],
        [OLD.name, 'error', 'policy/capped'],
        // Its critical advisory's cap: the critical advisory rule (critical in code scanning).
        [VULNERABLE.name, 'error', 'policy/advisory-critical'],
      ].sort(),
    );
    for (const r of results) {
      // ruleIndex points at the rule its ruleId names.
      expect(rules[r.ruleIndex]?.id).toBe(r.ruleId);
      // Located at the line of app/package-lock.json (repository-relative) that declares the package.
      const location = r.locations[0]?.physicalLocation;
      expect(location?.artifactLocation.uri).toBe('app/package-lock.json');
      expect(location?.region.startLine).toBe(pinnedAt(r.properties.package));
      expect(r.message.text).toContain(r.properties.package);
    }
    expect(unlocatedResults(result.stdout)).toEqual([]);
    const vulnerable = results.find((r) => r.properties.package === VULNERABLE.name);
    expect(vulnerable?.message.text).toContain('GHSA-test-crit-0101');
    // Without GITHUB_ACTIONS nothing goes to stderr.
    expect(result.stderr).toBe('');
  });

  it('points at the same lines the JSON report gives', async () => {
    const [sarif, json] = await Promise.all([audit(['--format', 'sarif']), audit(['--json'])]);
    const located = new Map(
      SarifLog.parse(JSON.parse(sarif.stdout)).runs[0]?.results.map((r) => [r.properties.package, r.locations[0]?.physicalLocation.region.startLine]),
    );
    const report = parseAudit(json.stdout);
    for (const entry of report.entries.filter((e) => e.policy.status === 'fail' || e.policy.status === 'error')) {
      expect(entry.subject.declaredIn[0]?.file).toBe('package-lock.json');
      expect(located.get(entry.subject.name)).toBe(entry.subject.declaredIn[0]?.line);
    }
  });
});

describe('GITHUB_ACTIONS=true', () => {
  const annotationPattern = /^::(error|warning) file=app\/package-lock\.json,line=(\d+),title=nerq%3A ([^:]+?) (fails the policy|could not be evaluated)::(.+)$/;

  function expectAnnotations(stderr: string): void {
    const lines = stderr.split('\n').filter((l) => l !== '');
    expect(lines, stderr).toHaveLength(3);
    const parsed = lines.map((line) => {
      const m = annotationPattern.exec(line);
      expect(m, line).not.toBeNull();
      return { kind: m?.[1], line: Number(m?.[2]), label: m?.[3], message: m?.[5] ?? '' };
    });
    expect(parsed.map((a) => `${a.kind} ${a.label}`).sort()).toEqual(
      [`error ${OLD.name}@${OLD.version}`, `error ${VULNERABLE.name}@${VULNERABLE.version}`, `warning ${GONE.name}@${GONE.version}`].sort(),
    );
    for (const a of parsed) expect(a.line).toBe(pinnedAt(a.label?.split('@')[0]));
    expect(parsed.find((a) => a.label?.startsWith(OLD.name))?.message).toContain('deprecated');
  }

  it('annotations on stderr, stdout still a valid SARIF log', async () => {
    const result = await audit(['--format', 'sarif'], { GITHUB_ACTIONS: 'true' });
    expect(result.code).toBe(1);
    expect(SarifLog.safeParse(JSON.parse(result.stdout)).success).toBe(true);
    expectAnnotations(result.stderr);
  });

  it('annotations on stderr, stdout still the JSON report', async () => {
    const result = await audit(['--json'], { GITHUB_ACTIONS: 'true' });
    expect(result.code).toBe(1);
    expect(parseAudit(result.stdout).summary).toEqual({ total: 4, passed: 1, failed: 2, ignored: 0, errors: 1, incomplete: 0 });
    expect(result.stdout).not.toContain('::error');
    expectAnnotations(result.stderr);
  });

  it('a run where everything passes writes no annotation', async () => {
    const dir = dirs.project({});
    const { lock, manifest } = packageLockV3([{ name: GOOD.name, version: GOOD.version, direct: true }], server.url('npm'));
    writeIn(dir, 'package-lock.json', lock);
    writeIn(dir, 'package.json', manifest);
    const result = await runCli(['audit', dir, '--format', 'sarif'], { server, env: { GITHUB_ACTIONS: 'true' } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(SarifLog.parse(JSON.parse(result.stdout)).runs[0]?.results).toEqual([]);
    expect(readFileSync(path.join(dir, 'package-lock.json'), 'utf8')).toBe(lock);
  });
});

describe('--fail-on', () => {
  it('fails a package an advisory at that severity or above affects, with the rule and the fix; the table says what to upgrade to', async () => {
    const json = await audit(['--json', '--fail-on', 'critical']);
    expect(json.code).toBe(1);
    const entry = parseAudit(json.stdout).entries.find((e) => e.subject.name === VULNERABLE.name);
    expect(entry?.policy.failures.map((f) => f.rule)).toContain('advisory');
    expect(entry?.policy.failures.find((f) => f.rule === 'advisory')?.message).toMatch(/^GHSA-test-crit-0101 \(critical, CVSS 9\.8\) affects 0\.4\.2, fixed in 99\.0\.0 \(fail on critical and above\)$/);
    const table = await audit(['--fail-on', 'critical']);
    expect(table.stdout).toMatch(/^ +fix: upgrade to 99\.0\.0$/m);
    const sarif = JSON.parse((await audit(['--format', 'sarif', '--fail-on', 'critical'])).stdout) as {
      runs: { tool: { driver: { rules: { id: string; properties: Record<string, unknown> }[] } }; results: { ruleId: string; properties: { package: string } }[] }[];
    };
    // The critical advisory's result is on the critical advisory rule: critical in code scanning (> 9.0).
    const ruleId = sarif.runs[0]?.results.find((r) => r.properties.package === VULNERABLE.name)?.ruleId;
    expect(ruleId).toBe('policy/advisory-critical');
    expect(Number(sarif.runs[0]?.tool.driver.rules.find((r) => r.id === ruleId)?.properties['security-severity'])).toBeGreaterThan(9);
  });

  it('a severity that is not one is a usage error, before any request', async () => {
    const before = server.requests.length;
    const result = await audit(['--fail-on', 'medium']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('nerq: --fail-on must be one of low, moderate, high, critical\n');
    expect(server.requests.length).toBe(before);
  });
});

describe('-o, --output FILE', () => {
  it('writes the SARIF or the JSON to the file, nothing to stdout, with the same exit code', async () => {
    const sarif = await audit(['--format', 'sarif', '-o', 'nerq.sarif']);
    const piped = await audit(['--format', 'sarif']);
    expect(sarif.code).toBe(piped.code);
    expect(sarif.stdout).toBe('');
    expect(readFileSync(path.join(repo, 'nerq.sarif'), 'utf8')).toBe(piped.stdout);
    const json = await audit(['--json', '--output', 'audit.json']);
    expect(json.stdout).toBe('');
    expect(parseAudit(readFileSync(path.join(repo, 'audit.json'), 'utf8')).entries.length).toBeGreaterThan(0);
  });
});
