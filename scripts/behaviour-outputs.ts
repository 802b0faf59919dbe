/**
 * Writes what nerq prints in the test suite to a directory, so two trees can be compared with
 * `diff -r`: a change meant to keep behaviour (a refactor) must leave the directory identical.
 *
 *   npm run behaviour-outputs -- <out-dir> [vitest file filters…]
 *
 * Builds the CLI, then runs every test file that runs the CLI (those calling `runCli` or
 * `runCliWithin`) with NERQ_RECORD_OUTPUTS=<out-dir>: test/support/run-cli.ts appends each run —
 * its arguments, exit code, stdout and stderr, and for `--save-evidence` the evidence written and
 * the `nerq score --json` report of it — to `<out-dir>/<test file>.txt`, ports and temporary paths
 * replaced by placeholders. That covers the fixture reports in every format, the saved evidence
 * re-scored and the audit reports of the test suite. The in-process renderer tests compare with
 * their checked-in snapshots on their own.
 *
 * The test run's own result is printed but does not decide the exit code: a failing test still
 * records what the CLI printed. Compare two trees with:
 *
 *   npm run behaviour-outputs -- ../before   # in the tree before the change
 *   npm run behaviour-outputs -- ../after    # in the tree after it
 *   diff -r ../before ../after
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function testFilesRunningTheCli(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      // The hostile suite runs generated inputs under its own harness; its bounds are its own tests.
      if (name !== 'hostile' && name !== 'live') out.push(...testFilesRunningTheCli(file));
    } else if (name.endsWith('.test.ts') && /\brunCli(Within)?\(/.test(readFileSync(file, 'utf8'))) {
      out.push(path.relative(ROOT, file));
    }
  }
  return out.sort();
}

const [outArg, ...filters] = process.argv.slice(2);
if (outArg === undefined) {
  process.stderr.write('usage: node scripts/behaviour-outputs.ts <out-dir> [vitest file filters…]\n');
  process.exit(2);
}
const out = path.resolve(outArg);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const files = filters.length > 0 ? filters : testFilesRunningTheCli(path.join(ROOT, 'test'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const build = spawnSync(npm, ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const run = spawnSync('npx', ['vitest', 'run', ...files], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, NERQ_RECORD_OUTPUTS: out },
});

/** Runs a test makes concurrently are recorded in completion order: sort each file's runs. */
const MARK = '#### nerq run:';
function sortRecords(dir: string): void {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) sortRecords(file);
    else {
      const records = readFileSync(file, 'utf8').split(`${MARK} `).filter((r) => r !== '');
      writeFileSync(file, records.sort().map((r) => `${MARK} ${r}`).join(''));
    }
  }
}
sortRecords(out);
process.stdout.write(`\nvitest exited ${String(run.status)}; ${String(files.length)} test files recorded into ${out}\n`);
