/**
 * PyPI evidence for check tests: the example project of `pypiFacts()` (2.1.0, wheel and sdist,
 * MIT by PEP 639 expression, typed, one runtime dependency) as a PyPI target — the npm
 * `registry` and `tarball` sources not applicable, the dependencies and the vulnerability
 * query matching that one dependency. Overrides work as in `evidence()`.
 *
 *   pypiEvidence({ pypi: { yanked: true, yankedReason: 'broken wheel' } })
 */
import type { Evidence } from '../../src/evidence/schema.js';
import type { PypiFacts } from '../../src/evidence/schema.js';
import { dependencyFacts, evidence, notApplicable, ok, pypiFacts, vulnerabilityFacts } from './evidence-builder.js';
import type { EvidenceOverrides } from './evidence-builder.js';

const NOT_NPM = 'not an npm package';

/** PEP 503: lower case, runs of `-`, `_`, `.` become one `-`. */
const normalise = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-');

export type PypiEvidenceOverrides = Omit<EvidenceOverrides, 'registry' | 'tarball'>;

type PypiOverride = NonNullable<EvidenceOverrides['pypi']>;

/**
 * A whole source result, told apart from partial facts by a string `status`: PyPI facts have a
 * `status` field of their own (the PEP 792 project status, an object or null).
 */
function isSourceResult(value: PypiOverride): value is Exclude<PypiOverride, Partial<PypiFacts>> {
  return typeof (value as { status?: unknown }).status === 'string';
}

export function pypiEvidence(overrides: PypiEvidenceOverrides = {}): Evidence {
  const pypi = overrides.pypi ?? {};
  const result = isSourceResult(pypi) ? pypi : ok(pypiFacts(pypi));
  const facts = result.status === 'ok' ? result.facts : null;
  const name = facts === null ? 'example' : normalise(facts.name);
  const version = facts?.version ?? null;
  return evidence({
    dependencies: dependencyFacts({
      dependencies: [{ name: 'dep-a', range: '>=1.0', version: '1.4.2', reason: null, securityHolding: false }],
    }),
    vulnerabilities: vulnerabilityFacts({ dependenciesQueried: 1 }),
    ...overrides,
    registry: notApplicable(NOT_NPM),
    tarball: notApplicable(NOT_NPM),
    pypi: result,
    target: {
      input: `pypi:${name}`,
      ecosystem: 'pypi',
      name,
      version,
      purl: version === null ? null : `pkg:pypi/${name}@${version}`,
      repository: facts?.repository?.url ?? null,
      ...overrides.target,
    },
  });
}
