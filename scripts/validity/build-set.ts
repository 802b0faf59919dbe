/**
 * Builds the validity set from npm/arborist's registry fixtures: full packuments that npm's
 * own tests recorded from the public registry with `pacote.packument(name, { fullMetadata })`
 * (test/fixtures/registry-mocks/content/<name>.json). Each is judged as of the day it was
 * recorded: the author date of the commit that last wrote the file, or its commit date when the
 * packument's `time.modified` is later than the author date (an amended commit); a packument
 * modified after both is left out. Writes fixtures/validity/index.json and packuments.jsonl.br.
 *
 *   node --import ./bench/register.ts scripts/validity/build-set.ts --git-dir <npm/arborist .git> [--commit <sha>]
 *
 * Reads the repository with git only; it runs nothing of it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import { groupFacts, groupOf } from './groups.js';
import { INDEX_FILE, PACKUMENTS_FILE, SET_DIR, type SetEntry, type SetIndex } from './set.js';
import { trimPackument, withRegistryPlaceholder } from './trim.js';

const REPOSITORY = 'npm/arborist';
const CONTENT = 'test/fixtures/registry-mocks/content/';

const { values } = parseArgs({ options: { 'git-dir': { type: 'string' }, commit: { type: 'string', default: 'HEAD' } } });
const gitDir = values['git-dir'];
if (gitDir === undefined) {
  console.error('usage: build-set.ts --git-dir <npm/arborist git directory> [--commit <sha>]');
  process.exit(2);
}
const git = (args: string[]): string =>
  execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
const commit = git(['rev-parse', values.commit ?? 'HEAD']).trim();

// The commit that last wrote each fixture file, newest first (renames off: they need blob contents).
interface Recording {
  commit: string;
  authored: string;
  committed: string;
}
const recorded = new Map<string, Recording>();
let current: Recording | null = null;
for (const line of git(['log', '--no-renames', '--diff-filter=AM', '--format=C %H %aI %cI', '--name-only', commit, '--', CONTENT]).split('\n')) {
  if (line.startsWith('C ')) {
    const [, sha, authored, committed] = line.split(' ');
    const iso = (date: string | undefined) => new Date(date as string).toISOString();
    current = { commit: sha as string, authored: iso(authored), committed: iso(committed) };
  } else if (line !== '' && current !== null && !recorded.has(line)) {
    recorded.set(line, current);
  }
}

const packages: SetEntry[] = [];
const lines: string[] = [];
const excluded: SetIndex['excluded'] = [];
const files = git(['ls-tree', '-r', commit, CONTENT])
  .split('\n')
  .filter((line) => line.endsWith('.json') && !line.endsWith('.min.json'))
  .map((line) => {
    const [meta, path] = line.split('\t') as [string, string];
    return { blob: meta.split(' ')[2] as string, path };
  })
  .sort((a, b) => (a.path < b.path ? -1 : 1));

// Every blob in one `git cat-file --batch`: "<sha> blob <size>\n<bytes>\n", or "<sha> missing\n".
const batch = execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch'], {
  input: files.map((f) => f.blob).join('\n') + '\n',
  maxBuffer: 1 << 30,
});
const blobs = new Map<string, string>();
for (let at = 0; at < batch.length; ) {
  const eol = batch.indexOf(10, at);
  const [sha, type, size] = batch.subarray(at, eol).toString('utf8').split(' ');
  at = eol + 1;
  if (type !== 'blob') continue;
  const length = Number(size);
  blobs.set(sha as string, batch.subarray(at, at + length).toString('utf8'));
  at += length + 1;
}

for (const { blob, path } of files) {
  const text = blobs.get(blob);
  if (text === undefined) {
    excluded.push({ path: path.slice(CONTENT.length), reason: 'blob absent from the snapshot (files of 4 MiB and more are not kept)' });
    continue;
  }
  const when = recorded.get(path);
  const relative = path.slice(CONTENT.length);
  if (when === undefined) {
    excluded.push({ path: path.slice(CONTENT.length), reason: 'no commit writes it' });
    continue;
  }
  const packument = JSON.parse(text) as Record<string, unknown>;
  // Recorded when the commit was authored; when the packument was modified after that (the
  // commit was amended or rebased after a fresh fetch), when it was committed.
  const modifiedText = (packument.time as Record<string, unknown> | undefined)?.modified;
  const modified = typeof modifiedText === 'string' ? Date.parse(modifiedText) : Number.NaN;
  const date = !(modified > Date.parse(when.authored)) ? when.authored : when.committed;
  if (modified > Date.parse(date)) {
    excluded.push({ path: path.slice(CONTENT.length), reason: '`time.modified` is later than the recording commit' });
    continue;
  }
  const recordedAt = new Date(date);
  const facts = groupFacts(packument, recordedAt);
  if (facts === null) {
    excluded.push({ path: path.slice(CONTENT.length), reason: 'no dated `latest` version to judge' });
    continue;
  }
  packages.push({
    name: String(packument.name),
    version: facts.latest,
    recordedAt: date,
    group: groupOf(facts),
    path: relative,
    commit: when.commit,
    blob,
  });
  lines.push(withRegistryPlaceholder(JSON.stringify(trimPackument(packument))));
}

const index: SetIndex = {
  description:
    'Full npm packuments recorded from the public registry by npm/arborist\'s tests, each judged at its recording date (the commit that last wrote the file). Built by scripts/validity/build-set.ts; read by `npm run validity`.',
  source: { repository: REPOSITORY, commit, directory: CONTENT, licence: 'ISC (npm/arborist); package metadata as published by each package\'s authors' },
  packages,
  excluded,
};
mkdirSync(SET_DIR, { recursive: true });
writeFileSync(INDEX_FILE, formatIndex(index));
const body = zlib.brotliCompressSync(Buffer.from(`${lines.join('\n')}\n`), {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_LGWIN]: 24 },
});
writeFileSync(PACKUMENTS_FILE, body);
const counts: Record<string, number> = {};
for (const p of packages) counts[p.group] = (counts[p.group] ?? 0) + 1;
console.log(`${packages.length} packuments (${excluded.length} excluded), ${body.length} bytes compressed`, counts);

/** The index with one package (one exclusion) a line, so that a change reads as a short diff. */
function formatIndex(value: SetIndex): string {
  const rows = (items: readonly unknown[]) => items.map((item) => `    ${JSON.stringify(item)}`).join(',\n');
  return [
    '{',
    `  "description": ${JSON.stringify(value.description)},`,
    `  "source": ${JSON.stringify(value.source)},`,
    '  "packages": [',
    rows(value.packages),
    '  ],',
    '  "excluded": [',
    rows(value.excluded),
    '  ]',
    '}',
    '',
  ].join('\n');
}
