/**
 * unvouched-dependencies: dependencies no registry vouches for. A git or GitHub spec, a tarball
 * URL, a `file:` or `link:` path in a package's dependencies is code npm fetches as it is (a
 * git dependency also runs its `prepare` script): nothing nerq scores describes it. They are
 * listed, from the registry's manifest and the tarball's own package.json, and hold the verdict.
 */
import type { NonRegistryDependency } from '../evidence/schema.js';
import { defineCheck, type CheckOutcome } from './define.js';

/** Dependencies listed in the evidence at most. */
const MAX_LISTED = 20;

export default defineCheck({
  id: 'unvouched-dependencies',
  dimension: 'security',
  weight: 2,
  needs: ['registry'],
  optional: ['tarball'],
  title: 'Dependencies no registry vouches for',
  description:
    "Lists runtime, optional and peer dependencies declared as a git or GitHub spec, a tarball URL, or a `file:` / `link:` path, in the registry's manifest or the tarball's package.json (npm only). " +
    'None scores 100; any scores 20 and holds the verdict at CAUTION: npm fetches that code as it is (a git dependency runs its `prepare` script), and nothing nerq scores describes it.',
  messages: {
    none: 'Every dependency comes from the registry',
    some: '{count} dependencies no registry vouches for: {list}',
  },
  evaluate: ({ registry, tarball }): CheckOutcome<'none' | 'some'> => {
    const all: NonRegistryDependency[] = [...registry.nonRegistryDependencies];
    for (const dependency of tarball?.manifest?.nonRegistryDependencies ?? []) {
      if (!all.some((d) => d.name === dependency.name && d.spec === dependency.spec && d.field === dependency.field)) all.push(dependency);
    }
    if (all.length === 0) return { score: 100, messageId: 'none', data: { dependencies: [] } };
    const listed = all.slice(0, MAX_LISTED).map((d) => `${d.name} (${d.kind}: ${d.spec})`);
    const list = `${listed.slice(0, 5).join(', ')}${all.length > 5 ? `, ${all.length - 5} more` : ''}`;
    return {
      score: 20,
      messageId: 'some',
      data: { dependencies: listed, count: all.length, list },
      holdVerdict: `${all.length === 1 ? 'a dependency' : `${all.length} dependencies`} no registry vouches for (${list})`,
    };
  },
});
