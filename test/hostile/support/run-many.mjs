// Runs the CLI module named by argv[2] once per command line read from stdin (a JSON array of
// argument arrays), all in this process: each run imports the module afresh (a distinct URL
// makes ESM evaluate it again, so its top-level `main(process.argv)` runs with the new
// arguments) while the chunks it loads stay cached — milliseconds per run instead of a whole
// start-up. stdout and stderr are captured per run; the exit code is the `process.exitCode`
// the run leaves. Results go to fd 3 as JSON: [{ code, stdout, stderr, crash? }].
import { readFileSync, writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const cli = pathToFileURL(process.argv[2]).href;
const cases = JSON.parse(readFileSync(0, 'utf8'));
const write = { stdout: process.stdout.write.bind(process.stdout), stderr: process.stderr.write.bind(process.stderr) };
const results = [];

for (const [index, args] of cases.entries()) {
  const captured = { stdout: '', stderr: '' };
  process.stdout.write = (chunk) => ((captured.stdout += String(chunk)), true);
  process.stderr.write = (chunk) => ((captured.stderr += String(chunk)), true);
  process.argv = [process.argv[0], process.argv[1], ...args];
  process.exitCode = undefined;
  let crash;
  try {
    await import(`${cli}?run=${index}`);
  } catch (error) {
    crash = String(error?.stack ?? error);
  }
  process.stdout.write = write.stdout;
  process.stderr.write = write.stderr;
  results.push({ code: typeof process.exitCode === 'number' ? process.exitCode : 0, ...captured, ...(crash === undefined ? {} : { crash }) });
}
process.exitCode = 0;
writeSync(3, JSON.stringify(results));
