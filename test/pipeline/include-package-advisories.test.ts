import { describe, expect, it } from 'vitest';
import type { Sources } from '../../src/evidence/schema.js';
import { withOwnAdvisories } from '../../src/pipeline/include-package.js';

type Vulns = Sources['vulnerabilities'];
const repository: Vulns = {
  status: 'ok',
  facts: { advisories: [], dependencyAdvisories: [], dependenciesQueried: 3, dependencyAdvisoriesReason: null, ownAsked: false },
};

describe('withOwnAdvisories: the folded package\'s own OSV answer joins the repository\'s', () => {
  it('an answer for the package: its advisories, the version counted as asked (ownAsked dropped)', () => {
    const own: Vulns = { status: 'ok', facts: { advisories: [], dependencyAdvisories: null, dependenciesQueried: 0, dependencyAdvisoriesReason: null } };
    const merged = withOwnAdvisories(repository, own);
    expect(merged.status).toBe('ok');
    if (merged.status !== 'ok') return;
    expect(merged.facts.ownAsked).toBeUndefined();
    expect(merged.facts.dependenciesQueried).toBe(3);
  });

  it('OSV could not answer for the package: the source is unavailable, never "not applicable"', () => {
    const own: Vulns = { status: 'unavailable', reason: 'OSV querybatch: HTTP 503' };
    const merged = withOwnAdvisories(repository, own);
    expect(merged.status).toBe('unavailable');
  });

  it('no fold attempted (null): the repository\'s answer as it was', () => {
    expect(withOwnAdvisories(repository, null)).toBe(repository);
  });
});
