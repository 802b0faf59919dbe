/**
 * A repository's own files, read through the REST API (with a token, the files themselves through
 * one GraphQL query) — the one way nerq reads a repository's
 * files for its facts: one recursive tree listing of the default branch (of the commit a target's
 * ref names, `github:owner/repo@ref`: every listing and file below is then read at that commit,
 * source.ts `fetchRepositoryFiles`), the version tags, when
 * its history starts (repo-history.ts: one or two commit listings), then
 * only the files that matter (repo-tree.ts: README, licence files, manifests, lockfiles, security
 * policy, workflows), each within a size cap (lockfiles: 1 MiB), as text in memory: never executed, never
 * written to disk.
 *
 * Requests without a token: 4 + the files read — the tree, the tags, the two commit listings of
 * the history (one when it fits on a page), the README, at most 3 licence files, at most 6
 * manifests, at most 4 lockfiles beside them, at most 4 Go and Rust files (go.mod, Cargo.lock,
 * Cargo.toml), at most 2 manifests read for the licence they declare alone (the root Cargo.toml,
 * composer.json, setup.cfg, .gemspec, pom.xml, Directory.Build.props, a published .csproj;
 * repo-tree.ts) when not read already, and the security policy (at most 25 in all; 8 for a typical single-package
 * repository with a lockfile, 9 with a security policy; one more, private-reporting.ts, when the
policy's only channel is GitHub private vulnerability reporting), and at most 8 workflow files and 4
 * `action.yml` files of composite actions their outsider-triggered jobs call, one request each
 * (workflow-files.ts): at most 37 file requests in all — but for a github.com repository whose
 * history's newest commit has the listed tree as its root, the workflows and action files (at
 * most 30 and 10) come from raw file hosting at that commit instead (raw-files.ts), spending no
 * REST request: at most 25. With a token the same 4 REST requests,
 * then ONE GraphQL query for every file above together with the workflows and the listing's
 * action manifests (up to 30 and 10 of them: `<branch>:<path>` blobs, `blobBatch` in graphql.ts);
 * one query more only for a called file beyond those, and one more dates the version tags when
 * there are any (tag-dates.ts), after the files are read so that a rate limit on it leaves only
 * the dates unknown: 6 for a typical repository (the 4, the files' query, the dates' query; 5 with
 * no version tag or a one-page history). A blob over its cap by its `byteSize` (or its text) is
 * unread as over REST; REST reads (one request each) only a file the query could not give whole
 * (GitHub cuts a blob's text, `isTruncated`, or it is binary) or every file when the query fails
 * (an error, a 5xx, an answer of the wrong shape), so the facts are those of the REST path. The
 * manifest and lockfile texts are handed back beside the facts (for the dependency set:
 * repo-dependencies.ts), never kept in them. A file that
 * cannot be read (404, over the cap, a failure) is listed in `unread` and only the facts it feeds
 * are unknown; a listing that fails makes the whole section unknown with its reason (an empty
 * repository's, 409, is a listing that holds nothing). What is no file where one that matters
 * would be — a symbolic link, a submodule, a Git LFS pointer, a binary or UTF-16 text — is listed
 * in `unread` with why, never read as the file (a gitlink, mode 160000, by its mode whatever type
 * the listing gives it); a byte-order mark is read past. A listed path Git cannot hold (an empty,
 * `.` or `..` segment, a control character) is left out of the listing and never asked for; a
 * default branch Git could not name (`..`, `a:b`, a control character) makes the whole section
 * unknown with its reason, nothing asked.
 */
import { z } from 'zod';
import type { GithubFiles, RepoManifest } from '../../evidence/github-facts.js';
import { readmeTail } from '../../util/readme-tail.js';
import { joinUrl, withQuery } from '../http/url.js';
import { licenseFileFacts } from '../npm/license-text.js';
import { README_TEXT_BYTES } from '../../util/file-names.js';
import { memberChangelog, selectRepoFiles, type RepoTreeItem } from './repo-tree.js';
import { listsFolder, selectFolderFiles } from './repo-folder.js';
import { blobBatch, type BlobReader, type ObjectsRead } from './graphql.js';
import type { FileRead } from './link.js';
import { GithubStop, lastPageOf, type GithubCall } from './request.js';
import { COMMIT_SHA, type RawAt } from './raw-files.js';
import { restHistory, type HistoryHead } from './repo-history.js';
import { getJson, restFileSource } from './rest.js';
import { privateReportingFor } from './private-reporting.js';
import { graphqlTagDates } from './tag-dates.js';
import { isVersionTag } from './version-tags.js';
import { readWorkflows } from './workflow-files.js';

