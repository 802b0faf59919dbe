/**
 * unvouched-dependencies: dependencies no registry vouches for. A git or GitHub spec, a tarball
 * URL, a `file:` or `link:` path in an npm package's dependencies, or a PEP 508 direct reference
 * (`name @ <url>`) in a PyPI release's `requires_dist`, is code the package manager fetches as it
 * is (a git dependency also runs its `prepare` script; pip builds a VCS checkout or an sdist
 * URL): nothing nerq scores describes it. They are listed (the release view, from the registry's
 * manifest and the tarball's own package.json, or from PyPI's metadata) and hold the verdict. A
 * direct reference that only an extra installs (`; extra == "dev"`) is listed apart and weighs
 * less: a plain install does not fetch it (docs/checks.md).
 */
import type { UnvouchedDependency } from './views/release.js';
import { defineCheck, type CheckOutcome } from './define.js';

/** Dependencies listed in the evidence at most (each list). */
const MAX_LISTED = 20;
/** Direct references that only an extra installs: listed, not "clean", but not held. */
export const EXTRAS_ONLY_SCORE = 70;

const label = (d: UnvouchedDependency) => `${d.name} (${d.kind}: ${d.spec})`;

/** The first five labels, and how many more. */
function summary(list: readonly UnvouchedDependency[]): string {
  return `${list.slice(0, 5).map(label).join(', ')}${list.length > 5 ? `, ${list.length - 5} more` : ''}`;
}

export default defineCheck({
  id: 'unvouched-dependencies',
  dimension: 'security',
  weight: 2,
  needs: ['release'],
  title: 'Dependencies no registry vouches for',
  description:
    "Lists dependencies fetched from where no registry vouches for them: npm runtime, optional and peer dependencies declared as a git or GitHub spec, a tarball URL, or a `file:` / `link:` path (in the registry's manifest or the tarball's package.json); PyPI `requires_dist` entries that are PEP 508 direct references (`name @ git+https://…`, `@ https://…`, `@ file://…`); URLs are recorded without user name, password or query string. " +
    'None scores 100; any that a plain install fetches (environment markers such as `sys_platform` included) scores 20 and holds the verdict at CAUTION: the package manager fetches that code as it is (a git dependency runs npm\'s `prepare` script or pip\'s build), and nothing nerq scores describes it. ' +
    `Direct references that only an extra installs (\`; extra == "dev"\`) are listed apart; when they are all there is, the check scores ${EXTRAS_ONLY_SCORE} without holding the verdict.`,
  messages: {
    none: 'Every dependency comes from the registry',
    some: '{count} dependencies no registry vouches for: {list}',
    'extras-only': '{count} dependencies no registry vouches for, installed only with an extra: {list}',
  },
  evaluate: ({ release }): CheckOutcome<'none' | 'some' | 'extras-only'> => {
    const installed = release.unvouched.filter((d) => !d.extraOnly);
    const extras = release.unvouched.filter((d) => d.extraOnly);
    const data = { dependencies: installed.slice(0, MAX_LISTED).map(label), extras: extras.slice(0, MAX_LISTED).map(label) };
    if (installed.length === 0 && extras.length === 0) return { score: 100, messageId: 'none', data };
    if (installed.length === 0) return { score: EXTRAS_ONLY_SCORE, messageId: 'extras-only', data: { ...data, count: extras.length, list: summary(extras) } };
    const list = summary(installed);
    return {
      score: 20,
      messageId: 'some',
      data: { ...data, count: installed.length, list },
      holdVerdict: `${installed.length === 1 ? 'a dependency' : `${installed.length} dependencies`} no registry vouches for (${list}); a release that takes them from a registry would lift this`,
    };
  },
});
