/**
 * The check scaffold (`npm run new-check -- <id> <dimension>`, scripts/new-check.ts): what it
 * would write, and its refusals. (Run for real, its check typechecks and its table test passes:
 * docs/architecture.md, "Add a check".)
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { camelCase, dimensionsIn, listInIndex, planNewCheck, ScaffoldError } from '../../scripts/new-check.js';
import { DIMENSIONS } from '../../src/model/dimensions.js';

const ROOT = new URL('../../', import.meta.url);
const INDEX = readFileSync(new URL('src/checks/index.ts', ROOT), 'utf8');

describe('npm run new-check', () => {
  it('reads the dimensions from the one list', () => {
    expect(dimensionsIn(readFileSync(new URL('src/model/dimensions.ts', ROOT), 'utf8'))).toEqual([...DIMENSIONS]);
  });

  it('plans the check, its table test and its registry entry', () => {
    const plan = planNewCheck(ROOT, 'release-described', 'documentation');
    expect(plan.checkPath).toBe('src/checks/release-described.ts');
    expect(plan.testPath).toBe('test/checks/release-described.test.ts');
    expect(plan.checkSource).toContain("id: 'release-described'");
    expect(plan.checkSource).toContain("dimension: 'documentation'");
    expect(plan.testSource).toContain("import check from '../../src/checks/release-described.js';");
    const added = plan.indexSource.split('\n').filter((line) => !INDEX.split('\n').includes(line));
    expect(added).toEqual(["import releaseDescribed from './release-described.js';", '  releaseDescribed,']);
  });

  it('imports in order and lists the check at the end of its dimension', () => {
    const index = ["import b from './b.js';", "import d from './d.js';", '', 'export const CHECKS = [', '  // security', '  b,', '  // maintenance', '  d,', '];'].join('\n');
    expect(listInIndex(index, 'c-x', 'security').split('\n')).toEqual([
      "import b from './b.js';", "import cX from './c-x.js';", "import d from './d.js';", '', 'export const CHECKS = [', '  // security', '  b,', '  cX,', '  // maintenance', '  d,', '];',
    ]);
    expect(listInIndex(index, 'z', 'maintenance').split('\n').slice(-3)).toEqual(['  d,', '  z,', '];']);
    expect(camelCase('a-b2-c')).toBe('aB2C');
  });

  it.each([
    [['typosquat', 'security'], 'src/checks/typosquat.ts exists already'],
    [['Bad_Id', 'security'], "invalid check id 'Bad_Id'"],
    [['new-one', 'speed'], "unknown dimension 'speed'"],
    [[undefined, undefined], 'usage: npm run new-check'],
  ] as const)('refuses %j', ([id, dimension], message) => {
    expect(() => planNewCheck(ROOT, id, dimension)).toThrow(ScaffoldError);
    expect(() => planNewCheck(ROOT, id, dimension)).toThrow(message);
  });

  it('says so in one line and exits 2, writing nothing', () => {
    const run = spawnSync(process.execPath, [fileURLToPath(new URL('scripts/new-check.ts', ROOT)), 'typosquat', 'security'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('new-check: src/checks/typosquat.ts exists already\n');
    expect(readFileSync(new URL('src/checks/index.ts', ROOT), 'utf8')).toBe(INDEX);
  });
});
