/**
 * Odd repositories, end to end: `nerq check github:owner/repo --json` through the built CLI
 * against the fixture server, for variants derived here from the recorded public repositories
 * (fixtures/github-repos: formulahendry/mcp-server-code-runner, GongRzhe/Office-Word-MCP-Server)
 * — one recorded answer edited per variant (the tree listing, a file's text, the repository
 * answer), never a whole answer written by hand. Each run: no crash and no stack trace, a report
 * the shipped schema accepts, the exit code the gate gives (docs/scoring.md §10), the odd part
 * unknown with its check's code (never scored as good, never "missing" when it is there), the
 * rest still known.
 *
 * Covered elsewhere and not repeated: a truncated tree, a lockfile over its cap, an answer
 * without topics/visibility (test/repository/repository-targets.test.ts), a `master` default
 * branch (BurntSushi/ripgrep), a Poetry-only pyproject.toml (ian1roberts/mcp_server); the
 * recorded mcp-server-code-runner itself has no tag and no release.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/schema.js';
import { expectNoUnexpected, FIXTURES_ROOT, startFixtureServer, type FixtureResponse, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { PUBLISHED, recordOf, repoAnswer, serveRecordedGraphql, serveRecordedRepo, servePublished, type PublishedPackages, type RepoAnswerOptions } from '../repository/recorded-repos.js';
import { TOKEN } from '../github/helpers.js';
import { requireBuiltCli, schemaViolations } from './helpers.js';

interface TreeEntry {
  path: string;
  mode: string;
  type: string;
  sha: string;
  size?: number;
}

/** A check's expected message id; `null` after it: unknown (score null), a number: that score. */
type Expected = string | [string, number | null];

interface Variant {
  name: string;
  repo: string;
  answer?: RepoAnswerOptions;
  /** Keys of the repository answer replaced (with a token: `nodeEdit`, of the GraphQL repository node). */
  repoEdit?: Record<string, unknown>;
  nodeEdit?: Record<string, unknown>;
  tree?: (entries: TreeEntry[]) => TreeEntry[];
  /** Texts served for files (`GET …/contents/<path>`), by path. */
  files?: Record<string, FixtureResponse | string>;
  override?: Record<string, FixtureResponse>;
  /** With a token: the files come from one GraphQL query (the variant's texts as its blobs, a Buffer as a binary blob REST then reads). */
  token?: true;
  /** The repository answer redirects (301) to a renamed repository, served under its new name. */
  renamedTo?: string;
  /** Further routes outside the repository's own (a fork's comparison with its parent), by absolute path. */
  serve?: Record<string, FixtureResponse>;
  exit: number;
  verdict: string;
  checks: Record<string, Expected>;
  /** Checks that stay known (score not null). */
  known?: string[];
  /** Checks not in the report (not applicable). */
  absent?: readonly string[];
  /** The report's `target`, as far as given (toMatchObject); keys given as undefined: absent. */
  target?: Record<string, unknown>;
  /** Texts the Markdown and terminal reports show (`--format markdown`, the table). */
  shows?: string[];
  /** Unavailable sources' codes in the report's `sources`, by source id. */
  sourceCodes?: Record<string, string>;
}

const CODE_RUNNER = 'formulahendry/mcp-server-code-runner';
const WORD = 'GongRzhe/Office-Word-MCP-Server';
const PUBLISHED_HERE: Record<string, PublishedPackages> = {
  ...PUBLISHED,
  [WORD]: { pypi: { 'office-word-mcp-server': 'https://github.com/GongRzhe/Office-Word-MCP-Server' } },
};

function recordedTree(fullName: string): { sha: string; truncated: boolean; tree: TreeEntry[] } {
  const record = recordOf(fullName);
  return JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'github', 'repos', fullName, 'git', 'trees', `${record.recordedCommit.tree}.json`), 'utf8')) as {
    sha: string;
    truncated: boolean;
    tree: TreeEntry[];
  };
}
const recordedText = (fullName: string, file: string): string => readFileSync(path.join(FIXTURES_ROOT, 'github', 'repos', fullName, 'contents', file), 'utf8');
const README = recordedText(CODE_RUNNER, 'README.md');
const PACKAGE_JSON = recordedText(CODE_RUNNER, 'package.json');
const PYPROJECT = recordedText(WORD, 'pyproject.toml');
/** The recorded `[project].dependencies = [...]` list of the Word server's pyproject.toml. */
const PEP621_DEPENDENCIES = /dependencies = \[[\s\S]*?\n\]/;

