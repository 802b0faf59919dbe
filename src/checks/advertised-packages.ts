/**
 * advertised-packages: whether the packages a repository tells people to install are its own.
 * A README whose install command names a package nobody published, or one published from another
 * repository, sends its users to a name anyone can take or someone else owns — the typosquat's
 * shape, arranged by the README itself (docs/scoring.md §9). Reads the `repository` view's
 * distribution: the README's install commands and the manifests' names, looked up in their
 * registries and verified as a package's repository link is — and the container images it runs,
 * judged from their references alone (`ghcr.io/<owner>/…` names a GitHub account; no other image
 * registry ties an image to a repository without its metadata, which is not read).
 */
import type { DistributedPackage, GithubDistribution } from '../evidence/schema.js';
import type { CheckOutcome, EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { parseOciReference } from './lib/oci.js';
import { judgeScript, type JudgedScript } from './lib/piped-scripts.js';

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

/**
 * What an image's reference alone says of whose it is (docs/scoring.md §9): GitHub's container
 * registry namespaces are github.com accounts, so `ghcr.io/<owner>/…` is the repository owner's own
 * (`own`) or another account's (`other-account`); an official Docker Hub image (`node`,
 * `library/python`) is infrastructure the project runs on, not its distribution; any other image
 * (a Docker Hub account, quay.io, mcr.microsoft.com, *.pkg.dev, …) is `unknown`. A reference that
 * does not parse is `unreadable` and, like a placeholder the README reader already drops, not judged.
 */
type ImageKind = 'own' | 'other-account' | 'infrastructure' | 'unknown' | 'unreadable';
interface JudgedImage {
  name: string;
  kind: ImageKind;
  /** The GitHub account of a `ghcr.io` image. */
  account: string | null;
  reason: string;
}

const DOCKER_HUB = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io']);
const UNTIED = "cannot be tied to the repository without the registry's metadata";

function judgeImage(name: string, host: string, owner: string): JudgedImage {
  const ref = parseOciReference(name);
  if (ref === null) return { name, kind: 'unreadable', account: null, reason: 'not an image reference' };
  const [first = '', ...rest] = ref.repository.split('/');
  if (DOCKER_HUB.has(ref.registry) && (rest.length === 0 || (first === 'library' && rest.length === 1))) {
    return { name, kind: 'infrastructure', account: null, reason: 'an official Docker Hub image' };
  }
  if (ref.registry === 'ghcr.io') {
    // ghcr.io's accounts are github.com's: a GitHub Enterprise owner of the same name is nobody's proof.
    if (host.toLowerCase() !== 'github.com') return { name, kind: 'unknown', account: first, reason: `a ghcr.io account, while the repository is on ${host}: ${UNTIED}` };
    return first === owner.toLowerCase()
      ? { name, kind: 'own', account: first, reason: `under the repository owner's GitHub account ${first}` }
      : { name, kind: 'other-account', account: first, reason: `under GitHub account ${first}, not ${owner}` };
  }
  return { name, kind: 'unknown', account: null, reason: `on ${ref.registry}: ${UNTIED}` };
}

function judgeImages(images: GithubDistribution['images'], host: string, fullName: string): JudgedImage[] {
  const owner = fullName.split('/')[0] ?? '';
  const seen = new Set<string>();
  const judged: JudgedImage[] = [];
  for (const image of images) {
    if (seen.has(image.name)) continue;
    seen.add(image.name);
    judged.push(judgeImage(image.name, host, owner));
  }
  return judged;
}

const namesOf = (images: readonly JudgedImage[]): string => images.map((i) => i.name).join(', ');

export default defineCheck({
  id: 'advertised-packages',
  dimension: 'security',
  weight: 3,
  needs: ['repository'],
  title: 'Advertised packages are its own',
  description:
    "For a `github:` target: the npm and PyPI packages its README's install commands name and its published manifests declare, looked up in their registries, a link here verified as a package's repository link is (third-party packages installed alongside, among them one under the owner's npm scope published from another of the owner's repositories, are listed, not judged), and the container images its README runs, read from their references: on `ghcr.io` under the repository owner's GitHub account its own, an official Docker Hub image (`node`) infrastructure and not counted, any other image unknown. " +
    'An advertised package that is not published, or whose name claims the project but is published from another repository, and an image on `ghcr.io` under another GitHub account score 0 and hold the verdict; a package naming no repository 50, a declared name another repository publishes 60, one linking here that no manifest here names 70, all verified 100. ' +
    'Not applicable when nothing is left to judge; unknown when the registries cannot answer or only images nothing ties to the repository are left, which never move the score the known items set; ' +
    "installers its README pipes into a shell (`curl … | sh`, `irm … | iex`) are judged from their URL: https from the repository's homepage domain or its owner's GitHub is context, another host a warning (at most 50), plain http, an IP address, a URL shortener or credentials 0 and hold the verdict.",
  // Each message names one package or image or several ({missing} is a list): worded to read right either way.
  messages: {
    verified: 'Publishes {verified}: each links back to this repository, which names it',
    'own-image': 'Runs {ownImages}, on ghcr.io under the repository owner’s own GitHub account',
    'verified-image-unknown': 'Its own: {own}; unknown for {unknownImages}, which cannot be tied to the repository without the registry’s metadata',
    missing: 'The README tells people to install {missing}, not published: anyone could register such a name',
    elsewhere: 'The README tells people to install {elsewhere}, published from another repository ({linksTo})',
    'image-elsewhere': 'The README tells people to run {foreignImages}, on ghcr.io under GitHub account {imageAccount}, not the repository owner’s: that account decides what it holds',
    unlinked: 'The README tells people to install {unlinked}, published without a link to its source repository',
    unconfirmed: 'Linking to this repository, though no manifest here names it: {unconfirmed}',
    'name-taken': 'A manifest here declares {taken}, but the published package of that name links to {linksTo}',
    'registry-unknown': 'Unknown: the registries could not answer for {unavailable}',
    'image-unknown': 'Unknown: {unknownImages} cannot be tied to the repository without the registry’s metadata',
    none: 'Advertises and declares no npm or PyPI package and runs no container image of its own',
    'script-unsafe': 'The README tells people to pipe {scriptUrl} into a shell: {scriptReason}',
    'script-elsewhere': 'The README tells people to pipe a script from {scriptHost} into a shell: nothing ties that host to the repository',
    'script-own': 'Its install script is piped into a shell from the project’s own host ({scriptHost}); no npm or PyPI package or container image of its own',
  },
  evaluate: ({ repository }) => {
    const distribution = repository.distribution;
    if (distribution === null) return { score: null, messageId: 'none', notApplicable: true };
    const base = packagesOutcome(distribution, repository.repository.host, repository.repository.fullName);
    return withScripts(base, distribution, repository.repository.fullName, repository.repository.homepage);
  },
});

type MessageId =
  | 'verified' | 'own-image' | 'verified-image-unknown' | 'missing' | 'elsewhere' | 'image-elsewhere' | 'unlinked' | 'unconfirmed'
  | 'name-taken' | 'registry-unknown' | 'image-unknown' | 'none' | 'script-unsafe' | 'script-elsewhere' | 'script-own';
type Outcome = CheckOutcome<MessageId>;

/** The packages and images alone (docs/scoring.md §9). */
function packagesOutcome(distribution: GithubDistribution, host: string, fullName: string): Outcome {
    // Not published is a finding whatever the name (anyone can register it); published elsewhere only for a name that claims the project.
    // A sibling project of the same owner (its scope, its repositories) is installed alongside, not claimed.
    const ownProject = (p: DistributedPackage): boolean => claimsProject(p, fullName) && !ownerSibling(p, fullName);
    const advertised = distribution.packages.filter((p) => p.command !== null && (p.status === 'missing' || ownProject(p)));
    const declaredOnly = distribution.packages.filter((p) => p.command === null);
    const with_ = (list: readonly DistributedPackage[], status: Status): DistributedPackage[] => list.filter((p) => p.status === status);
    const verified = with_(distribution.packages, 'verified');
    const images = judgeImages(distribution.images, host, fullName);
    const ofKind = (kind: ImageKind): JudgedImage[] => images.filter((i) => i.kind === kind);
    const ownImages = ofKind('own');
    const foreignImages = ofKind('other-account');
    const unknownImages = ofKind('unknown');
    const data: Record<string, EvidenceValue> = {
      verified: listOf(verified),
      packages: distribution.packages.map((p) => `${label(p)} ${p.status}`),
      images: distribution.images.map((i) => i.name),
      imageKinds: images.map((i) => `${i.name} ${i.kind}: ${i.reason}`),
      ownImages: namesOf(ownImages),
      unknownImages: namesOf(unknownImages),
      infrastructure: ofKind('infrastructure').map((i) => i.name),
      skipped: distribution.skipped,
      thirdParty: distribution.packages.filter((p) => p.command !== null && p.status !== 'missing' && !ownProject(p)).map(label),
    };
    const missing = with_(advertised, 'missing');
    const elsewhere = with_(advertised, 'elsewhere');
    if (missing.length > 0 || elsewhere.length > 0 || foreignImages.length > 0) {
      const first = elsewhere[0];
      const holds = [
        ...missing.map((p) => `the README advertises ${label(p)}, which is not published`),
        ...elsewhere.map((p) => `the README advertises ${label(p)}, published from ${p.linksTo ?? 'another repository'}`),
        ...foreignImages.map((i) => `the README runs the image ${i.name}, ${i.reason}`),
      ];
      const outcome = {
        ...data,
        missing: listOf(missing),
        elsewhere: listOf(elsewhere),
        linksTo: first?.linksTo ?? null,
        foreignImages: namesOf(foreignImages),
        imageAccount: foreignImages[0]?.account ?? null,
      };
      return {
        score: 0,
        messageId: missing.length > 0 ? 'missing' : elsewhere.length > 0 ? 'elsewhere' : 'image-elsewhere',
        data: outcome,
        holdVerdict:
          missing.length + elsewhere.length > 0
            ? `${holds.join('; ')}: until the name is the project's own, installing it as told may install someone else's code`
            : `${holds.join('; ')}: until the image is the project's own, running it as told runs what that account pushed`,
      };
    }
    // From here an image nothing ties to the repository is named in the evidence but moves no score: what is known decides it.
    const unlinked = with_(advertised, 'unlinked');
    if (unlinked.length > 0) return { score: 50, messageId: 'unlinked', data: { ...data, unlinked: listOf(unlinked) } };
    const taken = with_(declaredOnly, 'elsewhere');
    if (taken.length > 0) return { score: 60, messageId: 'name-taken', data: { ...data, taken: listOf(taken), linksTo: taken[0]?.linksTo ?? null } };
    const unconfirmed = with_(distribution.packages, 'unconfirmed');
    if (unconfirmed.length > 0) return { score: 70, messageId: 'unconfirmed', data: { ...data, unconfirmed: listOf(unconfirmed) } };
    if (verified.length > 0 || ownImages.length > 0) {
      const own = [...verified.map(label), ...ownImages.map((i) => i.name)].join(', ');
      if (unknownImages.length > 0) return { score: 100, messageId: 'verified-image-unknown', data: { ...data, own } };
      return { score: 100, messageId: verified.length > 0 ? 'verified' : 'own-image', data: { ...data, own } };
    }
    const unavailable = with_(distribution.packages, 'unavailable');
    if (unavailable.length > 0) return { score: null, messageId: 'registry-unknown', data: { ...data, unavailable: listOf(unavailable) } };
    if (unknownImages.length > 0) return { score: null, messageId: 'image-unknown', data };
    // Only names the manifests declare and nobody published (or published without a link), official images: nothing advertised to judge.
    return { score: null, messageId: 'none', data, notApplicable: true };
}

/**
 * The README's pipe-to-shell lines folded in (docs/scoring.md §9, checks/lib/piped-scripts.ts): an
 * unsafe one (plain http, an IP address, a shortener, credentials) scores 0 and holds the verdict,
 * its reason first; one from an unrelated host is a warning naming it (at most 50); the project's
 * own is context, named in the evidence, moving no score.
 */
function withScripts(base: Outcome, distribution: GithubDistribution, fullName: string, homepage: string | null): Outcome {
  const scripts: JudgedScript[] = (distribution.scripts ?? []).map((line) => judgeScript(line, fullName, homepage));
  if (scripts.length === 0) return base;
  const ofKind = (kind: JudgedScript['kind']): JudgedScript[] => scripts.filter((s) => s.kind === kind);
  const unsafe = ofKind('unsafe');
  const unrelated = ofKind('unrelated');
  const own = ofKind('own');
  const data: Record<string, EvidenceValue> = {
    ...base.data,
    scripts: scripts.map((s) => `${s.url} ${s.kind}: ${s.reason}`),
    scriptHosts: [...new Set(scripts.map((s) => s.host))],
  };
  const first = unsafe[0];
  if (first !== undefined) {
    const holds = unsafe.map((s) => `the README pipes ${s.url} into a shell, ${s.reason}`);
    return {
      score: 0,
      messageId: 'script-unsafe',
      data: { ...data, scriptUrl: first.url, scriptHost: first.host, scriptReason: first.reason },
      holdVerdict: [`${holds.join('; ')}: until the script is served over https from a host the project owns, running it as told runs whatever that host or path serves`, ...(base.holdVerdict === undefined ? [] : [base.holdVerdict])].join('; '),
    };
  }
  if (base.score === 0) return { ...base, data };
  const elsewhere = unrelated[0];
  if (elsewhere !== undefined) {
    return { score: base.score === null ? 50 : Math.min(base.score, 50), messageId: 'script-elsewhere', data: { ...data, scriptHost: elsewhere.host, scriptUrl: elsewhere.url } };
  }
  const mine = own[0];
  if (base.notApplicable === true && base.messageId === 'none' && mine !== undefined) return { ...base, messageId: 'script-own', data: { ...data, scriptHost: mine.host } };
  return { ...base, data };
}
