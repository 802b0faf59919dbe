/**
 * Policy end to end through the built CLI: `.nerqrc.json` with minScore, a dimension
 * floor, a licence deny list and an ignore entry with a reason; an expired ignore; a malformed
 * policy (exit 2 naming the file and key, before any request); `"nerq"` in package.json; flags
 * over the file. Also malformed lockfiles: exit 2, one line naming `file:line`, no request.
 *
 * The four synthetic packages score (with the default clock): good 90.9 (community 88),
 * gpl 89.2 (GPL-3.0-only), few 83.0 (3 downloads a week: community 35.2), old 49.9 (deprecated,
 * capped).
 */
import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FixtureServer } from '../support/fixture-server.js';
import { REPO_ROOT, runCli } from '../support/run-cli.js';
import { lineOf, packageLockV3, parseAudit, useAuditServer, writeIn, type SyntheticPackage } from './audit-helpers.js';
import { expectUsageError } from './helpers.js';

const GOOD: SyntheticPackage = { name: 'nerq-audit-good', version: '1.0.0' };
const GPL: SyntheticPackage = { name: 'nerq-audit-gpl', version: '1.0.0', license: 'GPL-3.0-only' };
const FEW: SyntheticPackage = { name: 'nerq-audit-few', version: '1.0.0', weekly: 3 };
const OLD: SyntheticPackage = { name: 'nerq-audit-old', version: '1.0.0', deprecated: 'use nerq-audit-good' };
const PACKAGES = [GOOD, GPL, FEW, OLD];
const REASON = 'replaced by nerq-audit-good in PLAT-123; removal scheduled';

let server: FixtureServer;

const dirs = useAuditServer({ packages: PACKAGES }, (started) => {
  server = started;
});

/** A project locking the four packages, with `policy` as `.nerqrc.json` (when given) and `extra` files. */
function project(policy: object | string | null, extra: Record<string, string> = {}, packages = PACKAGES): string {
  const { lock, manifest } = packageLockV3(packages.map((p) => ({ name: p.name, version: p.version, direct: true })), server.url('npm'));
  const files: Record<string, string> = { 'package-lock.json': lock, 'package.json': manifest, ...extra };
  if (policy !== null) files['.nerqrc.json'] = typeof policy === 'string' ? policy : `${JSON.stringify(policy, null, 2)}\n`;
  return dirs.project(files);
}

async function audit(dir: string, ...flags: string[]) {
  const before = server.requests.length;
  const result = await runCli(['audit', dir, ...flags], { server });
  return { ...result, requests: server.requests.slice(before) };
}

const byName = (report: ReturnType<typeof parseAudit>) => new Map(report.entries.map((e) => [e.subject.name, e]));
const rulesOf = (report: ReturnType<typeof parseAudit>, name: string) => byName(report).get(name)?.policy.failures.map((f) => f.rule);

const FULL_POLICY = {
  minScore: 85,
  dimensions: { community: 50 },
  licenses: { deny: ['GPL-3.0-only'] },
  ignore: [{ package: 'nerq-audit-old@^1.0.0', reason: REASON, expires: '2027-03-01' }],
};

