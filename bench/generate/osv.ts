/**
 * OSV answers: advisory records (`GET /v1/vulns/{id}`) and `POST /v1/querybatch` results
 * (ids and modified times only, as OSV answers batches), computed from the model's advisories.
 */
import type { AdvisorySpec, WorldModel } from './model.js';
import { isAffected } from './model.js';

/** An OSV record in the shape the OSV API serves (schema 1.6, GitHub-reviewed advisory). */
export function osvRecord(advisory: AdvisorySpec): Record<string, unknown> {
  const events: Array<Record<string, string>> = [{ introduced: advisory.introduced }];
  if (advisory.fixed !== null) events.push({ fixed: advisory.fixed });
  const severity = /C:H|A:H|I:H/.test(advisory.cvssVector) ? (advisory.cvssVector.includes('C:H/I:H') ? 'CRITICAL' : 'HIGH') : 'MODERATE';
  return {
    schema_version: '1.6.0',
    id: advisory.id,
    modified: advisory.modified,
    published: advisory.published,
    aliases: advisory.aliases,
    summary: advisory.summary,
    details: `${advisory.summary}. Versions ${advisory.fixed === null ? 'from ' + advisory.introduced + ' on' : 'before ' + advisory.fixed} are affected; ${advisory.fixed === null ? 'no fix is available yet' : 'upgrade to ' + advisory.fixed}.`,
    severity: [{ type: 'CVSS_V3', score: advisory.cvssVector }],
    affected: [
      {
        package: { ecosystem: 'npm', name: advisory.packageName, purl: `pkg:npm/${advisory.packageName.replace('@', '%40')}` },
        ranges: [{ type: 'SEMVER', events }],
        database_specific: { source: `https://github.com/github/advisory-database/blob/main/advisories/github-reviewed/${advisory.id}.json` },
      },
    ],
    references: [
      { type: 'ADVISORY', url: `https://nvd.nist.gov/vuln/detail/${advisory.aliases[0] ?? advisory.id}` },
      { type: 'PACKAGE', url: `https://www.npmjs.com/package/${advisory.packageName}` },
    ],
    database_specific: { cwe_ids: ['CWE-400'], severity, github_reviewed: true, github_reviewed_at: advisory.published, nvd_published_at: null },
  };
}

export interface BatchQuery {
  package?: { name?: unknown; ecosystem?: unknown; purl?: unknown };
  version?: unknown;
  page_token?: unknown;
}

/** The querybatch answer for `queries` (one result per query, in order). */
export function answerQueryBatch(world: WorldModel, queries: readonly BatchQuery[]): { results: Array<{ vulns?: Array<{ id: string; modified: string }> }> } {
  return {
    results: queries.map((query) => {
      const name = typeof query.package?.name === 'string' ? query.package.name : '';
      const version = typeof query.version === 'string' ? query.version : '';
      const ecosystem = query.package?.ecosystem;
      const spec = ecosystem === 'npm' ? world.byName.get(name) : undefined;
      const vulns = (spec?.advisories ?? []).filter((a) => safeAffected(version, a)).map((a) => ({ id: a.id, modified: a.modified }));
      return vulns.length === 0 ? {} : { vulns };
    }),
  };
}

function safeAffected(version: string, advisory: AdvisorySpec): boolean {
  try {
    return isAffected(version, advisory);
  } catch {
    return false;
  }
}
