/**
 * advertised-packages: whether the packages a repository tells people to install are its own.
 * A README whose install command names a package nobody published, or one published from another
 * repository, sends its users to a name anyone can take or someone else owns — the typosquat's
 * shape, arranged by the README itself (docs/scoring.md §9). Reads the `repository` view's
 * distribution: the README's install commands and the manifests' names, looked up in their
 * registries and verified as a package's repository link is.
 */
import type { DistributedPackage } from '../evidence/schema.js';
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';

type Status = DistributedPackage['status'];

function label(p: DistributedPackage): string {
  return `${p.ecosystem}:${p.name}`;
}

const norm = (s: string): string => s.toLowerCase().replace(/[._]+/g, '-');

/**
 * Whether a package presents itself as this project's: a manifest here declares it, or its name
 * is the repository's (`x` or `@owner/…` for `owner/x`, `@a/b` for `owner/a-b`). A README that
 * also tells people to install a well-known dependency (`npm i @acme/server express`) does not
 * make that dependency the project's own.
 */
export function claimsProject(p: DistributedPackage, fullName: string): boolean {
  if (p.declared) return true;
  const [owner = '', repo = ''] = fullName.split('/').map(norm);
  const scoped = /^@([^/]+)\/(.+)$/.exec(p.name);
  const scope = scoped === null ? null : norm(scoped[1] ?? '');
  const bare = norm(scoped === null ? p.name : (scoped[2] ?? ''));
  return bare === repo || scope === owner || (scope !== null && `${scope}-${bare}` === repo) || (repo.length >= 4 && bare.includes(repo));
}

/**
 * A package under the owner's npm scope (`@owner/x`, a scope only its members publish to) that
 * links to another repository of the same GitHub owner: a sibling project of that owner (its
 * inspector, its CLI), not an impostor of this one.
 */
export function ownerSibling(p: DistributedPackage, fullName: string): boolean {
  if (p.declared || p.status !== 'elsewhere' || p.ecosystem !== 'npm' || p.linksTo === null) return false;
  const owner = norm(fullName.split('/')[0] ?? '');
  const scope = /^@([^/]+)\//.exec(p.name)?.[1];
  const linked = /^(?:git\+)?https?:\/\/github\.com\/([^/]+)\/[^/]+/i.exec(p.linksTo)?.[1];
  return scope !== undefined && linked !== undefined && norm(scope) === owner && norm(linked) === owner;
}

function listOf(packages: readonly DistributedPackage[]): string {
  return packages.map(label).join(', ');
}

export default defineCheck({
  id: 'advertised-packages',
  dimension: 'security',
  weight: 3,
  needs: ['repository'],
  title: 'Advertised packages are its own',
  description:
    "For a `github:` target: the npm and PyPI packages its README's install commands name and its published manifests declare, looked up in their registries, a link here verified as a package's repository link is (third-party packages installed alongside, among them one under the owner's npm scope published from another of the owner's repositories, and container images are listed, not judged). " +
    'An advertised package that is not published, or whose name claims the project but is published from another repository, scores 0 and holds the verdict; one naming no repository 50, a declared name another repository publishes 60, one linking here that no manifest here names 70, all verified 100. ' +
    'Not applicable when nothing is left to judge; unknown when the registries cannot answer.',
  // Each message names one package or several ({missing} is a list): worded to read right either way.
  messages: {
    verified: 'Publishes {verified}: each links back to this repository, which names it',
    missing: 'The README tells people to install {missing}, not published: anyone could register such a name',
    elsewhere: 'The README tells people to install {elsewhere}, published from another repository ({linksTo})',
    unlinked: 'The README tells people to install {unlinked}, published without a link to its source repository',
    unconfirmed: 'Linking to this repository, though no manifest here names it: {unconfirmed}',
    'name-taken': 'A manifest here declares {taken}, but the published package of that name links to {linksTo}',
    'registry-unknown': 'Unknown: the registries could not answer for {unavailable}',
    none: 'Advertises and declares no npm or PyPI package',
  },
  evaluate: ({ repository }) => {
    const distribution = repository.distribution;
    if (distribution === null) return { score: null, messageId: 'none', notApplicable: true };
    const fullName = repository.repository.fullName;
    // Not published is a finding whatever the name (anyone can register it); published elsewhere only for a name that claims the project.
    // A sibling project of the same owner (its scope, its repositories) is installed alongside, not claimed.
    const ownProject = (p: DistributedPackage): boolean => claimsProject(p, fullName) && !ownerSibling(p, fullName);
    const advertised = distribution.packages.filter((p) => p.command !== null && (p.status === 'missing' || ownProject(p)));
    const declaredOnly = distribution.packages.filter((p) => p.command === null);
    const with_ = (list: readonly DistributedPackage[], status: Status): DistributedPackage[] => list.filter((p) => p.status === status);
    const verified = with_(distribution.packages, 'verified');
    const data: Record<string, EvidenceValue> = {
      verified: listOf(verified),
      packages: distribution.packages.map((p) => `${label(p)} ${p.status}`),
      images: distribution.images.map((i) => i.name),
      skipped: distribution.skipped,
      thirdParty: distribution.packages.filter((p) => p.command !== null && p.status !== 'missing' && !ownProject(p)).map(label),
    };
    const missing = with_(advertised, 'missing');
    const elsewhere = with_(advertised, 'elsewhere');
    if (missing.length > 0 || elsewhere.length > 0) {
      const first = elsewhere[0];
      const holds = [
        ...missing.map((p) => `the README advertises ${label(p)}, which is not published`),
        ...elsewhere.map((p) => `the README advertises ${label(p)}, published from ${p.linksTo ?? 'another repository'}`),
      ];
      const outcome = { ...data, missing: listOf(missing), elsewhere: listOf(elsewhere), linksTo: first?.linksTo ?? null };
      return {
        score: 0,
        messageId: missing.length > 0 ? 'missing' : 'elsewhere',
        data: outcome,
        holdVerdict: `${holds.join('; ')}: until the name is the project's own, installing it as told may install someone else's code`,
      };
    }
    const unlinked = with_(advertised, 'unlinked');
    if (unlinked.length > 0) return { score: 50, messageId: 'unlinked', data: { ...data, unlinked: listOf(unlinked) } };
    const taken = with_(declaredOnly, 'elsewhere');
    if (taken.length > 0) return { score: 60, messageId: 'name-taken', data: { ...data, taken: listOf(taken), linksTo: taken[0]?.linksTo ?? null } };
    const unconfirmed = with_(distribution.packages, 'unconfirmed');
    if (unconfirmed.length > 0) return { score: 70, messageId: 'unconfirmed', data: { ...data, unconfirmed: listOf(unconfirmed) } };
    if (verified.length > 0) return { score: 100, messageId: 'verified', data };
    const unavailable = with_(distribution.packages, 'unavailable');
    if (unavailable.length > 0) return { score: null, messageId: 'registry-unknown', data: { ...data, unavailable: listOf(unavailable) } };
    // Only names the manifests declare and nobody published (or published without a link): nothing advertised to judge.
    return { score: null, messageId: 'none', data, notApplicable: true };
  },
});
