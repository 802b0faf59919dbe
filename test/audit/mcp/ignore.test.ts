/**
 * MCP ignore entries: what they match (a server's key, within a file or in every one; a registry
 * entry's name; exactly, never as a substring or case-folded), which codes they cover, what they
 * can never cover, expiry, the entries that match nothing, and what an ignored finding does to
 * the run's outcome.
 */
import { describe, expect, it } from 'vitest';
import { findingRef, findMcpIgnore, ignoreFindings, mcpIgnoreMatches, unusedMcpIgnores, type McpFindingRef } from '../../../src/audit/mcp/ignore.js';
import { applyPolicy, expiredIgnores, mergePolicy, parsePolicy, type Policy } from '../../../src/audit/policy.js';
import type { McpIgnoreEntry } from '../../../src/audit/policy-schema.js';
import { buildAuditReport } from '../../../src/audit/report.js';
import type { AuditWarning } from '../../../src/audit/types.js';
import { deprecated, malicious, NOW, subjectOf } from '../policy/reports.js';

function policyOf(ignore: unknown[]): Policy {
  return mergePolicy({ ...parsePolicy({ ignore }, '.nerqrc.json'), source: '.nerqrc.json' });
}

function entryOf(raw: Record<string, unknown>): McpIgnoreEntry {
  const [entry] = policyOf([{ reason: 'reviewed', ...raw }]).ignore;
  if (entry?.kind !== 'mcp') throw new Error('not an MCP entry');
  return entry;
}

const box: McpFindingRef = { code: 'mcp-widened-reach', file: '.mcp.json', server: 'box', entry: null };
const fsEntry: McpFindingRef = { code: 'mcp-entry-policy', file: '~/.cursor/mcp.json', server: 'fs', entry: 'io.modelcontextprotocol.anonymous/mcp-fs' };

function widened(server: string, file = '.mcp.json'): AuditWarning {
  return { code: 'mcp-widened-reach', message: `${file}: line 4: MCP server "${server}" …`, details: { file, line: 4, server, image: 'ghcr.io/acme/box:1.0', flags: ['privileged'] } };
}

function unverified(server: string, file = '.mcp.json'): AuditWarning {
  return { code: 'mcp-remote-unverified', message: `${file}: line 6: MCP server "${server}" … unverified`, details: { file, line: 6, server, origin: 'https://mcp.example.com', reason: 'not-declared', candidates: [] } };
}

function insecure(server: string): AuditWarning {
  return { code: 'mcp-remote-insecure', message: `.mcp.json: line 7: MCP server "${server}" is reached over http`, details: { file: '.mcp.json', line: 7, server, origin: 'http://mcp.example.net' } };
}

describe('mcpIgnoreMatches', () => {
  it.each([
    [{ mcp: 'box' }, box, true],
    [{ mcp: 'box', file: '.mcp.json' }, box, true],
    [{ mcp: 'box', file: '.cursor/mcp.json' }, box, false],
    [{ mcp: 'box', finding: 'mcp-widened-reach' }, box, true],
    [{ mcp: 'box', finding: ['mcp-remote-unverified'] }, box, false],
    // Exactly: no substring, no case folding, no trimming of what the file says.
    [{ mcp: 'bo' }, box, false],
    [{ mcp: 'box-2' }, box, false],
    [{ mcp: 'Box' }, box, false],
    [{ mcp: ' box' }, box, false],
    // A registry entry by its name or by the key of a server configured as it.
    [{ mcp: 'io.modelcontextprotocol.anonymous/mcp-fs' }, fsEntry, true],
    [{ mcp: 'fs', file: '~/.cursor/mcp.json' }, fsEntry, true],
    [{ mcp: 'io.modelcontextprotocol.anonymous/mcp' }, fsEntry, false],
    [{ mcp: 'io.modelcontextprotocol.anonymous/mcp-fs', finding: 'mcp-remote-unverified' }, fsEntry, false],
    [{ mcp: 'io.modelcontextprotocol.anonymous/mcp-fs', file: '.mcp.json' }, fsEntry, false],
  ] as const)('%j against %j → %s', (raw, ref, expected) => {
    expect(mcpIgnoreMatches(entryOf(raw), ref)).toBe(expected);
  });

  it('a registry name never matches a finding about a configured server (it has no entry)', () => {
    expect(mcpIgnoreMatches(entryOf({ mcp: 'io.github.acme/box' }), box)).toBe(false);
  });
});