/** Bytes of a file that matters read at most (a larger one is listed as unread). */
export const MAX_REPO_FILE_BYTES = 512 * 1024;
/** The tree listing is at most this large (GitHub truncates at 100,000 entries / 7 MB itself). */
const MAX_TREE_BYTES = 16 * 1024 * 1024;
const TAGS_PER_PAGE = 100;
/**
 * Bytes of a lockfile read at most: the file reader's own limit. Real lockfiles outgrow the
 * manifests' cap (arxiv-mcp-server's uv.lock is 537 KB); a larger one is listed as unread.
 */
export const MAX_LOCKFILE_BYTES = 1024 * 1024;
/** Lockfiles (and requirements files) read per repository, root first. */
export const MAX_LOCKFILES = 4;

/** The facts, and the manifest and lockfile texts read (by path), which the facts do not keep. */
/** `missingFolder`: the folder asked for is not in the listing (nothing was read). */
export type RepoFilesRead = { ok: true; value: GithubFiles; texts: ReadonlyMap<string, string>; tree: readonly RepoTreeItem[] } | { ok: false; reason: string; missingFolder?: true };
/** Characters of the security policy kept (the reporting channel is near its top). */
export const SECURITY_POLICY_TEXT_CHARS = 16 * 1024;

const GitTreeSchema = z.object({
  sha: z.string().optional(),
  tree: z.array(z.object({ path: z.string(), type: z.string(), mode: z.string().optional(), size: z.number().int().nonnegative().optional(), sha: z.string().optional() })),
  truncated: z.boolean().optional(),
});
const TagsSchema = z.array(z.object({ name: z.string() }));

/** GitHub's licence answer (`GET …/license?ref=`): the file it detected the licence in, that file's blob sha, and the licence. */
const LicenceAnswerSchema = z.object({ path: z.string(), sha: z.string(), license: z.object({ spdx_id: z.string().nullish() }).nullish() });

/**
 * The licence GitHub detects at a pinned commit (`GET …/license?ref=<sha>`, one request), kept only
 * when the file GitHub names is, blob for blob, the one the commit's listing holds at that path: a
 * server that ignores `ref` (an older GitHub Enterprise) answers with the default branch's file,
 * which is then told apart and never trusted. Undefined when it does not match or GitHub cannot say.
 */
async function licenceAtCommit(call: GithubCall, base: string, commit: string, blobShas: ReadonlyMap<string, string>): Promise<GithubFiles['licenceAtRef']> {
  const got = await getJson(call, withQuery(joinUrl(base, 'license'), { ref: commit }), LicenceAnswerSchema, 'licence', { maxBytes: 2 * MAX_REPO_FILE_BYTES });
  if (!got.ok) return undefined;
  const { path, sha, license } = got.value;
  if (blobShas.get(path) !== sha) return undefined;
  return { license: license?.spdx_id ?? null, path, sha };
}

function treeItems(tree: z.infer<typeof GitTreeSchema>): RepoTreeItem[] {
  return tree.tree.map((e) => ({
    path: e.path,
    // A gitlink (mode 160000) is a submodule whatever type the listing gives it.
    type: e.mode === '160000' ? 'other' : e.type === 'blob' ? 'blob' : e.type === 'tree' ? 'tree' : 'other',
    size: e.size ?? null,
  }));
}

/**
 * Why a listed entry where a file that matters would be is not read as one: a symbolic link (mode
 * 120000: its text is the path it points to, not the file) or a submodule (`commit`: another
 * repository's commit). Null for a file.
 */
function notAFile(entry: { type: string; mode?: string | undefined }): string | null {
  if (entry.mode === '120000') return 'a symbolic link, not read (its text is the path it points to, not the file)';
  // By its mode too: a listing that calls a gitlink (160000) a blob does not make it a file.
  if (entry.type === 'commit' || entry.mode === '160000') return 'a submodule (a commit of another repository), not read';
  return null;
}

/** Listed paths Git cannot hold named in `unread` at most (the rest are counted in the last one's reason). */
const MAX_NOT_A_PATH = 3;

/**
 * Whether a listed path is one Git can hold: segments that are neither empty nor `.`/`..`, no
 * control character. Any other is a listing that lies: left out of the listing, never asked for
 * (the contents URL would read another path: `a//x` as `a/x`), named in `unread` (escaped).
 */
