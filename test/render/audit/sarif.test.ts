/* eslint-disable @typescript-eslint/no-explicit-any -- the spec-check mutates raw JSON */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AuditEntry } from '../../../src/audit/types.js';
import { CHECKS } from '../../../src/checks/index.js';
import { FINDING_RULES, packageFingerprint, POLICY_RULES, renderSarif } from '../../../src/render/sarif.js';
import { moduleReport } from '../../../src/audit/module-report.js';
import { applyPolicy, mergePolicy } from '../../../src/audit/policy.js';
import type { AdvisoryFacts } from '../../../src/evidence/schema.js';
import { DEFAULT_GATE } from '../../../src/scoring/gate.js';
import { auditOf, deprecated, entryOf, entryWith, malicious, NOW, reportOf, thin } from '../../audit/policy/reports.js';
import { advisory, vulnerabilityFacts } from '../../support/evidence-builder.js';
import { HOSTILE } from '../reports.js';
import { hostileAudit, sampleAudit } from './sample.js';
import { CHECKS_DOC_URL, checksDocUrlOf } from '../../../src/version.js';

/**
 * The SARIF 2.1.0 schema's required fields (sarif-schema-2.1.0.json), as zod: sarifLog needs
 * version and runs; run needs tool; tool needs driver; toolComponent needs name;
 * reportingDescriptor needs id; multiformatMessageString needs text; result needs message;
 * message needs text or id; physicalLocation needs artifactLocation or address; region
 * startLine ≥ 1; ruleIndex ≥ 0 (and, checked below, it points at the rule named by ruleId).
 */
const MultiformatMessage = z.object({ text: z.string() });
const Message = z
  .object({ text: z.string().optional(), id: z.string().optional() })
  .refine((m) => m.text !== undefined || m.id !== undefined, 'message requires text or id');
const ReportingDescriptor = z.object({
  id: z.string(),
  name: z.string().optional(),
  shortDescription: MultiformatMessage.optional(),
  fullDescription: MultiformatMessage.optional(),
  help: MultiformatMessage.extend({ markdown: z.string().optional() }).optional(),
  helpUri: z.url().optional(),
});
const Region = z.object({ startLine: z.number().int().min(1).optional() });
const PhysicalLocation = z.union([
  z.object({ artifactLocation: z.object({ uri: z.string().optional() }), region: Region.optional() }),
  z.object({ address: z.object({}).loose(), region: Region.optional() }),
]);
const Result = z.object({
  message: Message,
  ruleId: z.string().optional(),
  ruleIndex: z.number().int().min(-1).optional(),
  level: z.enum(['none', 'note', 'warning', 'error']).optional(),
  locations: z.array(z.object({ physicalLocation: PhysicalLocation.optional() })).optional(),
  partialFingerprints: z.record(z.string(), z.string()).optional(),
});
const SarifLog = z.object({
  $schema: z.url().optional(),
  version: z.literal('2.1.0'),
  runs: z.array(
    z.object({
      tool: z.object({
        driver: z.object({
          name: z.string(),
          version: z.string().optional(),
          informationUri: z.url().optional(),
          rules: z.array(ReportingDescriptor).optional(),
        }),
      }),
      results: z.array(Result).optional(),
    }),
  ),
});
type Log = z.infer<typeof SarifLog>;

const parse = (text: string): Log => SarifLog.parse(JSON.parse(text));