describe('policy file', () => {
  it('minScore, a dimension floor, a licence deny list and an ignore entry with a reason', async () => {
    const result = await audit(project(FULL_POLICY), '--json');
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toBe('');
    const report = parseAudit(result.stdout);
    expect(report.policySource).toBe('.nerqrc.json');
    expect(report.summary).toEqual({ total: 4, passed: 1, failed: 2, ignored: 1, errors: 0, incomplete: 0 });
    const entries = byName(report);
    expect(entries.get(GOOD.name)?.policy).toEqual({ status: 'pass', failures: [], ignoredBy: null });
    expect(rulesOf(report, GPL.name)).toEqual(['license-denied']);
    expect(entries.get(GPL.name)?.policy.failures[0]?.message).toBe('licence GPL-3.0-only is denied by the policy (GPL-3.0-only)');
    expect(rulesOf(report, FEW.name)).toEqual(['min-score', 'dimension-floor']);
    expect(entries.get(FEW.name)?.policy.failures.map((f) => f.message)).toEqual(['score 83.1 is below the minimum 85', 'Community 35.2 is below its floor 50']);
    // The deprecated package fails (capped, below the minimum) but an unexpired ignore covers it.
    const old = entries.get(OLD.name);
    expect(old?.policy.status).toBe('ignored');
    expect(old?.policy.failures.map((f) => f.rule)).toEqual(['capped', 'min-score']);
    expect(old?.policy.ignoredBy).toEqual({ package: 'nerq-audit-old@^1.0.0', reason: REASON, expires: '2027-03-01' });
    // Worst first: failures, then the ignored package, then the pass.
    expect(report.entries.map((e) => e.policy.status)).toEqual(['fail', 'fail', 'ignored', 'pass']);
  });

  it('an ignored package passes the run; the table says why it is ignored', async () => {
    const result = await audit(project({ ignore: FULL_POLICY.ignore }));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/IGNORED\s+nerq-audit-old@1\.0\.0\s+49\.9/);
    expect(result.stdout).toContain('policy: .nerqrc.json');
    expect(result.stdout).toMatch(/^PASS\b/m);
    expect(result.stdout).not.toMatch(/^FAIL\b/m);
  });

  it('flags override the file: --min-score 95 fails even the best package', async () => {
    const result = await audit(project({ ...FULL_POLICY, minScore: 10 }), '--json', '--min-score', '95');
    expect(result.code).toBe(1);
    expect(rulesOf(parseAudit(result.stdout), GOOD.name)).toEqual(['min-score']);
  });

  it('the file\'s minCoverage judges the verdict as --min-coverage does: never YES on a package the policy calls not evaluated (exit 3)', async () => {
    const viaFile = await audit(project({ minCoverage: 0.99 }, {}, [GOOD]), '--json');
    const viaFlag = await audit(project(null, {}, [GOOD]), '--json', '--min-coverage', '0.99');
    for (const result of [viaFile, viaFlag]) {
      expect(result.code).toBe(3);
      const entry = byName(parseAudit(result.stdout)).get(GOOD.name);
      expect(entry?.policy.status).toBe('error');
      expect(entry?.policy.failures.map((f) => f.rule)).toEqual(['min-coverage']);
      expect(entry?.report.coverage).toBeLessThan(0.99);
      // docs/scoring.md §6a: below the coverage the gate needs, the score is provisional and the verdict at best CAUTION.
      expect(entry?.report.provisional).toBe(true);
      expect(entry?.report.verdictCode).toBe('caution');
      expect(entry?.report.gate.reasonDetails.map((r) => r.code)).toContain('low-coverage');
    }
  });

  it('an expired ignore fails the run, and stderr names it', async () => {
    const expired = { ignore: [{ package: 'nerq-audit-old@^1.0.0', reason: REASON, expires: '2026-11-01' }] };
    const result = await audit(project(expired), '--json');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`nerq: .nerqrc.json: ignore[0] "nerq-audit-old@^1.0.0" expired on 2026-11-01 (reason: ${REASON}); renew or remove it\n`);
    // No longer ignored: the deprecated package fails like any other.
    const report = parseAudit(result.stdout);
    expect(byName(report).get(OLD.name)?.policy).toMatchObject({ status: 'fail', ignoredBy: null });
    expect(report.summary).toMatchObject({ failed: 1, ignored: 0 });
  });

  it('"nerq" in package.json is the policy when there is no .nerqrc.json', async () => {
    const { lock, manifest } = packageLockV3(PACKAGES.map((p) => ({ name: p.name, version: p.version, direct: true })), server.url('npm'));
    const withPolicy = { ...(JSON.parse(manifest) as object), nerq: { licenses: { deny: ['GPL-3.0-only'] }, ignore: FULL_POLICY.ignore } };
    const dir = dirs.project({ 'package-lock.json': lock, 'package.json': `${JSON.stringify(withPolicy, null, 2)}\n` });
    const result = await audit(dir, '--json');
    expect(result.code).toBe(1);
    const report = parseAudit(result.stdout);
    expect(report.policySource).toBe('package.json#nerq');
    expect(report.summary).toEqual({ total: 4, passed: 2, failed: 1, ignored: 1, errors: 0, incomplete: 0 });
    expect(rulesOf(report, GPL.name)).toEqual(['license-denied']);
  });
});

