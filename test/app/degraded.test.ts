/**
 * `nerq serve` keeps a report a source was unavailable to for a few seconds only when the
 * source may answer later: decided from the source codes (src/app/degraded.ts), not from prose.
 */
import { describe, expect, it } from 'vitest';
import { degraded } from '../../src/app/degraded.js';
import { SOURCE_UNAVAILABLE_CODES, type SourceUnavailableCode } from '../../src/model/source-codes.js';
import type { Report } from '../../src/report/schema.js';

/** The members `degraded` reads; the rest of a report does not decide. */
type Shape = { sources: Report['sources']; includedPackage?: Report['includedPackage']; mcp?: unknown; error?: Report['error'] };
const report = (shape: Shape): Report => ({ error: null, ...shape }) as unknown as Report;
const ok = { id: 'registry', status: 'ok', reason: null } as const;
const unavailable = (code: SourceUnavailableCode | undefined) => ({ id: 'vulnerabilities', status: 'unavailable' as const, reason: 'a sentence that does not decide', ...(code === undefined ? {} : { code }) });

const FINAL: readonly SourceUnavailableCode[] = ['not-found', 'not-asked', 'too-large', 'redirect', 'integrity-mismatch', 'unreadable-file'];
const MAY_HEAL: readonly SourceUnavailableCode[] = ['timeout', 'host-down', 'network-error', 'http-status', 'rate-limited', 'auth-required', 'bad-answer', 'depends-on-source', 'unclassified'];

describe('degraded: decided from the source codes', () => {
  it('every code is decided by one of the two lists', () => {
    expect([...FINAL, ...MAY_HEAL].sort()).toEqual([...SOURCE_UNAVAILABLE_CODES].sort());
  });

  it('a report whose sources all answered is not degraded', () => {
    expect(degraded(report({ sources: [ok] }))).toBe(false);
  });

  it.each(FINAL)('a source unavailable with %s (the final answer) is not degraded', (code) => {
    expect(degraded(report({ sources: [ok, unavailable(code)] }))).toBe(false);
  });

  it.each(MAY_HEAL)('a source unavailable with %s (may heal) is degraded', (code) => {
    expect(degraded(report({ sources: [ok, unavailable(code)] }))).toBe(true);
  });

  it('a source without a code is taken as one that may heal', () => {
    expect(degraded(report({ sources: [unavailable(undefined)] }))).toBe(true);
  });

  it('one source that may heal among final ones is degraded', () => {
    expect(degraded(report({ sources: [unavailable('not-found'), unavailable('too-large'), unavailable('timeout')] }))).toBe(true);
  });

  it('a folded package that could not be collected is degraded; one folded in is not', () => {
    const note = (code: 'package-unavailable' | 'named') => ({ included: code === 'named', code, ecosystem: 'npm' as const, name: 'x', version: null, reason: 'r' });
    expect(degraded(report({ sources: [ok], includedPackage: note('package-unavailable') }))).toBe(true);
    expect(degraded(report({ sources: [ok], includedPackage: note('named') }))).toBe(false);
  });

  it.each([
    ['a package report with a source that may heal', { error: null, sources: [unavailable('http-status')] }, true],
    ['a package report with a final source code', { error: null, sources: [unavailable('not-found')] }, false],
    ['a package the registry could not be asked for', { error: { code: 'registry-unavailable', message: 'm' }, sources: [] }, true],
    ['a package the registry does not know', { error: { code: 'not-found', message: 'm' }, sources: [] }, false],
    ['a version the registry does not know', { error: { code: 'version-not-found', message: 'm' }, sources: [] }, false],
  ])('an MCP Registry entry: %s', (_label, packageReport, expected) => {
    const mcp = { server: 's', version: '1', packages: [{ registryType: 'npm', identifier: 'x', version: '1', target: 'x', notEvaluated: null, report: packageReport }], remotes: [] };
    expect(degraded(report({ sources: [ok], mcp }))).toBe(expected);
  });
});
