import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty, renderAnnotations } from '../../../src/render/annotations.js';
import { HOSTILE } from '../reports.js';
import { hostileAudit, sampleAudit } from './sample.js';
import { auditOf, deprecated, entryOf, entryWith, reportOf } from '../../audit/policy/reports.js';
import { advisory, vulnerabilityFacts } from '../../support/evidence-builder.js';

describe('renderAnnotations', () => {
  it("a failing package's ::error ends with the fix and the path from a direct dependency, as the table does", () => {
    const report = reportOf({ vulnerabilities: vulnerabilityFacts({ advisories: [advisory({ severity: 'critical', cvss: 9.8, fixed: '2.1.1' })] }) });
    const out = renderAnnotations(auditOf([entryOf(report, undefined, { direct: false, via: ['webpack', 'terser'] })]));
    expect(out.split('\n')[0]).toMatch(/^::error .*; fix: upgrade to 2\.1\.1; via webpack › terser$/);
  });

  it('one ::error per failing package and one ::warning per unevaluated one, at the declaring line', () => {
    expect(renderAnnotations(sampleAudit())).toBe(
      [
        '::error file=package.json,line=8,title=nerq%3A evil-pkg@0.0.1 fails the policy::NO — DO NOT USE: known malicious package: MAL-2026-1; score 9.9 is below the minimum 50',
        '::error file=package-lock.json,line=12,title=nerq%3A old-thing@1.0.0 fails the policy::capped at 49.9: version is deprecated: no longer maintained; score 49.9 is below the minimum 50; verdict NO — USE WITH CAUTION fails the policy (failOn: caution)',
        '::warning file=package-lock.json,title=nerq%3A ghost-pkg@1.0.0 could not be evaluated::npm package "ghost-pkg" was not found in the registry',
        '',
      ].join('\n'),
    );
  });

  it('an MCP finding that fails the run is an ::error at its configuration line; ignored, or outside the repository, it is not pointed at', () => {
    const finding = (file: string, ignored: boolean) => ({
      code: 'mcp-widened-reach',
      message: `${file}: line 4: server "db" starts the container image "x" with --privileged`,
      details: { file, line: 4, server: 'db', image: 'x', flags: ['--privileged'] },
      ...(ignored ? { ignoredBy: { mcp: 'db', reason: 'reviewed', expires: null } } : {}),
    });
    const base = sampleAudit();
    const out = renderAnnotations({ ...base, warnings: [finding('.vscode/mcp.json', false), finding('.vscode/mcp.json', true), finding('~/.cursor/mcp.json', false)] } as typeof base, { baseDir: 'app' });
    const lines = out.trimEnd().split('\n').filter((l) => l.includes('mcp-widened-reach'));
    expect(lines.map((l) => l.split('::')[1])).toEqual([
      'error file=app/.vscode/mcp.json,line=4,title=nerq%3A mcp-widened-reach',
      'warning title=nerq%3A mcp-widened-reach',
      'error title=nerq%3A mcp-widened-reach',
    ]);
  });
  it('a package declared only outside the repository is not pointed at, and its message names the file it came from', () => {
    const failing = (name: string, file: string, line: number | null) =>
      entryWith(deprecated(name, '1.0.0'), { status: 'fail', failures: [{ rule: 'capped', message: 'm' }], ignoredBy: null }, { declaredIn: [{ file, line, workspace: null }] });
    const out = renderAnnotations(
      auditOf([failing('user', '~/.cursor/mcp.json', 7), failing('above', '../../elsewhere/package-lock.json', 3), failing('sibling', '../lib/package-lock.json', 5)]),
      { baseDir: 'app' },
    );
    const of = (name: string) => out.split('\n').find((l) => l.includes(`${name}@1.0.0`)) ?? '';
    expect(of('user')).toMatch(/^::error title=[^:]*::.*; declared in ~\/\.cursor\/mcp\.json line 7, outside the repository$/);
    expect(of('above')).toMatch(/^::error title=[^:]*::.*; declared in \.\.\/\.\.\/elsewhere\/package-lock\.json line 3, outside the repository$/);
    // `..` that stays in the repository is resolved: a place code scanning knows, no note.
    expect(of('sibling')).toMatch(/^::error file=lib\/package-lock\.json,line=5,title=[^:]*::m$/);
  });

  it('a failing MCP finding outside the repository whose message does not name its file gets the file said', () => {
    const finding = { code: 'mcp-widened-reach', message: 'server "db" starts the container image "x" with --privileged', details: { file: '~/.codex/config.toml', line: 9, server: 'db', image: 'x', flags: ['privileged'] } };
    const line = renderAnnotations(auditOf([], { warnings: [finding] })).split('\n').find((l) => l.includes('mcp-widened-reach')) ?? '';
    expect(line).toMatch(/^::error title=[^:]*::.*--privileged \(~\/\.codex\/config\.toml line 9, outside the repository\)$/);
  });

  it('a lockfile finding is pointed at the lockfile pin it is about, with the line only when the reader knows it', () => {
    // evil-pkg is declared at package.json:8; the (synthetic) lockfile-injection failure is about its pin.
    const base = sampleAudit();
    const withAt = (line: number | null) => ({
      ...base,
      entries: base.entries.map((e) =>
        e.subject.name === 'evil-pkg'
          ? { ...e, policy: { ...e.policy, failures: [{ rule: 'lockfile-injection', message: 'lockfile injection', at: { file: 'package-lock.json', line } }, ...e.policy.failures] } }
          : e,
      ),
    });
    const evil = (out: string) => out.split('\n').find((l) => l.includes('evil-pkg'))?.split('::')[1];
    expect(evil(renderAnnotations(withAt(30), { baseDir: 'app' }))).toBe('error file=app/package-lock.json,line=30,title=nerq%3A evil-pkg@0.0.1 fails the policy');
    expect(evil(renderAnnotations(withAt(null)))).toBe('error file=package-lock.json,title=nerq%3A evil-pkg@0.0.1 fails the policy');
  });

  it('prefixes the audited directory to file=', () => {
    expect(renderAnnotations(sampleAudit(), { baseDir: 'services/web' })).toContain('::error file=services/web/package.json,line=8,');
  });

  it('nothing when nothing fails', () => {
    const clean = { ...sampleAudit(), entries: sampleAudit().entries.filter((e) => e.policy.status === 'pass' || e.policy.status === 'ignored') };
    expect(renderAnnotations(clean)).toBe('');
  });

  it('escapes data and properties as the runner expects', () => {
    expect(escapeData('100% done\r\nnext')).toBe('100%25 done%0D%0Anext');
    expect(escapeProperty('a:b,c%d\n')).toBe('a%3Ab%2Cc%25d%0A');
  });

  it('hostile text cannot start a command of its own or break the properties', () => {
    const out = renderAnnotations(hostileAudit(`${HOSTILE}\n::set-output name=x::y 50%`));
    const lines = out.slice(0, -1).split('\n');
    // The failing package, then the run's warning (once): neither breaks out of its line.
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^::warning title=nerq%3A input-note::/);
    expect(lines[1]).not.toMatch(/[\u001b\u0007\r\u202e\u200b]/);
    expect(lines[1]?.split('::')[1]).toMatch(/^warning title=[^:,]+$/);
    const line = lines[0] ?? '';
    expect(line.startsWith('::error file=dir%2Ca%3Ab/Evil link')).toBe(true);
    expect(line).not.toMatch(/[\u001b\u0007\r\u202e\u200b]/);
    // Exactly two `::` separators before the message: the command and the data delimiter.
    const [command, ...rest] = line.split('::').slice(1);
    expect(command).toMatch(/^error file=[^:,]+,line=4,title=[^:,]+$/);
    expect(rest.join('::')).toContain('50%25');
  });
});
