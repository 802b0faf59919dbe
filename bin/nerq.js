#!/usr/bin/env node
// Thin shim: refuse unsupported Node versions with one clear line, then run the bundled CLI.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 22)) {
  process.stderr.write(`nerq: Node.js ${process.versions.node} is not supported; use Node 24 LTS (22.22 or later)\n`);
  process.exit(2);
}
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  // `nerq --version` is run by every CI log and shell prompt: answer it without loading the CLI.
  const { readFileSync } = await import('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  // V8 code cache for the bundle (Node's own, in its default directory; NODE_DISABLE_COMPILE_CACHE=1
  // turns it off): a run after the first compiles nothing again.
  (await import('node:module')).enableCompileCache?.();
  await import('../dist/cli.js');
}