describe('ignoreFindings', () => {
  it('a matching entry marks the finding ignored with its reason; the others are left as they are', () => {
    const policy = policyOf([{ mcp: 'box', finding: 'mcp-widened-reach', reason: 'needs the Docker socket', expires: '2027-01-31' }]);
    const out = ignoreFindings([widened('box'), widened('box', '.cursor/mcp.json'), widened('other'), unverified('box')], policy.ignore, NOW);
    expect(out.map((f) => f.ignoredBy ?? null)).toEqual([
      { mcp: 'box', file: null, reason: 'needs the Docker socket', expires: '2027-01-31' },
      { mcp: 'box', file: null, reason: 'needs the Docker socket', expires: '2027-01-31' },
      null,
      null,
    ]);
    // The findings themselves are not changed.
    expect(out[0]).toMatchObject({ code: 'mcp-widened-reach', details: { server: 'box' } });
  });

  it('an entry scoped to a file covers that file only', () => {
    const policy = policyOf([{ mcp: 'box', file: '.cursor/mcp.json', reason: 'x' }]);
    const out = ignoreFindings([widened('box'), widened('box', '.cursor/mcp.json')], policy.ignore, NOW);
    expect(out.map((f) => f.ignoredBy?.file ?? null)).toEqual([null, '.cursor/mcp.json']);
  });

  it('a remote over http is never covered, even by an entry for every finding of its server', () => {
    const policy = policyOf([{ mcp: 'plain', reason: 'x' }]);
    expect(ignoreFindings([insecure('plain')], policy.ignore, NOW)[0]?.ignoredBy).toBeUndefined();
    expect(findingRef(insecure('plain'))).toBeNull();
  });

  it('an expired entry covers nothing, and fails the run naming it', () => {
    const policy = policyOf([{ mcp: 'box', file: '.mcp.json', reason: 'until the image is fixed', expires: '2026-05-31' }]);
    expect(ignoreFindings([widened('box')], policy.ignore, new Date('2026-05-31T23:59:59Z'))[0]?.ignoredBy).toBeDefined();
    expect(ignoreFindings([widened('box')], policy.ignore, new Date('2026-06-01T00:00:00Z'))[0]?.ignoredBy).toBeUndefined();
    expect(expiredIgnores(policy, new Date('2026-06-01T00:00:00Z'))).toEqual([
      '.nerqrc.json: ignore[0] mcp "box" in .mcp.json expired on 2026-05-31 (reason: until the image is fixed); renew or remove it',
    ]);
  });

  it('package entries never cover MCP findings', () => {
    const policy = policyOf([{ package: 'box', reason: 'x' }]);
    expect(ignoreFindings([widened('box')], policy.ignore, NOW)[0]?.ignoredBy).toBeUndefined();
  });
});

describe('unusedMcpIgnores', () => {
  it('names each unexpired MCP entry that matches no finding and no registry entry; package and expired entries are not its business', () => {
    const policy = policyOf([
      { package: 'left-pad', reason: 'x' },
      { mcp: 'box', reason: 'x' },
      { mcp: 'gone', reason: 'x' },
      { mcp: 'box', finding: 'mcp-remote-unverified', reason: 'x' },
      { mcp: 'old', reason: 'x', expires: '2020-01-01' },
      { mcp: 'io.modelcontextprotocol.anonymous/mcp-fs', reason: 'x' },
    ]);
    const warnings = unusedMcpIgnores(policy.ignore, [box, fsEntry], NOW, policy.source);
    expect(warnings.map((w) => [w.code, w.details.index, w.details.mcp])).toEqual([
      ['ignore-unused', 2, 'gone'],
      ['ignore-unused', 3, 'box'],
    ]);
    expect(warnings[0]?.message).toBe('.nerqrc.json: ignore[2] mcp "gone" matches no configured MCP server with any finding; remove it or correct it');
  });
});

