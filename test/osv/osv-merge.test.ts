/**
 * mergeVulnerabilities: a package's own OSV answer and its dependencies' (asked apart) make one
 * `vulnerabilities` source; the dependencies failing leaves the target's advisories known.
 */
import { describe, expect, test } from 'vitest';
import { VulnerabilityFactsSchema } from '../../src/evidence/schema.js';
import { mergeVulnerabilities } from '../../src/sources/osv/merge.js';
import type { VulnerabilitiesResult } from '../../src/sources/osv/query.js';
import { advisory } from '../support/evidence-builder.js';

const own = advisory({ id: 'GHSA-own0-0000-0001', package: 'target', version: '1.0.0' });
const dep = advisory({ id: 'GHSA-dep0-0000-0001', package: 'dep-a', version: '2.0.0', severity: 'critical' });

/** What fetchVulnerabilities answers for the target asked alone (`dependencies: null`). */
const target: VulnerabilitiesResult = {
  status: 'ok',
  facts: { advisories: [own], dependencyAdvisories: null, dependenciesQueried: 0, dependencyAdvisoriesReason: null },
};

describe('mergeVulnerabilities', () => {
  test("both answered: the target's advisories and its dependencies', with the count queried", () => {
    const merged = mergeVulnerabilities(target, { status: 'ok', advisories: [dep], queried: 3 });
    expect(merged).toEqual({
      status: 'ok',
      facts: { advisories: [own], dependencyAdvisories: [dep], dependenciesQueried: 3, dependencyAdvisoriesReason: null },
    });
    // The merged facts are evidence as the schema reads it back, fields in the schema's order.
    if (merged.status !== 'ok') throw new Error('expected ok');
    expect(JSON.stringify(VulnerabilityFactsSchema.parse(merged.facts))).toBe(JSON.stringify(merged.facts));
  });

  test('dependencies with no advisory (or none to ask): an empty list, never null', () => {
    expect(mergeVulnerabilities(target, { status: 'ok', advisories: [], queried: 0 })).toMatchObject({
      status: 'ok',
      facts: { advisories: [own], dependencyAdvisories: [], dependenciesQueried: 0, dependencyAdvisoriesReason: null },
    });
  });

  test("the dependencies' answer failed: the target's advisories stay known, the dependencies' are null with the reason", () => {
    const merged = mergeVulnerabilities(target, { status: 'unavailable', reason: 'OSV querybatch: HTTP 503 from osv.test', code: 'http-status' });
    expect(merged).toEqual({
      status: 'ok',
      facts: { advisories: [own], dependencyAdvisories: null, dependenciesQueried: 0, dependencyAdvisoriesReason: 'OSV querybatch: HTTP 503 from osv.test' },
    });
  });

  test("the target's answer failed: the source is unavailable with its reason, whatever the dependencies gave", () => {
    const failed: VulnerabilitiesResult = { status: 'unavailable', reason: 'OSV querybatch: connection refused', code: 'network-error' };
    expect(mergeVulnerabilities(failed, { status: 'ok', advisories: [dep], queried: 1 })).toEqual(failed);
    expect(mergeVulnerabilities(failed, { status: 'unavailable', reason: 'the dependencies could not be resolved: HTTP 500', code: 'depends-on-source' })).toEqual(failed);
  });
});