const edit = (file: string, change: (e: TreeEntry) => TreeEntry) => (t: TreeEntry[]) => t.map((e) => (e.path === file ? change(e) : e));
const moveTo = (from: string, to: string, ...folders: string[]) => (t: TreeEntry[]) => [
  ...folders.map((f, i) => ({ path: f, mode: '040000', type: 'tree', sha: `${i + 1}`.repeat(40) })),
  ...edit(from, (e) => ({ ...e, path: to }))(t),
];
const submodule = (file: string) => edit(file, (e) => ({ path: e.path, mode: '160000', type: 'commit', sha: 'a'.repeat(40) }));
const symlink = (file: string, target: string) => edit(file, (e) => ({ ...e, mode: '120000', size: target.length }));
const lfsPointer = (size: number) => `version https://git-lfs.github.com/spec/v1\noid sha256:${'4d7a'.repeat(16)}\nsize ${size}\n`;
const without = (...files: string[]) => (t: TreeEntry[]) => t.filter((e) => !files.includes(e.path));
const withoutKey = (key: string) => JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(PACKAGE_JSON) as Record<string, unknown>).filter(([k]) => k !== key)), null, 2);
/** A fork of the code runner's comparison with its parent someone/mcp-server-code-runner (both on `main`), and the recorded answer served for it. */
const FORK_COMPARE = '/github/repos/someone/mcp-server-code-runner/compare/main...formulahendry:main';
const COMPARED = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'github', 'compare', 'pygithub-v0.6-v0.7.json'), 'utf8')) as Record<string, unknown>;
const EMPTY: FixtureResponse = { status: 409, body: { message: 'Git Repository is empty.', documentation_url: 'https://docs.github.com/rest/git/trees#get-a-tree' } };

/** The recorded repository as it scores (CAUTION: 16 days of history); a variant changes only what it names. */
const BASE = { exit: 0, verdict: 'caution' } as const;
const DEPENDENCIES_KNOWN = ['vulnerable-dependencies', 'malicious-package'];
const DOCUMENTS_KNOWN = ['readme', 'license-file', 'license-consistency'];
const DEPENDENCIES_UNKNOWN: Record<string, Expected> = { 'vulnerable-dependencies': ['source-unavailable', null], 'malicious-package': ['source-unavailable', null] };
/** A file there but no text that gives the set, and a file a request failed for: each with its code, never `unclassified`. */
const UNREADABLE = { dependencies: 'unreadable-file' } as const;
const SERVER_ERROR: FixtureResponse = { status: 500, body: { message: 'Server Error' } };