describe('renderSarif', () => {
  it("a failing package's result says the fix and the path from a direct dependency, as the table does", () => {
    const report = reportOf({ vulnerabilities: vulnerabilityFacts({ advisories: [advisory({ severity: 'critical', cvss: 9.8, fixed: '2.1.1' })] }) });
    const log = JSON.parse(renderSarif(auditOf([entryOf(report, undefined, { direct: false, via: ['webpack', 'terser'] })]), { checks: CHECKS })) as any;
    const text: string = log.runs[0].results[0].message.text;
    expect(text).toMatch(/; fix: upgrade to 2\.1\.1; via webpack › terser$/);
  });

  const log = parse(renderSarif(sampleAudit(), { checks: CHECKS }));
  const run = log.runs[0];
  const rules = run?.tool.driver.rules ?? [];
  const results = run?.results ?? [];

  it('is a SARIF 2.1.0 log with the required fields, one run of nerq', () => {
    expect(log.runs).toHaveLength(1);
    expect(log.$schema).toMatch(/sarif-schema-2\.1\.0\.json$/);
    expect(run?.tool.driver.name).toBe('nerq');
    // No informationUri (optional in SARIF 2.1.0): a page nerq names for itself is one someone else could come to control.
    expect(run?.tool.driver).not.toHaveProperty('informationUri');
    expect(run?.tool.driver.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('has a rule per check (from its metadata), per policy rule and per MCP finding', () => {
    expect(rules.map((r) => r.id)).toEqual([...CHECKS.map((c) => c.id), ...POLICY_RULES.map((r) => `policy/${r.rule}`), ...FINDING_RULES.map((r) => `finding/${r.code}`)]);
    const first = CHECKS[0];
    expect(rules[0]).toMatchObject({
      id: first?.id,
      name: first?.title,
      shortDescription: { text: first?.title },
      fullDescription: { text: first?.description },
    });
  });

  it("a check's rule links to its section of docs/checks.md in the repository package.json declares; without one, no rule links out", () => {
    const docs = 'https://git.example.org/acme/nerq/blob/HEAD/docs/checks.md';
    const linked = parse(renderSarif(sampleAudit(), { checks: CHECKS, checksDocUrl: docs })).runs[0]?.tool.driver.rules ?? [];
    expect(linked.filter((r) => r.helpUri !== undefined).map((r) => r.helpUri)).toEqual(CHECKS.map((c) => `${docs}#${c.id}`));
    // Policy and MCP finding rules have no section there: their help is in the log only.
    expect(linked.filter((r) => r.id.startsWith('policy/') || r.id.startsWith('finding/')).every((r) => r.helpUri === undefined)).toBe(true);
    // Every check id is a heading of docs/checks.md, so the anchor exists.
    const headings = new Set(readFileSync(path.join(import.meta.dirname, '../../../docs/checks.md'), 'utf8').split('\n').filter((l) => l.startsWith('### ')).map((l) => l.slice(4).trim()));
    expect(CHECKS.map((c) => c.id).filter((id) => !headings.has(id))).toEqual([]);
    // This package.json declares no repository: the log the CLI writes links nowhere.
    expect(CHECKS_DOC_URL).toBeNull();
    expect(rules.every((r) => r.helpUri === undefined)).toBe(true);
  });

  it('the docs link comes from package.json `repository` as an https URL only, never a host it does not name', () => {
    expect(checksDocUrlOf({ repository: { type: 'git', url: 'git+https://github.com/acme/nerq.git' } })).toBe('https://github.com/acme/nerq/blob/HEAD/docs/checks.md');
    expect(checksDocUrlOf({ repository: 'https://git.example.org/acme/nerq' })).toBe('https://git.example.org/acme/nerq/blob/HEAD/docs/checks.md');
    expect(checksDocUrlOf({ repository: { url: 'https://github.com/acme/tools.git', directory: 'packages/nerq' } })).toBe('https://github.com/acme/tools/blob/HEAD/packages/nerq/docs/checks.md');
    for (const repository of [undefined, null, 42, {}, 'acme/nerq', 'github:acme/nerq', 'git@github.com:acme/nerq.git', 'http://github.com/acme/nerq', 'https://github.com/acme', 'https://user:pw@github.com/acme/nerq', 'not a url', { url: 'https://github.com/acme/nerq', directory: '../x' }]) {
      expect(checksDocUrlOf({ repository, homepage: 'https://acme.example/nerq' }), JSON.stringify(repository)).toBeNull();
    }
  });

  it('every rule carries its help in the log (text and the markdown code scanning shows)', () => {
    for (const rule of rules) {
      const help = rule.help as { text: string; markdown?: string } | undefined;
      expect(help?.text, rule.id).toContain(rule.fullDescription?.text ?? '—');
      expect(help?.markdown?.startsWith(`**${rule.name ?? '—'}**\n\n`), rule.id).toBe(true);
      expect(help?.markdown, rule.id).toContain(rule.fullDescription?.text ?? '—');
      // What to do next follows the description: more than the description alone.
      expect(help?.text.length, rule.id).toBeGreaterThan((rule.fullDescription?.text.length ?? 0) + 2);
    }
    expect(rules.find((r) => r.id === 'policy/verdict')?.help?.text).toMatch(/ignore list/);
    expect(rules.find((r) => r.id === 'finding/mcp-remote-insecure')?.help?.text).toMatch(/MCP ignore entry/);
  });

  it('one error per failing package, one warning per unevaluated one, a suppressed result per ignored one; none for passing', () => {
    expect(results.map((r) => [r.level, r.ruleId, r.message.text])).toEqual([
      ['error', 'policy/verdict', 'evil-pkg@0.0.1 fails the policy: NO — DO NOT USE: known malicious package: MAL-2026-1; score 9.9 is below the minimum 50'],
      ['error', 'policy/capped', 'old-thing@1.0.0 fails the policy: capped at 49.9: version is deprecated: no longer maintained; score 49.9 is below the minimum 50; verdict NO — USE WITH CAUTION fails the policy (failOn: caution)'],
      ['warning', 'policy/not-evaluated', 'ghost-pkg@1.0.0 could not be evaluated: npm package "ghost-pkg" was not found in the registry'],
      ['error', 'policy/verdict', 'so-so@0.3.0 is ignored (pinned by the build tool); it would fail: verdict CAUTION fails the policy (failOn: caution)'],
    ]);
    const raw = JSON.parse(renderSarif(sampleAudit(), { checks: CHECKS })) as Record<string, any>;
    // SARIF 2.1.0 §3.35: the decision lives in the policy file (external), accepted, with its reason.
    expect((raw.runs[0].results as any[]).map((r) => r.suppressions ?? null)).toEqual([
      null,
      null,
      null,
      [{ kind: 'external', status: 'accepted', justification: 'pinned by the build tool' }],
    ]);
  });

  it('an MCP finding is a result at its file and line, fingerprinted by code, file and server; ignored, it carries a suppression', () => {
    const widened = { code: 'mcp-widened-reach', message: '.mcp.json: line 5: MCP server "box" starts the container image …', details: { file: '.mcp.json', line: 5, server: 'box', image: 'ghcr.io/acme/box:1.0', flags: ['privileged'] } };
    const unverified = { code: 'mcp-remote-unverified', message: '.mcp.json: line 6: MCP server "docs" … unverified', details: { file: '.mcp.json', line: 6, server: 'docs', origin: 'https://mcp.example.com', reason: 'not-declared', candidates: [] } };
    const audit = auditOf([], {
      warnings: [widened, { ...unverified, ignoredBy: { mcp: 'docs', file: null, reason: 'our own server', expires: '2027-01-31' } }, { code: 'input-note', message: 'a note', details: {} }],
    });
    const raw = JSON.parse(renderSarif(audit, { checks: CHECKS, baseDir: 'app' })) as Record<string, any>;
    const found = raw.runs[0].results as any[];
    expect(found.map((r) => [r.ruleId, r.level, r.locations[0].physicalLocation, r.suppressions ?? null, r.properties])).toEqual([
      ['finding/mcp-widened-reach', 'error', { artifactLocation: { uri: 'app/.mcp.json' }, region: { startLine: 5 } }, null, { code: 'mcp-widened-reach', server: 'box' }],
      ['finding/mcp-remote-unverified', 'warning', { artifactLocation: { uri: 'app/.mcp.json' }, region: { startLine: 6 } }, [{ kind: 'external', status: 'accepted', justification: 'our own server' }], { code: 'mcp-remote-unverified', server: 'docs' }],
    ]);
    for (const r of found) expect(raw.runs[0].tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId);
    expect(found[0].partialFingerprints['nerqFinding/v1']).toMatch(/^[0-9a-f]{64}$/);
    expect(found[0].partialFingerprints['nerqFinding/v1']).not.toBe(found[1].partialFingerprints['nerqFinding/v1']);
    // Results, not notifications; the other warnings stay notifications.
    expect((raw.runs[0].invocations[0].toolExecutionNotifications as any[]).map((n) => n.descriptor.id)).toEqual(['input-note']);
  });

  it('ruleIndex points at the rule named by ruleId', () => {
    for (const result of results) {
      expect(result.ruleIndex).toBeGreaterThanOrEqual(0);
      expect(rules[result.ruleIndex ?? -1]?.id).toBe(result.ruleId);
    }
  });

  it('locates each result at the declaring file and line; no region when the line is unknown', () => {
    expect(results.map((r) => r.locations?.[0]?.physicalLocation)).toEqual([
      { artifactLocation: { uri: 'package.json' }, region: { startLine: 8 } },
      { artifactLocation: { uri: 'package-lock.json' }, region: { startLine: 12 } },
      { artifactLocation: { uri: 'package-lock.json' } },
      { artifactLocation: { uri: 'packages/app/package.json' }, region: { startLine: 9 } },
    ]);
  });

  it('locates a failure that carries `at` (a lockfile finding) at that pin, with no region when its line is unknown', () => {
    const located = (line: number | null) => {
      const entry = entryWith(deprecated('x', '1.0.0'), { status: 'fail', failures: [{ rule: 'lockfile-injection', message: 'm', at: { file: 'package-lock.json', line } }], ignoredBy: null }, {
        declaredIn: [{ file: 'packages/app/package.json', line: 9, workspace: 'packages/app' }],
      });
      const log = parse(renderSarif({ ...sampleAudit(), entries: [entry] }, { checks: CHECKS, baseDir: 'web' }));
      return log.runs[0]?.results?.map((r) => [r.ruleId, r.locations?.[0]?.physicalLocation]);
    };
    expect(located(41)).toEqual([['policy/lockfile-injection', { artifactLocation: { uri: 'web/package-lock.json' }, region: { startLine: 41 } }]]);
    expect(located(null)).toEqual([['policy/lockfile-injection', { artifactLocation: { uri: 'web/package-lock.json' } }]]);
  });

  it('prefixes the audited directory and encodes each path segment', () => {
    const base = deprecated('x', '1.0.0');
    const entry = entryWith(base, { status: 'fail', failures: [{ rule: 'capped', message: 'm' }], ignoredBy: null }, {
      declaredIn: [{ file: 'my app/package-lock.json', line: 3, workspace: null }],
    });
    const audit = { ...sampleAudit(), entries: [entry] };
    const one = parse(renderSarif(audit, { checks: CHECKS, baseDir: 'services/web' }));
    expect(one.runs[0]?.results?.[0]?.locations?.[0]?.physicalLocation).toEqual({
      artifactLocation: { uri: 'services/web/my%20app/package-lock.json' },
      region: { startLine: 3 },
    });
  });

  it('a package declared nowhere points at the first audited input (code scanning wants a location)', () => {
    const entry = entryWith(deprecated('x', '1.0.0'), { status: 'fail', failures: [{ rule: 'capped', message: 'm' }], ignoredBy: null }, { declaredIn: [] });
    const one = parse(renderSarif({ ...sampleAudit(), entries: [entry] }, { checks: CHECKS }));
    expect(one.runs[0]?.results?.[0]?.locations).toEqual([{ physicalLocation: { artifactLocation: { uri: 'package-lock.json' } } }]);
    // With no input at all, the audited folder itself: never a result without a location.
    const none = parse(renderSarif({ ...sampleAudit(), inputs: [], entries: [entry] }, { checks: CHECKS, baseDir: 'web' }));
    expect(none.runs[0]?.results?.[0]?.locations).toEqual([{ physicalLocation: { artifactLocation: { uri: 'web' } } }]);
  });

  it('a finding that names no file is located at the first input (repository-relative) and says it is about the project as a whole', () => {
    const finding = { code: 'mcp-remote-unverified', message: 'a remote is unverified', details: { server: 'far', reason: 'registry-unavailable' } };
    const audit = auditOf([], { warnings: [finding], inputs: [{ file: '.mcp.json', format: 'mcp' }] });
    const raw = JSON.parse(renderSarif(audit, { checks: CHECKS, baseDir: 'app' })) as Record<string, any>;
    const [result] = raw.runs[0].results as any[];
    expect([result.ruleId, result.locations]).toEqual(['finding/mcp-remote-unverified', [{ physicalLocation: { artifactLocation: { uri: 'app/.mcp.json' } } }]]);
    expect(result.message.text).toMatch(/about the project as a whole/);
    // A file the finding names is where it is, without that note.
    const located = auditOf([], { warnings: [{ ...finding, details: { ...finding.details, file: '.cursor/mcp.json', line: 3 } }], inputs: [{ file: '.mcp.json', format: 'mcp' }] });
    const [at] = (JSON.parse(renderSarif(located, { checks: CHECKS, baseDir: 'app' })) as Record<string, any>).runs[0].results as any[];
    expect(at.locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'app/.cursor/mcp.json' }, region: { startLine: 3 } });
    expect(at.message.text).not.toMatch(/about the project as a whole/);
  });

  it('resolves `..` against the audited folder; a file above the repository root keeps a location in it and says where it is', () => {
    const failing = (file: string) =>
      entryWith(deprecated('x', '1.0.0'), { status: 'fail', failures: [{ rule: 'capped', message: 'm' }], ignoredBy: null }, { declaredIn: [{ file, line: 2, workspace: null }] });
    const results = (file: string) => (JSON.parse(renderSarif(auditOf([failing(file)]), { checks: CHECKS, baseDir: 'app' })) as Record<string, any>).runs[0].results as any[];
    const [sibling] = results('../lib/package-lock.json');
    expect([sibling.locations[0].physicalLocation.artifactLocation.uri, /outside the repository/.test(sibling.message.text)]).toEqual(['lib/package-lock.json', false]);
    const [above] = results('../../elsewhere/package-lock.json');
    expect([above.locations[0].physicalLocation.artifactLocation.uri, /outside the repository/.test(above.message.text)]).toEqual(['elsewhere/package-lock.json', true]);
  });

  it('fingerprints depend on the package only: stable across runs and failures, different per version', () => {
    const fp = (entry: AuditEntry) => packageFingerprint(entry);
    const a = entryWith(deprecated('x', '1.0.0'), { status: 'fail', failures: [{ rule: 'capped', message: 'm' }], ignoredBy: null });
    const b = entryWith(deprecated('x', '1.0.0'), { status: 'fail', failures: [{ rule: 'min-score', message: 'n' }], ignoredBy: null }, { declaredIn: [] });
    const c = entryWith(deprecated('x', '1.0.1'), a.policy);
    expect(fp(a)).toBe(fp(b));
    expect(fp(a)).not.toBe(fp(c));
    expect(results[0]?.partialFingerprints).toEqual({ 'nerqPackage/v1': expect.stringMatching(/^[0-9a-f]{64}$/) });
    const again = parse(renderSarif(sampleAudit(), { checks: CHECKS }));
    expect(again.runs[0]?.results?.map((r) => r.partialFingerprints)).toEqual(results.map((r) => r.partialFingerprints));
  });

  it('sanitises messages', () => {
    const text = renderSarif(hostileAudit(HOSTILE), { checks: CHECKS });
    const hostile = parse(text);
    const message = hostile.runs[0]?.results?.[0]?.message.text ?? '';
    expect(message).not.toMatch(/[\u001b\u0007\r\n\u202e\u200b]/);
    expect(message).toContain('Evil link');
  });

  it('the required-field schema itself refuses what the spec forbids', () => {
    const good = JSON.parse(renderSarif(sampleAudit(), { checks: CHECKS })) as Record<string, any>;
    const broken = (mutate: (log: Record<string, any>) => void) => {
      const copy = structuredClone(good);
      mutate(copy);
      return SarifLog.safeParse(copy).success;
    };
    expect(broken(() => undefined)).toBe(true);
    expect(broken((l) => delete l.version)).toBe(false);
    expect(broken((l) => delete l.runs[0].tool.driver.name)).toBe(false);
    expect(broken((l) => delete l.runs[0].results[0].message)).toBe(false);
    expect(broken((l) => (l.runs[0].results[0].message = {}))).toBe(false);
    expect(broken((l) => (l.runs[0].results[0].locations[0].physicalLocation.region.startLine = 0))).toBe(false);
    expect(broken((l) => delete l.runs[0].results[0].locations[0].physicalLocation.artifactLocation)).toBe(false);
  });

  it('policy rules about what gets installed carry a security-severity for code scanning', () => {
    const raw = JSON.parse(renderSarif(sampleAudit(), { checks: CHECKS })) as Record<string, any>;
    const policy = (raw.runs[0].tool.driver.rules as any[]).filter((r) => String(r.id).startsWith('policy/'));
    const severity = Object.fromEntries(policy.map((r) => [r.id, r.properties['security-severity'] ?? null]));
    expect(severity).toMatchObject({ 'policy/verdict': '9.5', 'policy/malicious': '9.5', 'policy/lockfile-injection': '9.5', 'policy/dependency-confusion': '8.5', 'policy/capped': '7.5', 'policy/license-denied': null });
    for (const rule of policy) {
      // GitHub reads security-severity only on rules tagged security, as a number 0.0–10.0 in a string.
      expect(rule.properties.tags.includes('security'), rule.id).toBe(rule.properties['security-severity'] !== undefined);
      if (rule.properties['security-severity'] !== undefined) expect(Number(rule.properties['security-severity'])).toBeLessThanOrEqual(10);
    }
  });

  it("a result's security-severity follows the worst advisory failing it, as code scanning buckets it (critical > 9.0, low < 4.0)", () => {
    // GitHub reads security-severity on the rule only: > 9.0 critical, 7.0–8.9 high, 4.0–6.9 medium, 0.1–3.9 low.
    const bucket = (n: number) => (n > 9 ? 'critical' : n >= 7 ? 'high' : n >= 4 ? 'medium' : n > 0 ? 'low' : 'none');
    const cases = [
      { severity: 'critical', cvss: 9.8, expected: 'critical' },
      { severity: 'high', cvss: 7.5, expected: 'high' },
      { severity: 'unknown', cvss: null, expected: 'high' },
      { severity: 'moderate', cvss: 5.3, expected: 'medium' },
      { severity: 'low', cvss: 2.1, expected: 'low' },
    ] as const;
    for (const { severity, cvss, expected } of cases) {
      const report = reportOf({ vulnerabilities: vulnerabilityFacts({ advisories: [advisory({ severity, cvss, fixed: '2.1.1' })] }) });
      const entry = entryOf(report, mergePolicy(null, { failOnSeverity: 'low' }));
      expect(entry.policy.status, severity).toBe('fail');
      const raw = JSON.parse(renderSarif(auditOf([entry]), { checks: CHECKS })) as Record<string, any>;
      const result = raw.runs[0].results[0];
      const rule = raw.runs[0].tool.driver.rules[result.ruleIndex];
      expect(rule.id, severity).toBe(result.ruleId);
      expect(rule.properties.tags, severity).toContain('security');
      expect(bucket(Number(rule.properties['security-severity'])), severity).toBe(expected);
    }
    // A package failing for something else keeps that rule when the advisory is less severe.
    const lowAndDeprecated = reportOf({
      registry: { deprecated: 'no longer maintained' },
      vulnerabilities: vulnerabilityFacts({ advisories: [advisory({ severity: 'low', cvss: 2.1 })] }),
    });
    const raw = JSON.parse(renderSarif(auditOf([entryOf(lowAndDeprecated, mergePolicy(null, { failOnSeverity: 'low' }))]), { checks: CHECKS })) as Record<string, any>;
    expect(raw.runs[0].results[0].ruleId).toBe('policy/capped');
  });

  it('the run says what it could not do in its invocation: each warning once, the incomplete result, the exit code', () => {
    const warned = sampleAudit({ warnings: [{ code: 'service-unreachable', message: 'GitHub unreachable (DNS lookup failed for api.github.com): not asked again this run', details: {} }] });
    const raw = JSON.parse(renderSarif(warned, { checks: CHECKS })) as Record<string, any>;
    const invocation = raw.runs[0].invocations[0];
    expect(invocation.executionSuccessful).toBe(true);
    expect(invocation.exitCode).toBe(1);
    expect(invocation.toolExecutionNotifications).toEqual([
      { level: 'warning', message: { text: 'GitHub unreachable (DNS lookup failed for api.github.com): not asked again this run' }, descriptor: { id: 'service-unreachable' } },
    ]);
    const incomplete = auditOf([entryOf(thin())]);
    const notes = (JSON.parse(renderSarif(incomplete, { checks: CHECKS })) as Record<string, any>).runs[0].invocations[0].toolExecutionNotifications as any[];
    expect(notes[0]).toMatchObject({ descriptor: { id: 'audit-incomplete' }, level: 'error' });
    // Then one warning per unavailable source (thin() has five).
    expect(notes.slice(1).map((n) => [n.descriptor.id, n.level])).toEqual(Array.from({ length: 5 }, () => ['source-unavailable', 'warning']));
    expect(notes[0].message.text).toMatch(/^INCOMPLETE: 1 of 1 package not checked for malicious code and vulnerabilities/);
  });

  it('an audit with nothing failing has no results', () => {
    const clean = { ...sampleAudit(), entries: sampleAudit().entries.filter((e) => e.policy.status === 'pass') };
    expect(parse(renderSarif(clean, { checks: CHECKS })).runs[0]?.results).toEqual([]);
  });
});

describe('SARIF rules and locations true to what they are about', () => {
  const modAdvisory = (ecosystem: 'go' | 'cargo', name: string): AdvisoryFacts => ({
    id: `MAL-${ecosystem}`,
    aliases: [],
    summary: null,
    severity: 'critical',
    severitySource: 'database',
    cvss: null,
    cvssVector: null,
    package: name,
    ecosystem,
    version: '1.0.0',
    affectsResolved: true,
    fixed: null,
    published: null,
    malicious: true,
    url: null,
  });
  const moduleEntry = (ecosystem: 'go' | 'cargo', name: string) => {
    const subject = { ecosystem, name, version: '1.0.0', spec: null, direct: true, dev: false, declaredIn: [{ file: ecosystem === 'go' ? 'go.mod' : 'Cargo.lock', line: 3, workspace: null }], resolved: null, via: [] };
    const report = moduleReport(subject, { status: 'ok', facts: { advisories: [modAdvisory(ecosystem, name)], dependencyAdvisories: null, dependenciesQueried: 0, dependencyAdvisoriesReason: null } }, { gate: DEFAULT_GATE, evaluatedAt: NOW.toISOString() });
    return { subject, report, policy: applyPolicy(report, subject, mergePolicy(null), NOW) };
  };
  /** How a rule's text would name an ecosystem. */
  const NAMES: Record<string, RegExp> = { go: /\bGo module/i, cargo: /\bcrate/i, npm: /\bnpm\b/, pypi: /\bPyPI\b/ };

  it("a known-malicious result's rule names no ecosystem but the package's (npm and PyPI fail as verdict; Go and crates as malicious)", () => {
    const audit = auditOf([entryOf(malicious('evil-pkg', '0.0.1')), moduleEntry('go', 'example.com/evil'), moduleEntry('cargo', 'evil_crate')]);
    const raw = JSON.parse(renderSarif(audit, { checks: CHECKS })) as Record<string, any>;
    const found = raw.runs[0].results as any[];
    const rules = raw.runs[0].tool.driver.rules as any[];
    expect(found.map((r) => [r.properties.ecosystem, r.ruleId]).sort()).toEqual([
      ['cargo', 'policy/malicious'],
      ['go', 'policy/malicious'],
      ['npm', 'policy/verdict'],
    ]);
    for (const r of found) {
      const rule = rules[r.ruleIndex];
      const others = Object.entries(NAMES).filter(([ecosystem]) => ecosystem !== r.properties.ecosystem);
      for (const [ecosystem, name] of others) {
        expect([r.ruleId, ecosystem, name.test(rule.shortDescription.text) || name.test(rule.fullDescription.text)]).toEqual([r.ruleId, ecosystem, false]);
      }
    }
  });

  it('every rule a policy failure names has its rule in the log (an MCP server whose code cannot be inspected: policy/uninspected), a warning as not evaluated', () => {
    const entry = entryWith(deprecated('mcp-thing', '1.0.0'), { status: 'error', failures: [{ rule: 'uninspected', message: 'm', checks: ['mcp-packages'] }], ignoredBy: null });
    const raw = JSON.parse(renderSarif(auditOf([entry]), { checks: CHECKS })) as Record<string, any>;
    const [result] = raw.runs[0].results as any[];
    expect([result.ruleId, result.level, raw.runs[0].tool.driver.rules[result.ruleIndex]?.id]).toEqual(['policy/uninspected', 'warning', 'policy/uninspected']);
  });

  it('a file outside the repository (a user-scope MCP configuration) keeps a location (code scanning rejects a result without one); its message says where, never a home path', () => {
    const finding = { code: 'mcp-widened-reach', message: 'MCP server "box" starts the container image with --privileged', details: { file: '~/.codex/config.toml', line: 4, server: 'box', image: 'ghcr.io/acme/box:1.0', flags: ['privileged'] } };
    const inRepo = { ...finding, details: { ...finding.details, file: '.mcp.json', line: 5, server: 'box2' } };
    const elsewhere = entryWith(deprecated('x', '1.0.0'), { status: 'fail', failures: [{ rule: 'capped', message: 'm' }], ignoredBy: null }, {
      declaredIn: [{ file: '~/Library/Application Support/Claude/claude_desktop_config.json', line: 7, workspace: null }],
    });
    const absolute = entryWith(deprecated('y', '1.0.0'), { status: 'fail', failures: [{ rule: 'capped', message: 'm' }], ignoredBy: null }, {
      declaredIn: [{ file: '/etc/mcp/servers.json', line: null, workspace: null }],
    });
    const unvouched = { ecosystem: 'npm' as const, name: 'z', file: '~/.cursor/mcp.json', line: 2, host: 'example.com', source: 'https://example.com/z.tgz', status: 'unvouched' as const, ignoredBy: null };
    const audit = auditOf([elsewhere, absolute], { warnings: [finding, inRepo], unvouched: [unvouched] });
    const raw = JSON.parse(renderSarif(audit, { checks: CHECKS, baseDir: 'app' })) as Record<string, any>;
    const found = raw.runs[0].results as any[];
    expect(found.map((r) => [r.ruleId, r.locations.map((l: any) => l.physicalLocation.artifactLocation.uri)])).toEqual([
      ['finding/mcp-widened-reach', ['app/~/.codex/config.toml']],
      ['finding/mcp-widened-reach', ['app/.mcp.json']],
      ['policy/capped', ['app/~/Library/Application%20Support/Claude/claude_desktop_config.json']],
      ['policy/capped', ['app/etc/mcp/servers.json']],
      ['policy/unvouched-remote', ['app/~/.cursor/mcp.json']],
    ]);
    const where = found.map((r) => (r.message.text as string).includes('outside the repository'));
    expect(where).toEqual([true, false, true, true, true]);
    expect(found[0].message.text).toContain('~/.codex/config.toml line 4');
    expect(found[2].message.text).toContain('~/Library/Application Support/Claude/claude_desktop_config.json line 7');
  });
});