describe('an MCP Registry entry (an mcp audit entry)', () => {
  const subject = (report: ReturnType<typeof deprecated>) => subjectOf(report, { ecosystem: 'mcp', name: 'io.modelcontextprotocol.anonymous/mcp-fs' });
  const refs = [fsEntry];

  it('an MCP entry naming it (or the server configured as it) makes it ignored; a package entry does not', () => {
    const report = deprecated('io.modelcontextprotocol.anonymous/mcp-fs', '2.0.0');
    const byName = applyPolicy(report, subject(report), policyOf([{ mcp: 'io.modelcontextprotocol.anonymous/mcp-fs', reason: 'vendor reviewed' }]), NOW, { mcpServers: refs });
    expect(byName).toMatchObject({ status: 'ignored', ignoredBy: { mcp: 'io.modelcontextprotocol.anonymous/mcp-fs', file: null, reason: 'vendor reviewed' } });
    expect(byName.failures.length).toBeGreaterThan(0);
    const byKey = applyPolicy(report, subject(report), policyOf([{ mcp: 'fs', finding: 'mcp-entry-policy', reason: 'x' }]), NOW, { mcpServers: refs });
    expect(byKey.status).toBe('ignored');
    const otherCode = applyPolicy(report, subject(report), policyOf([{ mcp: 'fs', finding: 'mcp-widened-reach', reason: 'x' }]), NOW, { mcpServers: refs });
    expect(otherCode.status).toBe('fail');
    const asPackage = applyPolicy(report, subject(report), policyOf([{ package: 'io.modelcontextprotocol.anonymous/mcp-fs', reason: 'x' }]), NOW, { mcpServers: refs });
    expect(asPackage.status).toBe('fail');
  });

  it('a known-malicious entry (NO — DO NOT USE) is never ignored', () => {
    const report = malicious('io.modelcontextprotocol.anonymous/mcp-fs', '2.0.0');
    const outcome = applyPolicy(report, subject(report), policyOf([{ mcp: 'io.modelcontextprotocol.anonymous/mcp-fs', reason: 'x' }]), NOW, { mcpServers: refs });
    expect(outcome).toMatchObject({ status: 'fail', ignoredBy: null });
  });

  it('findMcpIgnore takes the first unexpired entry matching any of the places it is configured', () => {
    const policy = policyOf([
      { mcp: 'fs', file: '.mcp.json', reason: 'first' },
      { mcp: 'fs', reason: 'expired', expires: '2020-01-01' },
      { mcp: 'fs', file: '~/.cursor/mcp.json', reason: 'second' },
    ]);
    expect(findMcpIgnore(policy.ignore, [fsEntry], NOW)?.reason).toBe('second');
    expect(findMcpIgnore(policy.ignore, [], NOW)).toBeNull();
  });
});

describe('the run outcome', () => {
  const report = (findings: AuditWarning[]) =>
    buildAuditReport({ entries: [], inputs: [], policySource: '.nerqrc.json', now: NOW, warnings: [], expiredIgnores: 0, allowIncomplete: false, findings });

  it('an ignored failing finding no longer fails the run (1 → 0), an ignored unverified remote no longer leaves it incomplete (3 → 0)', () => {
    const policy = policyOf([{ mcp: 'box', reason: 'reviewed' }, { mcp: 'docs', finding: 'mcp-remote-unverified', reason: 'our own server' }]);
    expect(report([widened('box')]).outcome.exitCode).toBe(1);
    expect(report(ignoreFindings([widened('box')], policy.ignore, NOW)).outcome.exitCode).toBe(0);
    expect(report([unverified('docs')]).outcome.exitCode).toBe(3);
    expect(report(ignoreFindings([unverified('docs')], policy.ignore, NOW)).outcome.exitCode).toBe(0);
    // Listed still, with the entry that covers it.
    expect(report(ignoreFindings([unverified('docs')], policy.ignore, NOW)).warnings[0]?.ignoredBy?.reason).toBe('our own server');
  });

  it('an ignored finding does not hide another one', () => {
    const policy = policyOf([{ mcp: 'box', reason: 'reviewed' }]);
    expect(report(ignoreFindings([widened('box'), unverified('docs'), insecure('box')], policy.ignore, NOW)).outcome.exitCode).toBe(1);
    expect(report(ignoreFindings([widened('box'), unverified('docs')], policy.ignore, NOW)).outcome.exitCode).toBe(3);
  });
});
