/**
 * The Python lockfile-injection rule (src/audit/lockfile-integrity.ts, docs/security.md
 * "Lockfile injection"), as a pure function of the pin and the saved evidence, and the policy's
 * reading of its findings: another index's pin is PyPI's release only when every hash it pins is
 * a sha256 PyPI publishes for it; another sha256 fails; no hash, or PyPI's hashes unknown, leave it incomplete.
 * The digests are synthetic (`'a'.repeat(64)`…): the rule compares them, it never reads them.
 */
import { describe, expect, it } from 'vitest';
import { lockfileMismatch, pythonIndexFinding } from '../../../src/audit/lockfile-integrity.js';
import { applyPolicy, mergePolicy } from '../../../src/audit/policy.js';
import type { AuditSubject, LockRecord } from '../../../src/audit/types.js';
import { pythonIntegrity } from '../../../src/lockfiles/python-hashes.js';
import { ok, pypiFacts, unavailable } from '../../support/evidence-builder.js';
import { pypiEvidence } from '../../support/pypi-evidence.js';
import { NOW, pypiReport } from '../policy/reports.js';

const WHEEL = 'a'.repeat(64);
const SDIST = 'b'.repeat(64);
const OTHER = 'c'.repeat(64);
const subject: AuditSubject = {
  ecosystem: 'pypi',
  name: 'example',
  version: '2.1.0',
  spec: null,
  direct: true,
  dev: false,
  declaredIn: [{ file: 'uv.lock', line: 7, workspace: null }],
  resolved: null,
  via: [],
};
const files = (wheel: string | null | undefined, sdist: string | null | undefined) => [
  { filename: 'example-2.1.0-py3-none-any.whl', packagetype: 'bdist_wheel', size: 10, uploadTime: null, yanked: false, hasProvenance: null, ...(wheel === undefined ? {} : { sha256: wheel }) },
  { filename: 'example-2.1.0.tar.gz', packagetype: 'sdist', size: 20, uploadTime: null, yanked: false, hasProvenance: null, ...(sdist === undefined ? {} : { sha256: sdist }) },
];
const savedWith = (wheel: string | null | undefined, sdist: string | null | undefined) => pypiEvidence({ pypi: ok(pypiFacts({ name: 'example', version: '2.1.0', files: files(wheel, sdist) })) });
const saved = () => savedWith(WHEEL, SDIST);
const pin = (resolved: string | null, hashes: string[]): LockRecord => ({
  file: 'uv.lock',
  line: 7,
  resolved,
  integrity: pythonIntegrity(hashes.map((h) => `sha256:${h}`)),
  lockedFor: null,
});
const OTHER_INDEX = 'https://pypi.internal.example/simple';

