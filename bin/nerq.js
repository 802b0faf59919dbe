#!/usr/bin/env node
// Thin shim: refuse unsupported Node versions with one clear line, then run the bundled CLI.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 22)) {
  process.stderr.write(`nerq: Node.js ${process.versions.node} is not supported; use Node 24 LTS (22.22 or later)\n`);
  process.exit(2);
}
await import('../dist/cli.js');