const VARIANTS: Variant[] = [
  { name: 'the recorded repository', repo: CODE_RUNNER, ...BASE, checks: { readme: ['good', 85], 'vulnerable-dependencies': 'repository-clean' }, known: DOCUMENTS_KNOWN },
  // The tree: entries that are no file of the repository where a file that matters would be.
  { name: 'a submodule where README.md would be', repo: CODE_RUNNER, tree: submodule('README.md'), ...BASE, checks: { readme: ['unreadable', null] }, known: [...DEPENDENCIES_KNOWN, 'license-file'] },
  { name: 'a submodule where package.json would be', repo: CODE_RUNNER, tree: submodule('package.json'), exit: 3, verdict: 'caution', checks: { ...DEPENDENCIES_UNKNOWN, readme: 'good' }, known: DOCUMENTS_KNOWN, sourceCodes: UNREADABLE },
  { name: 'README.md a symbolic link', repo: CODE_RUNNER, tree: symlink('README.md', 'docs/README.md'), files: { 'README.md': 'docs/README.md' }, ...BASE, checks: { readme: ['unreadable', null] }, known: DEPENDENCIES_KNOWN },
  // A licence file that cannot be read is there, its text unrecognised (70), as for a 404.
  { name: 'LICENSE a symbolic link', repo: CODE_RUNNER, tree: symlink('LICENSE', '../LICENSE.txt'), files: { LICENSE: '../LICENSE.txt' }, ...BASE, checks: { 'license-file': ['unrecognised', 70] }, known: [...DEPENDENCIES_KNOWN, 'readme'] },
  { name: 'package.json a symbolic link', repo: CODE_RUNNER, tree: symlink('package.json', 'packages/a/package.json'), files: { 'package.json': 'packages/a/package.json' }, exit: 3, verdict: 'caution', checks: DEPENDENCIES_UNKNOWN, known: DOCUMENTS_KNOWN, sourceCodes: UNREADABLE },
  // Git LFS pointers: the file is stored elsewhere, the text read is the pointer.
  { name: 'package.json a Git LFS pointer', repo: CODE_RUNNER, files: { 'package.json': lfsPointer(768) }, exit: 3, verdict: 'caution', checks: DEPENDENCIES_UNKNOWN, known: DOCUMENTS_KNOWN },
  { name: 'README.md a Git LFS pointer', repo: CODE_RUNNER, files: { 'README.md': lfsPointer(5540) }, ...BASE, checks: { readme: ['unreadable', null] }, known: DEPENDENCIES_KNOWN },
  { name: 'package-lock.json a Git LFS pointer', repo: CODE_RUNNER, files: { 'package-lock.json': lfsPointer(57_755) }, exit: 3, verdict: 'caution', checks: DEPENDENCIES_UNKNOWN, known: DOCUMENTS_KNOWN, sourceCodes: UNREADABLE },
  // One file GitHub fails to give (not the whole repository): the set is unknown with the request's failure as its code.
  { name: 'package-lock.json answered 500', repo: CODE_RUNNER, files: { 'package-lock.json': SERVER_ERROR }, exit: 3, verdict: 'caution', checks: DEPENDENCIES_UNKNOWN, known: DOCUMENTS_KNOWN, sourceCodes: { dependencies: 'http-status' } },
  { name: 'package.json answered 500', repo: CODE_RUNNER, files: { 'package.json': SERVER_ERROR }, exit: 3, verdict: 'caution', checks: DEPENDENCIES_UNKNOWN, known: ['readme', 'license-file'], sourceCodes: { dependencies: 'http-status' } },
  { name: 'package-lock.json listed but answered 404', repo: CODE_RUNNER, files: { 'package-lock.json': { status: 404, body: { message: 'Not Found' } } }, exit: 3, verdict: 'caution', checks: DEPENDENCIES_UNKNOWN, known: DOCUMENTS_KNOWN, sourceCodes: { dependencies: 'not-found' } },
  // README names and places.
  ...['README.rst', 'README.adoc', 'README.org', 'README.txt', 'README'].map(
    (name): Variant => ({ name: `the README as ${name}`, repo: CODE_RUNNER, tree: moveTo('README.md', name), files: { [name]: README }, ...BASE, checks: { readme: ['good', 85] }, known: DEPENDENCIES_KNOWN }),
  ),
  // GitHub shows a README from .github/ or docs/ too; a docs/ folder with files adds 10.
  { name: 'the only README is .github/readme.MD', repo: CODE_RUNNER, tree: moveTo('README.md', '.github/readme.MD', '.github'), files: { '.github/readme.MD': README }, ...BASE, checks: { readme: ['good', 85] } },
  { name: 'the only README is docs/readme.MD', repo: CODE_RUNNER, tree: moveTo('README.md', 'docs/readme.MD', 'docs'), files: { 'docs/readme.MD': README }, ...BASE, checks: { readme: ['good', 95] } },
  { name: 'a binary README', repo: CODE_RUNNER, files: { 'README.md': { body: Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(64)]) } }, ...BASE, checks: { readme: ['unreadable', null] }, known: DEPENDENCIES_KNOWN },
  { name: 'a UTF-16 README', repo: CODE_RUNNER, files: { 'README.md': { body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(README, 'utf16le')]) } }, ...BASE, checks: { readme: ['unreadable', null] }, known: DEPENDENCIES_KNOWN },
  // package.json as editors and people write it.
  { name: 'package.json with a byte-order mark', repo: CODE_RUNNER, files: { 'package.json': `\uFEFF${PACKAGE_JSON}` }, ...BASE, checks: { 'vulnerable-dependencies': ['repository-clean', 100], 'advertised-packages': 'verified-image-unknown' } },
  { name: 'package.json with CRLF line ends', repo: CODE_RUNNER, files: { 'package.json': PACKAGE_JSON.replaceAll('\n', '\r\n') }, ...BASE, checks: { 'vulnerable-dependencies': ['repository-clean', 100] } },
  // npm refuses comments in package.json: unknown, never a clean set.
  { name: 'package.json with a comment', repo: CODE_RUNNER, files: { 'package.json': PACKAGE_JSON.replace('{', '{\n  // the server\n') }, exit: 3, verdict: 'caution', checks: DEPENDENCIES_UNKNOWN, known: DOCUMENTS_KNOWN, sourceCodes: UNREADABLE },
  // JSON's last duplicate wins (as npm reads it): the MIT after the UNLICENSED.
  { name: 'package.json with a duplicate key', repo: CODE_RUNNER, files: { 'package.json': PACKAGE_JSON.replace('{', '{\n  "license": "UNLICENSED",') }, ...BASE, checks: { 'license-consistency': ['consistent', 100] } },
  { name: 'package.json with workspaces as an object', repo: CODE_RUNNER, files: { 'package.json': PACKAGE_JSON.replace('{', '{\n  "workspaces": { "packages": ["packages/*"] },') }, ...BASE, checks: { 'vulnerable-dependencies': 'repository-clean' } },
  // Without a name the advertised package cannot be confirmed by the manifest: never verified.
  { name: 'package.json without a name', repo: CODE_RUNNER, files: { 'package.json': withoutKey('name') }, ...BASE, checks: { 'advertised-packages': ['unconfirmed', 70], 'vulnerable-dependencies': 'repository-clean' } },
  { name: 'package.json without a version', repo: CODE_RUNNER, files: { 'package.json': withoutKey('version') }, ...BASE, checks: { 'advertised-packages': 'verified-image-unknown', 'vulnerable-dependencies': 'repository-clean' } },
  // Python manifests (the Word server's requirements.txt gives bare names: not queried, the verdict held).
  { name: 'pyproject.toml that is not valid TOML', repo: WORD, files: { 'pyproject.toml': `${PYPROJECT}\n[project\nname = ` }, exit: 3, verdict: 'caution', checks: DEPENDENCIES_UNKNOWN, known: ['readme', 'license-file'] },
  {
    name: 'pyproject.toml with dynamic dependencies and nothing beside it',
    repo: WORD,
    tree: without('requirements.txt'),
    files: { 'pyproject.toml': PYPROJECT.replace(PEP621_DEPENDENCIES, 'dynamic = ["dependencies"]') },
    exit: 3,
    verdict: 'caution',
    checks: DEPENDENCIES_UNKNOWN,
    known: ['readme', 'license-file'],
  },
  {
    // PDM's dev group and a Hatch environment are no runtime dependencies: pytest is the dev set's, and unresolved.
    name: 'pyproject.toml with only PDM and Hatch dependency tables',
    repo: WORD,
    tree: without('requirements.txt'),
    files: {
      'pyproject.toml': PYPROJECT.replace(PEP621_DEPENDENCIES, '').replace('[tool.hatch.build', '[tool.pdm.dev-dependencies]\ntest = ["pytest>=8"]\n\n[tool.hatch.envs.default]\ndependencies = ["python-docx>=0.8.11"]\n\n[tool.hatch.build'),
    },
    exit: 3,
    verdict: 'caution',
    checks: { 'vulnerable-dependencies': ['unpinned', null] },
    known: ['readme', 'license-file'],
  },
  {
    name: 'requirements.txt with includes, hashes, markers and URLs',
    repo: WORD,
    files: {
      'requirements.txt': `-r base.txt\nrequests==2.31.0 --hash=sha256:${'b'.repeat(64)}\npywin32>=300; sys_platform == "win32"\nhttps://example.com/pkg-1.0.tar.gz\ngit+https://github.com/a/b@main#egg=b\n${recordedText(WORD, 'requirements.txt')}`,
    },
    exit: 3,
    verdict: 'caution',
    checks: { 'vulnerable-dependencies': ['not-queried', null] },
    known: ['readme', 'license-file'],
  },
  // An empty repository: GitHub answers 409 for its tree and history — a listing known to hold nothing (no README,
  // no licence, no manifest: the dependency checks do not apply); its age is its creation date's.
  {
    name: 'an empty repository',
    repo: CODE_RUNNER,
    override: { '/git/trees/main': EMPTY, '/commits?per_page=2&sha=main': EMPTY, '/tags': { body: [] }, '/contents': { status: 404, body: { message: 'This repository is empty.' } } },
    exit: 1,
    verdict: 'no',
    checks: { readme: ['missing-repository', 0], 'license-file': ['missing-repository', 20], 'project-maturity': ['too-young', 20] },
    absent: DEPENDENCIES_KNOWN,
  },
  // With a token the files are read in one GraphQL query: the same odd files, the same answers.
  { name: 'with a token: README.md a symbolic link', token: true, repo: CODE_RUNNER, tree: symlink('README.md', 'docs/README.md'), files: { 'README.md': 'docs/README.md' }, ...BASE, checks: { readme: ['unreadable', null] }, known: DEPENDENCIES_KNOWN },
  { name: 'with a token: README.md a Git LFS pointer', token: true, repo: CODE_RUNNER, files: { 'README.md': lfsPointer(5540) }, ...BASE, checks: { readme: ['unreadable', null] }, known: DEPENDENCIES_KNOWN },
  { name: 'with a token: a binary README (read again over REST)', token: true, repo: CODE_RUNNER, files: { 'README.md': { body: Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(64)]) } }, ...BASE, checks: { readme: ['unreadable', null] }, known: DEPENDENCIES_KNOWN },
  // The blob GraphQL cannot give is asked over REST, which fails: the request's code.
  { name: 'with a token: package-lock.json answered 500 over REST', token: true, repo: CODE_RUNNER, files: { 'package-lock.json': SERVER_ERROR }, exit: 3, verdict: 'caution', checks: DEPENDENCIES_UNKNOWN, known: DOCUMENTS_KNOWN, sourceCodes: { dependencies: 'http-status' } },
  { name: 'with a token: package.json with a byte-order mark', token: true, repo: CODE_RUNNER, files: { 'package.json': `\uFEFF${PACKAGE_JSON}` }, ...BASE, checks: { 'vulnerable-dependencies': ['repository-clean', 100], 'advertised-packages': 'verified-image-unknown' } },
  // The repository answer.
  {
    name: 'renamed: 301 to the new owner and name',
    repo: CODE_RUNNER,
    renamedTo: 'newowner/code-runner',
    ...BASE,
    checks: { readme: 'good', 'vulnerable-dependencies': 'repository-clean' },
    target: { renamedFrom: CODE_RUNNER, fork: undefined },
    shows: [`moved from ${CODE_RUNNER}`],
  },
  // A fork (GitHub's answer names its parent and its network's source): what its branch copied is never credited.
  {
    name: 'a fork',
    repo: CODE_RUNNER,
    repoEdit: { fork: true, parent: { full_name: 'someone/mcp-server-code-runner' }, source: { full_name: 'someone/mcp-server-code-runner' } },
    ...BASE,
    checks: { readme: 'good', 'commit-activity': ['fork-copied', null], contributors: ['unlinked', null], 'stars-forks': 'niche' },
    target: { fork: { parent: 'someone/mcp-server-code-runner', check: 'github:someone/mcp-server-code-runner' }, renamedFrom: undefined },
    shows: ['fork of someone/mcp-server-code-runner', 'nerq check github:someone/mcp-server-code-runner'],
  },
  // A fork whose parent and its branch GitHub names: one comparison tells its own commits (the recorded
  // comparison answer, fixtures/http/github/compare/: 4 own commits of 2012, one author).
  {
    name: 'a fork compared with its parent: ahead, its own commits judged (dormant since 2012), the hold kept',
    repo: CODE_RUNNER,
    repoEdit: { fork: true, parent: { full_name: 'someone/mcp-server-code-runner', default_branch: 'main' } },
    serve: { [FORK_COMPARE]: { fixture: 'github/compare/pygithub-v0.6-v0.7.json' } },
    ...BASE,
    checks: { 'commit-activity': ['fork-own-commits', 10], contributors: ['unlinked', null] },
    target: { fork: { parent: 'someone/mcp-server-code-runner', check: 'github:someone/mcp-server-code-runner', own: { status: 'ahead', aheadBy: 4, behindBy: 0, lastCommitAt: '2012-05-25T17:14:34.000Z' } } },
    shows: ['4 commits of its own', 'nerq check github:someone/mcp-server-code-runner'],
  },
  {
    name: 'a fork identical to its parent: no commits of its own, unknown as before',
    repo: CODE_RUNNER,
    repoEdit: { fork: true, parent: { full_name: 'someone/mcp-server-code-runner', default_branch: 'main' } },
    serve: { [FORK_COMPARE]: { body: { ...COMPARED, status: 'identical', ahead_by: 0, behind_by: 0, total_commits: 0, commits: [] } } },
    ...BASE,
    checks: { 'commit-activity': ['fork-no-own-commits', null] },
    target: { fork: { parent: 'someone/mcp-server-code-runner', check: 'github:someone/mcp-server-code-runner', own: { status: 'identical', aheadBy: 0, behindBy: 0, lastCommitAt: null } } },
    shows: ['no commits of its own'],
  },
  {
    name: 'a fork whose comparison GitHub answers 404: the copied facts, unknown as before',
    repo: CODE_RUNNER,
    repoEdit: { fork: true, parent: { full_name: 'someone/mcp-server-code-runner', default_branch: 'main' } },
    serve: { [FORK_COMPARE]: { status: 404, body: { message: 'Not Found' } } },
    ...BASE,
    checks: { 'commit-activity': ['fork-copied', null] },
    target: { fork: { parent: 'someone/mcp-server-code-runner', check: 'github:someone/mcp-server-code-runner' } },
  },
  {
    name: 'a fork whose comparison answer does not add up: the copied facts, unknown as before',
    repo: CODE_RUNNER,
    repoEdit: { fork: true, parent: { full_name: 'someone/mcp-server-code-runner', default_branch: 'main' } },
    serve: { [FORK_COMPARE]: { body: { ...COMPARED, status: 'identical' } } },
    ...BASE,
    checks: { 'commit-activity': ['fork-copied', null] },
    target: { fork: { parent: 'someone/mcp-server-code-runner', check: 'github:someone/mcp-server-code-runner' } },
  },
  {
    name: 'with a token: a fork compared with its parent (the branch from GraphQL, the comparison over REST)',
    token: true,
    repo: CODE_RUNNER,
    nodeEdit: { isFork: true, parent: { nameWithOwner: 'someone/mcp-server-code-runner', defaultBranchRef: { name: 'main' } } },
    serve: { [FORK_COMPARE]: { body: { ...COMPARED, status: 'diverged', behind_by: 3 } } },
    ...BASE,
    checks: { 'commit-activity': ['fork-own-commits', 10] },
    target: { fork: { parent: 'someone/mcp-server-code-runner', check: 'github:someone/mcp-server-code-runner', own: { status: 'diverged', aheadBy: 4, behindBy: 3, lastCommitAt: '2012-05-25T17:14:34.000Z' } } },
  },
  {
    name: 'a fork whose parent GitHub does not name',
    repo: CODE_RUNNER,
    repoEdit: { fork: true },
    ...BASE,
    checks: { 'commit-activity': ['fork-copied', null] },
    target: { fork: { parent: null, check: null } },
    shows: ['fork of a repository GitHub does not name'],
  },
  {
    name: 'with a token: a fork',
    token: true,
    repo: CODE_RUNNER,
    nodeEdit: { isFork: true, parent: { nameWithOwner: 'someone/mcp-server-code-runner' } },
    ...BASE,
    checks: { readme: 'good', 'commit-activity': ['fork-copied', null] },
    target: { fork: { parent: 'someone/mcp-server-code-runner', check: 'github:someone/mcp-server-code-runner' } },
  },
  { name: 'with a token: no fork', token: true, repo: CODE_RUNNER, ...BASE, checks: { 'commit-activity': 'active' }, target: { fork: undefined } },
  { name: 'archived', repo: CODE_RUNNER, repoEdit: { archived: true }, ...BASE, checks: { 'repository-archived': ['archived', 0] } },
  { name: 'disabled', repo: CODE_RUNNER, repoEdit: { disabled: true }, ...BASE, checks: { 'repository-archived': ['disabled', 0] } },
  { name: 'no topics and license null', repo: CODE_RUNNER, answer: { license: null, omit: ['topics'] }, ...BASE, checks: { 'license-consistency': ['repository-none', 40], 'license-file': 'consistent' } },
  { name: 'a licence GitHub reports as NOASSERTION', repo: CODE_RUNNER, repoEdit: { license: { key: 'other', name: 'Other', spdx_id: 'NOASSERTION' } }, ...BASE, checks: { 'license-consistency': ['repository-unrecognised', null], 'license-file': 'consistent' } },
  // Clock skew: a creation date after now is no age; the first commit's date is.
  { name: 'created_at in the future', repo: CODE_RUNNER, repoEdit: { created_at: '2030-01-01T00:00:00Z' }, ...BASE, checks: { 'project-maturity': ['too-young', 20] } },
  {
    name: '400 workflow files',
    repo: CODE_RUNNER,
    tree: (t) => [
      ...moveTo('-', '-', '.github', '.github/workflows')(t),
      ...Array.from({ length: 400 }, (_, i) => ({ path: `.github/workflows/w${i}.yml`, mode: '100644', type: 'blob', sha: `${i}`.padStart(40, '0'), size: 90 })),
    ],
    files: Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`.github/workflows/w${i}.yml`, 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n'])),
    ...BASE,
    checks: { 'workflow-safety': ['partly-read', null] },
    known: [...DEPENDENCIES_KNOWN, ...DOCUMENTS_KNOWN],
  },
];