function isRepositoryPath(path: string): boolean {
  // eslint-disable-next-line no-control-regex
  return path !== '' && !/[\u0000-\u001f\u007f]/.test(path) && path.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/**
 * Whether Git could name a branch so (`git check-ref-format --branch`): no `..`, `//`, `@{`,
 * space, control character or any of `~^:?*[\`, no part starting with `.` or ending in `.lock`,
 * no leading `-` or `/`, no trailing `/` or `.`, at most 255 characters.
 */
function isBranchName(name: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (name === '' || name === '@' || name.length > 255 || name.startsWith('-') || /\.\.|\/\/|@\{|[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) return false;
  if (name.endsWith('/') || name.endsWith('.')) return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}

/** The root names whose submodule stands where the README or a manifest would be. */
const SUBMODULE_NAMES = /^(?:readme(?:\.[\w]+)?|package\.json|pyproject\.toml)$/i;

const LFS_POINTER = /^version https:\/\/git-lfs\.github\.com\/spec\/v1\r?\n/;

/**
 * Why a file's text read is not the file's text: a Git LFS pointer (the file is stored outside
 * the repository) or text with NUL characters (a binary file, or UTF-16, read as UTF-8). Null for text.
 */
export function notText(text: string): string | null {
  if (LFS_POINTER.test(text)) return 'a Git LFS pointer, not read (the file itself is stored outside the repository)';
  if (text.includes('\u0000')) return 'not UTF-8 text (a binary or UTF-16 file), not read';
  return null;
}

function capped(item: RepoTreeItem, limit: number): boolean {
  return item.size !== null && item.size > limit;
}

/** A blob as the `NerqBlob` fragment gives it (graphql.ts). */
const BlobSchema = z.object({
  byteSize: z.number().int().nonnegative().optional(),
  text: z.string().nullish(),
  isTruncated: z.boolean().optional(),
  isBinary: z.boolean().nullish(),
});

/** The REST reason for a file over its cap, also given when GraphQL's `byteSize` shows it. */
function overCap(cap: number, size: number): string {
  return `over the ${cap / 1024} KiB cap (${size} bytes)`;
}

/**
 * The selected files' texts (path → its byte cap). Without a token one REST request each. With
 * one, a single GraphQL query at the tree's branch (`<branch>:<path>`); a file over its cap by
 * the blob's `byteSize` is unread as over REST, and REST reads only what the query could not give
 * whole — a truncated or binary blob, a field GitHub reported an error for, or every file when the
 * query fails (an error, a 5xx, an answer of the wrong shape, a rate limit: REST then says so as it
 * would have).
 */
async function readFileTexts(
  call: GithubCall,
  repo: { owner: string; name: string },
  base: string,
  branch: string,
  caps: ReadonlyMap<string, number>,
  blobs: BlobReader,
  commit: string | undefined,
): Promise<Map<string, FileRead>> {
  const paths = [...caps.keys()];
  // A file larger than the listing said is held to its cap all the same (the listing's size is the repository's word).
  const rest = async (list: readonly string[]): Promise<Map<string, FileRead>> => {
    const got = list.length === 0 ? new Map<string, FileRead>() : await restFileSource(call, base, null, commit).read(list);
    for (const [path, read] of got) {
      const cap = caps.get(path) ?? MAX_REPO_FILE_BYTES;
      const bytes = read.kind === 'file' ? Buffer.byteLength(read.text, 'utf8') : 0;
      if (bytes > cap) got.set(path, { kind: 'error', reason: overCap(cap, bytes), code: 'too-large' });
    }
    return got;
  };
  if (!call.tokenInUse || paths.length === 0) return rest(paths);
  let got: ObjectsRead;
  try {
    got = await blobs(paths.map((p) => `${commit ?? branch}:${p}`));
  } catch (error) {
    if (!(error instanceof GithubStop)) throw error;
    return rest(paths);
  }
  if (typeof got === 'string') return rest(paths);
  const out = new Map<string, FileRead>();
  const again: string[] = [];
  paths.forEach((path, i) => {
    const value = got.objects.get(i) ?? null;
    if (got.failed.has(i)) return void again.push(path);
    if (value === null) return void out.set(path, { kind: 'missing' });
    const blob = BlobSchema.safeParse(value);
    if (!blob.success) return void again.push(path);
    const cap = caps.get(path) ?? MAX_REPO_FILE_BYTES;
    const { byteSize, text, isTruncated, isBinary } = blob.data;
    if (byteSize !== undefined && byteSize > cap) return void out.set(path, { kind: 'error', reason: overCap(cap, byteSize), code: 'too-large' });
    if (isTruncated === true || isBinary === true || typeof text !== 'string') return void again.push(path);
    // A text longer than the byteSize it came with is held to the cap all the same.
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > cap) return void out.set(path, { kind: 'error', reason: overCap(cap, bytes), code: 'too-large' });
    out.set(path, { kind: 'file', text });
  });
  for (const [path, read] of await rest(again)) out.set(path, read);
  return out;
}

/**
 * Where raw file hosting serves the listed tree: only when the history's newest commit (read
 * beside the listing) has the listed tree as its root, so a push between the two requests never
 * mixes two states of the branch; else (or for a GitHub Enterprise host, `raw` undefined) REST.
 */
function rawAtListing(raw: string | undefined, repo: { owner: string; name: string }, treeSha: string | undefined, head: HistoryHead | null, commit: string | undefined): RawAt | undefined {
  // A pinned target's files are all read at its commit: the listing is that commit's tree.
  if (raw !== undefined && commit !== undefined) return COMMIT_SHA.test(commit) ? { base: raw, owner: repo.owner, name: repo.name, commit } : undefined;
  if (raw === undefined || head === null || treeSha === undefined || head.tree !== treeSha || !COMMIT_SHA.test(head.commit)) return undefined;
  return { base: raw, owner: repo.owner, name: repo.name, commit: head.commit };
}

export async function restRepoFiles(
  call: GithubCall,
  repo: { owner: string; name: string },
  base: string,
  branch: string,
  /** Raw file hosting for a github.com repository (endpoints.ts `githubRaw`): its workflows are read from there without a token. */
  raw?: string,
  /**
   * The commit a target's ref resolved to (ref-commit.ts): the tree, the history and every file
   * are read at it (`branch` is then the ref as the target names it); absent, the default branch.
   */
  commit?: string,
  /** A folder the files that describe the package are read in (repo-folder.ts, already normalised); absent, the root. */
  folder?: string,
): Promise<RepoFilesRead> {
  const before = call.counter.requests;
  // The default branch comes from GitHub's answer: one Git could not name is a lie, and no file is asked at it.
  if (commit === undefined && !isBranchName(branch)) return { ok: false, reason: 'the default branch GitHub named is not a valid branch name: the files were not read' };
  const at = commit ?? branch;
  const treeUrl = withQuery(joinUrl(base, 'git', 'trees', at), { recursive: 1 });
  const [tree, tags, { history, head }] = await Promise.all([
    getJson(call, treeUrl, GitTreeSchema, 'repository tree', { maxBytes: MAX_TREE_BYTES }),
    getJson(call, withQuery(joinUrl(base, 'tags'), { per_page: TAGS_PER_PAGE }), TagsSchema, 'tags', { empty: [] }),
    restHistory(call, base, at),
  ]);
  // 409 "Git Repository is empty": a listing that is known to hold nothing, not one that failed.
  if (!tree.ok && tree.status !== 409) return { ok: false, reason: tree.reason };
  const answered = tree.ok ? tree.value : { tree: [], truncated: false };
  const lying = answered.tree.filter((e) => !isRepositoryPath(e.path));
  const listing = lying.length === 0 ? answered : { ...answered, tree: answered.tree.filter((e) => isRepositoryPath(e.path)) };
  const items = treeItems(listing);
  if (folder !== undefined && !listsFolder(items, folder)) return { ok: false, reason: `the repository has no folder ${folder}`, missingFolder: true };
  const selection = folder === undefined ? selectRepoFiles(items) : selectFolderFiles(items, folder);
  const inFolder = (path: string): string | null => (folder === undefined ? path : path.startsWith(`${folder}/`) ? path.slice(folder.length + 1) : null);
  const unread: GithubFiles['unread'] = lying.slice(0, MAX_NOT_A_PATH).map((e, i, shown) => ({
    path: JSON.stringify(e.path.slice(0, 200)).slice(1, -1),
    reason: `not a path a repository can hold (an empty, \`.\` or \`..\` segment, or a control character): left out of the listing${i === shown.length - 1 && lying.length > shown.length ? `, with ${lying.length - shown.length} more` : ''}`,
  }));
  const odd = new Map(
    listing.tree.flatMap((e) => {
      const why = notAFile(e);
      return why === null ? [] : [[e.path, why] as const];
    }),
  );
  // A submodule where the README or a manifest would be: unknown, never missing.
  for (const [path, reason] of odd) {
    const rel = inFolder(path);
    if (rel !== null && !rel.includes('/') && SUBMODULE_NAMES.test(rel) && reason.startsWith('a submodule')) unread.push({ path, reason });
  }
  const byPath = new Map(items.map((i) => [i.path, i]));
  const lockfiles = selection.lockfiles
    .flatMap((p) => byPath.get(p) ?? [])
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length)
    .slice(0, MAX_LOCKFILES);
  const moduleFiles = selection.moduleFiles.flatMap((p) => byPath.get(p) ?? []);
  const policyItem = items.find((i) => i.type === 'blob' && i.path === selection.securityPolicy) ?? null;
  const capOf = (i: RepoTreeItem) => (lockfiles.includes(i) || moduleFiles.includes(i) ? MAX_LOCKFILE_BYTES : MAX_REPO_FILE_BYTES);
  // A root Cargo.toml read for the dependency set is not asked twice.
  const licenseManifests = selection.licenseManifests.filter((i) => !moduleFiles.includes(i));
  const settings = selection.settings.flatMap((p) => byPath.get(p) ?? []);
  const wanted = [selection.readme, ...selection.licenses, ...selection.manifests, ...lockfiles, ...moduleFiles, ...settings, ...licenseManifests, policyItem].filter(
    (i): i is RepoTreeItem => i !== null,
  );
  const toRead = wanted.filter((i) => {
    const why = odd.get(i.path);
    if (why !== undefined) {
      unread.push({ path: i.path, reason: why });
      return false;
    }
    const cap = capOf(i);
    if (!capped(i, cap)) return true;
    unread.push({ path: i.path, reason: overCap(cap, i.size ?? 0), code: 'too-large' });
    return false;
  });
  // With a token the files and the first workflows are asked side by side: one GraphQL query.
  const blobs = blobBatch(call, repo.owner, repo.name);
  const [reads, workflowSafety] = await Promise.all([
    readFileTexts(call, repo, base, branch, new Map(toRead.map((i) => [i.path, capOf(i)])), blobs, commit),
    readWorkflows(call, repo, base, selection.workflowPaths, items, listing.truncated === true, new Map(), blobs, rawAtListing(raw, repo, tree.ok ? tree.value.sha : undefined, head, commit), commit),
  ]);
  const textOf = (path: string): string | null => {
    const read = reads.get(path);
    if (read === undefined) return null;
    if (read.kind === 'file') {
      // A byte-order mark is no part of the text (npm and GitHub read past it).
      const text = read.text.replace(/^\uFEFF/, '');
      const why = notText(text);
      if (why === null) return text;
      unread.push({ path, reason: why });
      return null;
    }
    if (read.kind === 'missing') unread.push({ path, reason: 'GitHub answered 404 for the file', code: 'not-found' });
    else unread.push({ path, reason: read.reason, ...(read.code === undefined ? {} : { code: read.code }) });
    return null;
  };

  let readme: GithubFiles['readme'] = null;
  if (selection.readme !== null && toRead.includes(selection.readme)) {
    const text = textOf(selection.readme.path);
    if (text !== null) {
      const bytes = Buffer.from(text, 'utf8');
      const kept = bytes.length > README_TEXT_BYTES ? new TextDecoder().decode(bytes.subarray(0, README_TEXT_BYTES)).replace(/\uFFFD$/, '') : text;
      readme = {
        path: selection.readme.path,
        size: selection.readme.size ?? bytes.length,
        text: kept,
        truncated: bytes.length > README_TEXT_BYTES,
      };
      if (readme.truncated) {
        // The sections and examples past the cut are still the README's (readme-tail.ts): their headings and code blocks, no request more.
        const tail = readmeTail(text, kept.length);
        readme = { ...readme, tailHeadings: tail.headings, tailCodeBlocks: tail.codeBlocks };
      }
    }
  }
  const licenseFiles = selection.licenses.map((item) => {
    const text = toRead.includes(item) ? textOf(item.path) : null;
    return licenseFileFacts(item.path, text);
  });
  // The manifest readers (the TOML parser behind them) load with the first repository whose files are read (a warm run, served from the facts cache, reads none).
  const [{ manifestOf, unreadManifestReason }, { licenceDeclarationOf }] = await Promise.all([import('./repo-manifests.js'), import('./licence-manifests.js')]);
  const manifests: RepoManifest[] = [];
  const texts = new Map<string, string>();
  for (const item of [...lockfiles, ...moduleFiles]) {
    const text = toRead.includes(item) ? textOf(item.path) : null;
    if (text !== null) texts.set(item.path, text);
  }
  // The package managers' settings beside them: the registry an install fetches from (repo-settings.ts).
  for (const item of settings) {
    const text = toRead.includes(item) ? textOf(item.path) : null;
    if (text !== null) texts.set(item.path, text);
  }
  for (const item of selection.manifests) {
    if (!toRead.includes(item)) continue;
    const text = textOf(item.path);
    if (text === null) continue;
    texts.set(item.path, text);
    const manifest = manifestOf(item.path, text);
    if (manifest === null) unread.push({ path: item.path, reason: unreadManifestReason(item.path, text) });
    else manifests.push(manifest);
  }
  const declaredLicenses: NonNullable<GithubFiles['declaredLicenses']> = [];
  for (const item of selection.licenseManifests) {
    const text = texts.get(item.path) ?? (licenseManifests.includes(item) && toRead.includes(item) ? textOf(item.path) : null);
    if (text === null) continue;
    const declared = licenceDeclarationOf(item.path, text);
    if (declared === undefined) unread.push({ path: item.path, reason: 'the manifest does not parse' });
    else declaredLicenses.push({ path: item.path, ...declared });
  }
  const policyText = policyItem !== null && toRead.includes(policyItem) ? textOf(policyItem.path) : null;
  const securityPolicyText =
    policyItem === null || policyText === null
      ? null
      : { path: policyItem.path, text: policyText.slice(0, SECURITY_POLICY_TEXT_CHARS), truncated: policyText.length > SECURITY_POLICY_TEXT_CHARS };
  // A policy whose only channel is private reporting: GitHub says whether it is on (one request).
  const privateReporting = await privateReportingFor(call, base, securityPolicyText?.text ?? null);
  const tagFacts = tags.ok
    ? { count: tags.value.filter((t) => isVersionTag(t.name)).length, complete: lastPageOf(tags.headers.link) === null && tags.value.length < TAGS_PER_PAGE }
    : null;
  // Dated only when there is a version tag to date; without a token that says why they are not.
  const tagDates = tagFacts === null || tagFacts.count === 0 ? undefined : await graphqlTagDates(call, repo.owner, repo.name);
  // At a pinned commit with a licence file, the licence GitHub detects there — verified against the listing's blob (docs/scoring.md §9, "A pinned ref").
  const blobShas = new Map(listing.tree.flatMap((e) => (e.type === 'blob' && e.sha !== undefined ? [[e.path, e.sha] as const] : [])));
  const licenceAtRef = commit === undefined || selection.licenses.length === 0 ? undefined : await licenceAtCommit(call, base, commit, blobShas);
  return {
    ok: true,
    value: {
      branch,
      ...(commit === undefined ? {} : { commit }),
      ...(folder === undefined ? {} : { folder }),
      treeTruncated: listing.truncated === true,
      entries: items.length,
      readme,
      licenseFiles,
      changelog: selection.changelog ?? memberChangelog(selection.memberChangelogs, selection.manifests, manifests),
      docsFolder: selection.docsFolder,
      examplesFolder: selection.examplesFolder,
      securityPolicy: selection.securityPolicy,
      securityPolicyText,
      ...(privateReporting === undefined ? {} : { privateReporting }),
      manifests,
      lockfiles: selection.lockfiles,
      ...(selection.moduleFiles.length === 0 ? {} : { moduleFiles: selection.moduleFiles }),
      ...(selection.unevaluated.length === 0 ? {} : { unevaluatedManifests: selection.unevaluated }),
      ...(selection.commandEntries.length === 0 ? {} : { commandEntries: selection.commandEntries }),
      ...(declaredLicenses.length === 0 ? {} : { declaredLicenses }),
      workflows: selection.workflows,
      workflowSafety,
      tags: tagFacts,
      ...(tagDates === undefined ? {} : { tagDates }),
      ...(licenceAtRef === undefined ? {} : { licenceAtRef }),
      history,
      unread,
      requests: call.counter.requests - before,
    },
    texts,
    tree: items,
  };
}
