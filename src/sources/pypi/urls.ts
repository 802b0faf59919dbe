/**
 * A PyPI release's `project_urls` and `home_page`: the labelled links (homepage, documentation,
 * changelog, issue tracker) and the source repository they point at. Pure.
 *
 * Labels are free text (`Source`, `Source Code`, `source_code`, `Bug Tracker` …), so they are
 * compared normalised (lower case, letters and digits only), as PyPI's own sidebar does.
 * The repository is the first link, by label priority, on GitHub — then GitLab or Bitbucket —
 * whose path names an `owner/repo`; trailing paths (`/tree/main/…`, `/issues`, `.git`) are
 * dropped and hosted-git-info builds the reference.
 */
import hostedGitInfo from 'hosted-git-info';
import type { RepositoryRef } from '../../evidence/schema.js';

export interface UrlInput {
  project_urls?: Record<string, string | null> | null;
  home_page: string | null;
  docs_url?: string | null;
  bugtrack_url?: string | null;
}

export interface ProjectLinks {
  projectUrls: Record<string, string>;
  homepage: string | null;
  documentationUrl: string | null;
  changelogUrl: string | null;
  issuesUrl: string | null;
  repository: RepositoryRef | null;
}

const MAX_URL_LENGTH = 2048;
const MAX_LINKS = 100;

const HOMEPAGE = ['homepage', 'home', 'website'];
const DOCUMENTATION = ['documentation', 'docs', 'doc', 'documentationurl'];
const CHANGELOG = ['changelog', 'changes', 'changelogs', 'releasenotes', 'history', 'whatsnew', 'release'];
const ISSUES = ['issues', 'issuetracker', 'bugtracker', 'bugs', 'bugreports', 'tracker', 'issue'];
/** Labels that name the source, most specific first; `home_page` comes after all of them. */
const SOURCE = ['source', 'sourcecode', 'repository', 'repo', 'code', 'github', 'gitlab', 'bitbucket', 'git'];
/** Other labels whose links often sit inside the repository (its issues, its changelog file). */
const INSIDE_REPOSITORY = [...HOMEPAGE, ...ISSUES, ...CHANGELOG, ...DOCUMENTATION];

const REPOSITORY_HOSTS: Readonly<Record<string, string>> = {
  'github.com': 'github.com',
  'www.github.com': 'github.com',
  'gitlab.com': 'gitlab.com',
  'www.gitlab.com': 'gitlab.com',
  'bitbucket.org': 'bitbucket.org',
  'www.bitbucket.org': 'bitbucket.org',
};

/** First path segments on github.com that are site pages, not owners. */
const GITHUB_RESERVED = new Set([
  'about', 'apps', 'collections', 'enterprise', 'explore', 'features', 'login', 'marketplace', 'new',
  'notifications', 'orgs', 'organizations', 'pricing', 'search', 'settings', 'site', 'sponsors', 'topics', 'users',
]);

export function normaliseLabel(label: string): string {
  return label.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function projectLinks(info: UrlInput): ProjectLinks {
  const entries = Object.entries(info.project_urls ?? {})
    .filter((e): e is [string, string] => typeof e[1] === 'string' && usable(e[1]))
    .slice(0, MAX_LINKS);
  const homePage = info.home_page !== null && usable(info.home_page) ? info.home_page.trim() : null;

  const projectUrls: Record<string, string> = {};
  for (const [label, url] of entries) projectUrls[label] = url.trim();
  if (homePage !== null && !entries.some(([, url]) => url.trim() === homePage)) projectUrls.home_page = homePage;

  const find = (labels: readonly string[]): string | null => {
    for (const wanted of labels) {
      const hit = entries.find(([label]) => normaliseLabel(label) === wanted);
      if (hit) return hit[1].trim();
    }
    return null;
  };
  const extra = (value: string | null | undefined) => (value && usable(value) ? value.trim() : null);

  return {
    projectUrls,
    homepage: find(HOMEPAGE) ?? homePage,
    documentationUrl: find(DOCUMENTATION) ?? extra(info.docs_url),
    changelogUrl: find(CHANGELOG),
    issuesUrl: find(ISSUES) ?? extra(info.bugtrack_url),
    repository: findRepository(entries, homePage),
  };
}

function findRepository(entries: readonly [string, string][], homePage: string | null): RepositoryRef | null {
  const labelled = (labels: readonly string[]) =>
    labels.flatMap((wanted) => entries.filter(([label]) => normaliseLabel(label) === wanted).map(([, url]) => url));
  // Source labels and home_page first; links that merely live in a repository only after them.
  const tiers = [[...labelled(SOURCE), ...(homePage === null ? [] : [homePage])], labelled(INSIDE_REPOSITORY)];
  for (const tier of tiers) {
    const refs = tier.map(repositoryFromUrl).filter((r): r is RepositoryRef => r !== null);
    const best = refs.find((r) => r.host === 'github') ?? refs[0];
    if (best !== undefined) return best;
  }
  return null;
}

/** A GitHub / GitLab / Bitbucket URL → its repository; null for anything else. */
export function repositoryFromUrl(raw: string): RepositoryRef | null {
  const value = raw.trim();
  if (!usable(value)) return null;
  let url: URL;
  try {
    url = new URL(value.replace(/^git\+/, ''));
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:' && url.protocol !== 'git:' && url.protocol !== 'ssh:') return null;
  const host = REPOSITORY_HOSTS[url.hostname.toLowerCase()];
  if (host === undefined) return null;
  const segments = url.pathname.split('/').filter((s) => s !== '');
  const path = repositoryPath(host, segments);
  if (path === null) return null;
  let info: ReturnType<typeof hostedGitInfo.fromUrl>;
  try {
    info = hostedGitInfo.fromUrl(`https://${host}/${path}`);
  } catch {
    info = undefined;
  }
  if (!info || !info.user || !info.project) return null;
  let browse: string | null;
  try {
    browse = info.browse({ noCommittish: true });
  } catch {
    browse = null;
  }
  return { raw: value, host: info.type, url: browse, slug: `${info.user}/${info.project}`, directory: null };
}

/** `owner/repo` (GitLab: `group/sub/…/project`, up to its `-` separator), `.git` dropped. */
function repositoryPath(host: string, segments: string[]): string | null {
  let parts: string[];
  if (host === 'gitlab.com') {
    const dash = segments.indexOf('-');
    parts = dash === -1 ? segments : segments.slice(0, dash);
    // Without `/-/`, a GitLab URL's trailing path cannot be told from subgroups; keep two levels then.
    if (dash === -1) parts = parts.slice(0, 2);
  } else {
    parts = segments.slice(0, 2);
  }
  if (parts.length < 2) return null;
  const last = parts.length - 1;
  parts[last] = (parts[last] as string).replace(/\.git$/i, '');
  if (host === 'github.com' && GITHUB_RESERVED.has((parts[0] as string).toLowerCase())) return null;
  if (!parts.every((p) => /^[A-Za-z0-9._-]+$/.test(p) && p !== '.' && p !== '..')) return null;
  return parts.join('/');
}

function usable(value: string): boolean {
  const trimmed = value.trim();
  return trimmed !== '' && trimmed.length <= MAX_URL_LENGTH && trimmed.toUpperCase() !== 'UNKNOWN';
}