let server: FixtureServer;
beforeAll(() => requireBuiltCli());
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  expectNoUnexpected(server);
  await server.close();
});

/** Serves a renamed repository's routes under its new name from the recorded ones (GitHub's 301 then names it so). */
function serveRenamed(from: string, to: string, answer: RepoAnswerOptions): Record<string, FixtureResponse> {
  const [owner = '', name = ''] = to.split('/');
  server.expect('GET', '/github/repositories/1045', { body: { ...repoAnswer(from, answer), full_name: to, name, owner: { login: owner }, html_url: `https://github.com/${to}` } });
  server.routePrefix('GET', `/github/repos/${to}/`, async (req, res, { url }) => {
    const answerFor = await fetch(`${server.origin}${url.pathname.replace(`/repos/${to}/`, `/repos/${from}/`)}${url.search}`, { headers: { accept: req.headers.accept ?? '*/*' } });
    const link = answerFor.headers.get('link');
    res.writeHead(answerFor.status, { 'content-type': answerFor.headers.get('content-type') ?? 'application/json', ...(link === null ? {} : { link }) });
    res.end(Buffer.from(await answerFor.arrayBuffer()));
  });
  const moved = `${server.origin}/github/repositories/1045`;
  return { '': { status: 301, headers: { location: moved }, body: { message: 'Moved Permanently', url: moved } } };
}

