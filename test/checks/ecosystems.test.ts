/**
 * Which checks apply to which ecosystem (`applies`: a check whose source or view is
 * not-applicable is left out of the report), and a PyPI project's full report.
 */
import { describe, expect, it } from 'vitest';
import type { AnyCheck } from '../../src/checks/define.js';
import { DIMENSIONS } from '../../src/checks/define.js';
import { CHECKS } from '../../src/checks/index.js';
import projectStatus from '../../src/checks/project-status.js';
import wheelsPublished from '../../src/checks/wheels-published.js';
import yankedRelease from '../../src/checks/yanked-release.js';
import { applies, evaluate } from '../../src/scoring/evaluate.js';
import { evidence, NOW, notApplicable, unavailable } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { repositoryEvidence } from '../support/repository-evidence.js';

/** Every check, whether or not the list in index.ts includes the PyPI ones yet. */
const ALL: readonly AnyCheck[] = [...CHECKS, ...[yankedRelease, projectStatus, wheelsPublished].filter((c) => !CHECKS.some((k) => k.id === c.id))];
const GITHUB_IDS = new Set(ALL.filter((c) => (c.needs as readonly string[]).includes('github')).map((c) => c.id));

const NPM_ONLY = ['command-shadowing', 'deprecation', 'entry-points', 'install-scripts', 'load-time-code', 'manifest-confusion', 'obfuscated-code', 'publisher-continuity', 'release-anomalies', 'security-placeholder'];
const PYPI_ONLY = ['import-time-code', 'project-status', 'startup-hooks', 'wheels-published', 'yanked-release'];
/** Checks of a repository target's own files (the `repository` view) and of an MCP Registry entry: never for a package. */
const REPOSITORY_ONLY = ['project-maturity', 'advertised-packages', 'workflow-safety'];
const MCP_ONLY = ALL.filter((c) => (c.needs as readonly string[]).includes('mcp')).map((c) => c.id);

const appliesTo = (ev: ReturnType<typeof evidence>) =>
  ALL.filter((c) => !GITHUB_IDS.has(c.id) && applies(c, ev))
    .map((c) => c.id)
    .sort();
const nonGithub = ALL.filter((c) => !GITHUB_IDS.has(c.id)).map((c) => c.id);

describe('checks per ecosystem', () => {
  it('leaves the npm-only checks out for a PyPI project', () => {
    const ids = appliesTo(pypiEvidence());
    for (const id of NPM_ONLY) expect(ids, id).not.toContain(id);
    for (const id of [...REPOSITORY_ONLY, ...MCP_ONLY]) expect(ids, id).not.toContain(id);
    expect(ids).toEqual(nonGithub.filter((id) => !NPM_ONLY.includes(id) && !REPOSITORY_ONLY.includes(id) && !MCP_ONLY.includes(id)).sort());
  });

  it('leaves the PyPI-only checks out for an npm package', () => {
    const ids = appliesTo(evidence());
    for (const id of PYPI_ONLY) expect(ids, id).not.toContain(id);
    for (const id of [...REPOSITORY_ONLY, ...MCP_ONLY]) expect(ids, id).not.toContain(id);
    expect(ids).toEqual(nonGithub.filter((id) => !PYPI_ONLY.includes(id) && !REPOSITORY_ONLY.includes(id) && !MCP_ONLY.includes(id)).sort());
  });

  it('leaves every release and document check out when there is no package at all', () => {
    const repositoryOnly = evidence({
      registry: notApplicable('a GitHub repository'),
      tarball: notApplicable('a GitHub repository'),
      downloads: notApplicable('a GitHub repository'),
      dependencies: notApplicable('a GitHub repository'),
      vulnerabilities: notApplicable('a GitHub repository'),
      attestations: notApplicable('a GitHub repository'),
    });
    expect(appliesTo(repositoryOnly)).toEqual([]);
  });

  it('gives a github: target its documents, licence and maturity checks from its own files', () => {
    const ids = ALL.filter((c) => applies(c, repositoryEvidence())).map((c) => c.id);
    for (const id of ['readme', 'changelog', 'license-file', 'license-consistency', 'project-maturity', 'advertised-packages']) expect(ids, id).toContain(id);
    for (const id of [...NPM_ONLY, ...PYPI_ONLY, 'release-recency', 'known-vulnerabilities']) expect(ids, id).not.toContain(id);
  });
});