describe('a malformed policy is bad input: exit 2, the file and key named, no request', () => {
  it.each([
    ['a value of the wrong type', '.nerqrc.json', { minScore: 'high' }, 'nerq: .nerqrc.json: minScore: expected number, got string'],
    ['an ignore without a reason', '.nerqrc.json', { ignore: [{ package: 'nerq-audit-old' }] }, 'nerq: .nerqrc.json: ignore[0].reason: required'],
    ['a misspelt dimension floor', '.nerqrc.json', { dimensions: { securty: 60 } }, 'nerq: .nerqrc.json: dimensions.securty: unknown key'],
    ['a licence that is not SPDX', '.nerqrc.json', { licenses: { deny: ['GPL-3'] } }, "nerq: .nerqrc.json: licenses.deny[0]: 'GPL-3' is not an SPDX licence identifier"],
    ['invalid JSON', '.nerqrc.json', '{\n  "minScore": 50,\n}\n', 'nerq: .nerqrc.json: invalid JSON at line 3 column 1'],
    ['a bad "nerq" key in package.json', 'package.json', { nerq: { minCoverage: 2 } }, 'nerq: package.json: nerq.minCoverage: must be at most 1'],
  ])('%s', async (_label, file, content, message) => {
    const text = typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`;
    const dir =
      file === 'package.json'
        ? dirs.project({ 'package.json': text, 'package-lock.json': packageLockV3([{ name: GOOD.name, version: GOOD.version }], server.url('npm')).lock })
        : project(text);
    const result = await audit(dir, '--json');
    expectUsageError(result);
    expect(result.stderr).toBe(`${message}\n`);
    expect(result.requests).toEqual([]);
  });

  it('--policy names a file outside the project; a missing one is refused the same way', async () => {
    const policyDir = dirs.project({ 'team-policy.json': `${JSON.stringify({ minScore: 95 })}\n` });
    const ok = await audit(project(null), '--json', '--policy', path.join(policyDir, 'team-policy.json'));
    expect(ok.code).toBe(1);
    expect(parseAudit(ok.stdout).entries.every((e) => e.policy.failures.some((f) => f.rule === 'min-score'))).toBe(true);
    const missing = await audit(project(null), '--json', '--policy', 'no-such-policy.json');
    expectUsageError(missing);
    expect(missing.stderr).toBe('nerq: no-such-policy.json: no such file\n');
    expect(missing.requests).toEqual([]);
  });
});

describe('a malformed lockfile is bad input: exit 2, one line with file:line, no request', () => {
  it.each([
    ['npm-syntax', 'package-lock.json', '"version": "4.1.0"', 'invalid JSON'],
    ['npm-shape', 'package-lock.json', '"version": 2.1,', 'unexpected structure'],
    ['package-json', 'package.json', '"debug": 4', 'unexpected structure'],
    ['pnpm', 'pnpm-lock.yaml', "engines: {node: '>=10'}}", 'invalid YAML'],
    ['yarn-berry', 'yarn.lock', '   resolution: "chalk@npm:4.1.0"', 'invalid yarn.lock'],
    ['bun', 'bun.lock', '"chalk@4.1.0" ""', 'invalid JSON'],
    ['requirements', 'requirements.txt', 'certifi>>', 'invalid version specifier'],
    ['poetry', 'poetry.lock', 'version = 2.31.0', 'invalid TOML'],
  ])('%s/%s (detected in the directory)', async (fixture, file, needle, detail) => {
    const dir = dirs.make();
    cpSync(path.join(REPO_ROOT, 'fixtures', 'lockfiles', 'malformed', fixture), dir, { recursive: true });
    const text = readFileSync(path.join(dir, file), 'utf8');
    const result = await audit(dir);
    expectUsageError(result);
    expect(result.stderr.startsWith(`nerq: ${file}:${lineOf(text, needle)}: ${detail}`), result.stderr).toBe(true);
    expect(result.requests).toEqual([]);
  });

  it('an SBOM named with --file, relative to the audited directory', async () => {
    const dir = dirs.make();
    cpSync(path.join(REPO_ROOT, 'fixtures', 'lockfiles', 'malformed', 'cyclonedx'), path.join(dir, 'sbom'), { recursive: true });
    writeIn(dir, 'package.json', '{ "name": "app" }\n');
    const result = await audit(dir, '--file', 'sbom/bom.cdx.json', '--json');
    expectUsageError(result);
    expect(result.stderr).toMatch(/^nerq: sbom\/bom\.cdx\.json:\d+: not a valid package URL/);
    expect(result.requests).toEqual([]);
  });

  it('a missing --file names it', async () => {
    const dir = project(null);
    const result = await audit(dir, '--file', 'missing-lock.json');
    expectUsageError(result);
    // The audited directory is not the current one: the line says where the file was looked for.
    expect(result.stderr).toBe(`nerq: missing-lock.json: cannot read: no such file in ${dir} (a --file path is read from the audited directory)\n`);
    expect(result.requests).toEqual([]);
  });
});