function serveVariant(v: Variant): void {
  const record = recordOf(v.repo);
  const answer = v.answer ?? { license: 'MIT' };
  const override: Record<string, FixtureResponse> = { ...v.override, ...(v.renamedTo === undefined ? {} : serveRenamed(v.repo, v.renamedTo, answer)) };
  if (v.repoEdit !== undefined) override[''] = { body: { ...repoAnswer(v.repo, answer), ...v.repoEdit } };
  if (v.tree !== undefined) {
    const tree = recordedTree(v.repo);
    override[`/git/trees/${record.defaultBranch}`] = { body: JSON.stringify({ ...tree, tree: v.tree(tree.tree) }) };
  }
  for (const [file, text] of Object.entries(v.files ?? {})) override[`/contents/${file}`] = typeof text === 'string' ? { body: text } : text;
  serveRecordedRepo(server, v.repo, { ...answer, override });
  if (v.token === true) {
    const blob = (text: FixtureResponse | string) =>
      typeof text === 'string' ? { byteSize: Buffer.byteLength(text), text, isTruncated: false, isBinary: false } : { byteSize: (text.body as Buffer).length, text: null, isTruncated: false, isBinary: true };
    serveRecordedGraphql(server, v.repo, { license: answer.license, ...(v.nodeEdit === undefined ? {} : { nodeEdit: v.nodeEdit }), blobs: Object.fromEntries(Object.entries(v.files ?? {}).map(([file, text]) => [file, blob(text)])) });
  }
  for (const [route, response] of Object.entries(v.serve ?? {})) server.expect('GET', route, response);
  servePublished(server, PUBLISHED_HERE[v.repo] ?? {});
  // Workflows without a token come from raw file hosting at the listed commit: the variants' own are there.
  server.routePrefix('GET', '/github-raw/', (_req, res, { url }) => {
    const file = decodeURIComponent(url.pathname).split('/').slice(5).join('/');
    const text = v.files?.[file];
    res.writeHead(typeof text === 'string' ? 200 : 404, { 'content-type': 'text/plain' });
    res.end(typeof text === 'string' ? text : 'Not Found');
  });
}

