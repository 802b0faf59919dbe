/**
 * Scaffold for a new check (docs/architecture.md, "Add a check"):
 *
 *   npm run new-check -- <id> <dimension>
 *
 * writes src/checks/<id>.ts (a pure check with two messages to rewrite), its table test
 * test/checks/<id>.test.ts, and lists it in src/checks/index.ts (the import, and an entry at the
 * end of its dimension in CHECKS). Then write the check, and run `npm run generate` for
 * docs/checks.md. Bad input: a one-line error, exit 2, nothing written.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface NewCheckPlan {
  checkPath: string;
  checkSource: string;
  testPath: string;
  testSource: string;
  indexSource: string;
}

export class ScaffoldError extends Error {}

const ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** The dimensions, read from src/model/dimensions.ts (the one list). */
export function dimensionsIn(source: string): string[] {
  const list = /DIMENSIONS = \[([^\]]*)\]/.exec(source)?.[1] ?? '';
  return [...list.matchAll(/'([a-z-]+)'/g)].map((m) => m[1]!);
}

export function camelCase(id: string): string {
  return id.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function checkSourceOf(id: string, dimension: string): string {
  return `/**
 * ${id}: what the check reads and what it decides, in a sentence (docs/checks.md shows the description).
 */
import { defineCheck } from './define.js';

export default defineCheck({
  id: '${id}',
  dimension: '${dimension}',
  weight: 1,
  needs: ['release'],
  title: 'Describes itself',
  description: 'Reads the release description: present scores 100; unknown when the registry gives none. Rewrite: what is read, the score of each case, when it is unknown.',
  messages: {
    described: 'Described as {description}',
    unknown: 'No description to read',
  },
  evaluate: ({ release }) => {
    // Decide from the facts of \`needs\` (pure: no I/O, no clock) a score 0–100, or null when they do not say.
    if (release.description === null || release.description.trim() === '') {
      return { score: null, messageId: 'unknown', data: { description: null } };
    }
    return { score: 100, messageId: 'described', data: { description: release.description } };
  },
});
`;
}

function testSourceOf(id: string): string {
  return `import check from '../../src/checks/${id}.js';
import { evidence } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';

// One case per message at least (checkTable fails for a message no case reaches).
checkTable(check, [
  { name: 'described', evidence: evidence({ registry: { description: 'A parser' } }), score: 100, messageId: 'described', data: { description: 'A parser' } },
  { name: 'no description', evidence: evidence({ registry: { description: null } }), score: null, messageId: 'unknown' },
]);
`;
}

/** src/checks/index.ts with the check imported (in order) and listed at the end of its dimension. */
export function listInIndex(index: string, id: string, dimension: string): string {
  const name = camelCase(id);
  const lines = index.split('\n');
  const importLine = `import ${name} from './${id}.js';`;
  const imports = lines.flatMap((line, at) => (/^import [a-zA-Z]+ from '\.\/[a-z0-9-]+\.js';$/.test(line) ? [at] : []));
  if (imports.length === 0) throw new ScaffoldError('src/checks/index.ts: no check imports found');
  const before = imports.find((at) => lines[at]! > importLine);
  lines.splice(before ?? imports[imports.length - 1]! + 1, 0, importLine);
  const group = lines.indexOf(`  // ${dimension}`);
  if (group < 0) throw new ScaffoldError(`src/checks/index.ts: no "// ${dimension}" group in CHECKS`);
  let end = group + 1;
  while (end < lines.length && !lines[end]!.startsWith('  //') && !lines[end]!.startsWith(']')) end++;
  lines.splice(end, 0, `  ${name},`);
  return lines.join('\n');
}

/** What the scaffold writes for `id` in `dimension`, given the repository at `root`. */
export function planNewCheck(root: URL, id: string | undefined, dimension: string | undefined): NewCheckPlan {
  if (id === undefined || dimension === undefined) throw new ScaffoldError('usage: npm run new-check -- <id> <dimension>');
  if (!ID.test(id)) throw new ScaffoldError(`invalid check id '${id.slice(0, 60)}': lower-case words joined by '-'`);
  const dimensions = dimensionsIn(readFileSync(new URL('src/model/dimensions.ts', root), 'utf8'));
  if (!dimensions.includes(dimension)) throw new ScaffoldError(`unknown dimension '${dimension.slice(0, 60)}' (one of ${dimensions.join(', ')})`);
  const checkPath = `src/checks/${id}.ts`;
  const testPath = `test/checks/${id}.test.ts`;
  for (const path of [checkPath, testPath]) if (existsSync(new URL(path, root))) throw new ScaffoldError(`${path} exists already`);
  const index = readFileSync(new URL('src/checks/index.ts', root), 'utf8');
  if (new RegExp(`\\b${camelCase(id)}\\b`).test(index)) throw new ScaffoldError(`src/checks/index.ts already names ${camelCase(id)}`);
  return {
    checkPath,
    checkSource: checkSourceOf(id, dimension),
    testPath,
    testSource: testSourceOf(id),
    indexSource: listInIndex(index, id, dimension),
  };
}

function main(): void {
  const root = new URL('../', import.meta.url);
  try {
    const plan = planNewCheck(root, process.argv[2], process.argv[3]);
    writeFileSync(new URL(plan.checkPath, root), plan.checkSource);
    writeFileSync(new URL(plan.testPath, root), plan.testSource);
    writeFileSync(new URL('src/checks/index.ts', root), plan.indexSource);
    process.stdout.write(`wrote ${plan.checkPath} and ${plan.testPath}, listed it in src/checks/index.ts; write the check, then: npm run generate\n`);
  } catch (error) {
    if (!(error instanceof ScaffoldError)) throw error;
    process.stderr.write(`new-check: ${error.message}\n`);
    process.exitCode = 2;
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