describe('pythonIndexFinding', () => {
  it('a pin from PyPI, or with no index named, is unchanged whatever it pins', () => {
    for (const resolved of [null, 'https://pypi.org/simple', 'https://files.pythonhosted.org/packages/']) {
      expect(pythonIndexFinding(subject, pin(resolved, [OTHER]), saved())).toBeNull();
    }
  });

  it("another index's pin whose every sha256 PyPI publishes is PyPI's files (a mirror): no finding", () => {
    expect(pythonIndexFinding(subject, pin(OTHER_INDEX, [WHEEL, SDIST]), saved())).toBeNull();
    expect(pythonIndexFinding(subject, pin(OTHER_INDEX, [SDIST]), saved())).toBeNull();
  });

  it("another index's pin with one sha256 PyPI publishes and one it does not: lockfile injection (pip accepts either)", () => {
    const finding = pythonIndexFinding(subject, pin(OTHER_INDEX, [OTHER, SDIST]), saved());
    expect(finding).toMatchObject({ at: { file: 'uv.lock', line: 7 } });
    expect(finding?.unverified).toBeUndefined();
  });

  it("another index's pin with PyPI's sha256 and a sha512 beside it: unverified (the sha512 cannot be compared)", () => {
    const both: LockRecord = { ...pin(OTHER_INDEX, []), integrity: pythonIntegrity([`sha256:${WHEEL}`, `sha512:${'d'.repeat(128)}`]) };
    expect(pythonIndexFinding(subject, both, saved())?.unverified).toBe(true);
  });

  it("another index's pin with hashes none of which is PyPI's: lockfile injection at the pin, naming the host", () => {
    const finding = pythonIndexFinding(subject, pin(OTHER_INDEX, [OTHER]), saved());
    expect(finding).toMatchObject({ at: { file: 'uv.lock', line: 7 } });
    expect(finding?.unverified).toBeUndefined();
    expect(finding?.message).toContain('pypi.internal.example');
    expect(finding?.message).not.toContain(OTHER_INDEX);
  });

  it('another index\'s pin with no sha256: unverified', () => {
    expect(pythonIndexFinding(subject, pin(OTHER_INDEX, []), saved())?.unverified).toBe(true);
    const sha512Only: LockRecord = { ...pin(OTHER_INDEX, []), integrity: pythonIntegrity([`sha512:${'d'.repeat(128)}`]) };
    expect(pythonIndexFinding(subject, sha512Only, saved())?.unverified).toBe(true);
  });

  it("PyPI's hashes unknown (PyPI unavailable, another release's facts, a file without a digest, evidence saved before digests): unverified, never a failure", () => {
    const record = pin(OTHER_INDEX, [OTHER]);
    expect(pythonIndexFinding(subject, record, pypiEvidence({ pypi: unavailable('503') }))?.unverified).toBe(true);
    expect(pythonIndexFinding(subject, record, null)?.unverified).toBe(true);
    expect(pythonIndexFinding({ ...subject, version: '2.0.0' }, record, saved())?.unverified).toBe(true);
    expect(pythonIndexFinding(subject, record, savedWith(WHEEL, null))?.unverified).toBe(true);
    expect(pythonIndexFinding(subject, record, savedWith(undefined, undefined))?.unverified).toBe(true);
    // A match still vouches when another file's digest is unknown.
    expect(pythonIndexFinding(subject, pin(OTHER_INDEX, [WHEEL]), savedWith(WHEEL, null))).toBeNull();
  });

  it('a find-links path is named as such', () => {
    expect(pythonIndexFinding(subject, pin('./wheels', []), saved())?.message).toContain('a find-links location');
  });

  it('lockfileMismatch: an injecting pin is reported before an unverified one', () => {
    const found = lockfileMismatch(subject, [{ ...pin(OTHER_INDEX, []), line: 3 }, pin(OTHER_INDEX, [OTHER])], saved());
    expect(found?.unverified).toBeUndefined();
    expect(found?.at.line).toBe(7);
  });
});

describe('the policy reading a Python pin finding', () => {
  const report = pypiReport('example', '2.1.0');
  const pypiSubject = { ...subject };

  it('injection fails the package, first failure lockfile-injection', () => {
    const finding = pythonIndexFinding(subject, pin(OTHER_INDEX, [OTHER]), saved());
    const outcome = applyPolicy(report, pypiSubject, mergePolicy(null, { minScore: 0, minCoverage: 0 }), NOW, { lockfileInjection: finding });
    expect(outcome.status).toBe('fail');
    expect(outcome.failures[0]).toMatchObject({ rule: 'lockfile-injection', at: { file: 'uv.lock', line: 7 } });
  });

  it('unverified leaves a passing package incomplete (not-checked lockfile-injection), never failed', () => {
    const finding = pythonIndexFinding(subject, pin(OTHER_INDEX, []), saved());
    const outcome = applyPolicy(report, pypiSubject, mergePolicy(null, { minScore: 0, minCoverage: 0 }), NOW, { lockfileInjection: finding });
    expect(outcome.status).toBe('incomplete');
    expect(outcome.failures[0]).toMatchObject({ rule: 'not-checked', checks: ['lockfile-injection'], at: { file: 'uv.lock', line: 7 } });
    expect(outcome.failures.map((f) => f.rule)).not.toContain('lockfile-injection');
  });
});

describe('the PyPI nerq is configured to read', () => {
  it('counts as PyPI: its index is unchanged', () => {
    const record = pin('http://127.0.0.1:8080/pypi/simple', []);
    expect(pythonIndexFinding(subject, record, saved(), ['http://127.0.0.1:8080/pypi'])).toBeNull();
    expect(pythonIndexFinding(subject, record, saved())?.unverified).toBe(true);
  });
});