describe('a PyPI project report', () => {
  const report = evaluate(pypiEvidence(), ALL, 'library', { now: NOW });

  it('scores all five dimensions with every applicable check answered', () => {
    expect(report.dimensions.map((d) => d.id)).toEqual([...DIMENSIONS]);
    for (const dimension of report.dimensions) expect(dimension.score, dimension.id).not.toBeNull();
    const unanswered = report.checks.filter((c) => c.score === null && !GITHUB_IDS.has(c.id)).map((c) => c.id);
    expect(unanswered).toEqual([]);
    expect(report.checks.some((c) => c.messageId === 'check-error')).toBe(false);
    expect(report.verdict.code).toBe('yes');
  });

  it('names the PyPI facts it read', () => {
    const byId = new Map(report.checks.map((c) => [c.id, c]));
    expect(byId.get('readme')?.evidence).toMatchObject({ path: null, contentType: 'text/markdown' });
    expect(byId.get('license-file')?.messageId).toBe('listed');
    expect(byId.get('typosquat')?.messageId).toBe('distinct');
    expect(byId.get('type-declarations')?.messageId).toBe('typed-classifier');
  });

  it('caps a yanked release and a quarantined project', () => {
    const yanked = evaluate(pypiEvidence({ pypi: { yanked: true, yankedReason: 'bad build' } }), ALL, 'library', { now: NOW });
    expect(yanked.caps.map((c) => c.id)).toEqual(['yanked']);
    expect(yanked.score).toBeLessThanOrEqual(49.9);
    const quarantined = evaluate(pypiEvidence({ pypi: { status: { status: 'quarantined', reason: null } } }), ALL, 'library', { now: NOW });
    expect(quarantined.verdict.code).toBe('do-not-use');
    expect(quarantined.score).toBeLessThanOrEqual(9.9);
  });

  it('degrades to unknown, never to an error, on sparse PyPI facts and failed sources', () => {
    const sparse = pypiEvidence({
      pypi: {
        summary: null,
        description: null,
        keywords: [],
        license: { expression: null, classifiers: [], text: null, spdx: null, source: null, files: null },
        classifiers: [],
        developmentStatus: null,
        typed: false,
        dependencies: [],
        projectUrls: {},
        homepage: null,
        documentationUrl: null,
        changelogUrl: null,
        issuesUrl: null,
        repository: null,
        owners: null,
        status: null,
        files: [],
        wheelContents: { wheel: null, unavailable: null, size: null, bytesRead: 0, entries: 0, hooks: [], hooksUnread: 0 },
        releases: [],
        latest: null,
      },
      downloads: unavailable('pypistats: HTTP 429'),
      dependencies: unavailable('PyPI: HTTP 503'),
      vulnerabilities: unavailable('OSV: timeout'),
      attestations: unavailable('PyPI integrity API: HTTP 503'),
    });
    const ran = evaluate(sparse, ALL, 'library', { now: NOW });
    expect(ran.checks.filter((c) => c.messageId === 'check-error')).toEqual([]);
    const unknown = ran.checks.filter((c) => c.score === null).map((c) => c.id).sort();
    expect(unknown).toEqual(
      [
        'known-vulnerabilities',
        'license-file',
        'maintainers',
        'malicious-package',
        'project-status',
        'provenance',
        'release-cadence',
        'release-recency',
        'startup-hooks',
        'type-declarations',
        'vulnerable-dependencies',
        'weekly-downloads',
        'wheels-published',
      ].filter((id) => !GITHUB_IDS.has(id)),
    );
    expect(ran.verdict.code).not.toBe('yes');
  });

  it('is unknown with the PyPI reason when the PyPI facts are unavailable', () => {
    const down = evaluate(pypiEvidence({ pypi: unavailable('PyPI: HTTP 503') }), ALL, 'library', { now: NOW });
    const readme = down.checks.find((c) => c.id === 'readme');
    expect(readme).toMatchObject({ score: null, messageId: 'source-unavailable' });
    expect(readme?.message).toContain('PyPI: HTTP 503');
  });
});