describe('odd repositories: `nerq check github:… --json` against variants of recorded ones', () => {
  for (const v of VARIANTS) {
    it(v.name, async () => {
      serveVariant(v);
      const at = new Date(new Date(recordOf(v.repo).recordedCommit.committerDate).getTime() + 86_400_000);
      const result = await runCli(['check', `github:${v.repo}`, '--json'], { server, env: { NERQ_NOW: at.toISOString(), ...(v.token === true ? { GITHUB_TOKEN: TOKEN } : {}) } });
      if (v.token === true) expect(server.requests.some((r) => r.method === 'POST' && r.body.includes('NerqFiles'))).toBe(true);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      const report = JSON.parse(result.stdout) as Report;
      expect(schemaViolations(report)).toEqual([]);
      expect({ exit: result.code, verdict: report.verdictCode }).toEqual({ exit: v.exit, verdict: v.verdict });
      const found = (id: string) => report.checks.find((c) => c.id === id);
      for (const [id, expected] of Object.entries(v.checks)) {
        const [messageId, score] = typeof expected === 'string' ? [expected, undefined] : expected;
        expect(found(id)?.messageId, id).toBe(messageId);
        if (score !== undefined) expect(found(id)?.score, id).toBe(score);
      }
      for (const id of v.known ?? []) expect(found(id)?.score ?? null, id).not.toBeNull();
      for (const id of v.absent ?? []) expect(found(id), id).toBeUndefined();
      // An unknown check is never scored: no odd part is counted as good.
      for (const check of report.checks) if (check.status === 'unknown') expect(check.score, check.id).toBeNull();
      for (const [id, code] of Object.entries(v.sourceCodes ?? {})) expect(report.sources.find((x) => x.id === id)?.code, id).toBe(code);
      for (const [key, value] of Object.entries(v.target ?? {})) expect(report.target[key as keyof Report['target']], key).toEqual(value);
      if (v.shows !== undefined) {
        const env = { NERQ_NOW: at.toISOString(), ...(v.token === true ? { GITHUB_TOKEN: TOKEN } : {}) };
        const markdown = await runCli(['check', `github:${v.repo}`, '--format', 'markdown'], { server, env });
        const table = await runCli(['check', `github:${v.repo}`, '--no-color'], { server, env });
        for (const text of v.shows) {
          expect(markdown.stdout, `markdown: ${text}`).toContain(text);
          expect(table.stdout.replace(/\s+/g, ' '), `terminal: ${text}`).toContain(text);
        }
      }
    });
  }
});
