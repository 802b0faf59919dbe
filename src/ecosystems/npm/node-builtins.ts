/**
 * The names of Node's built-in modules that a bare `require(name)` or `import` loads without the
 * `node:` prefix, as npm package names (top level only: `fs/promises` is no package name, and
 * npm names never start with `_`). Node resolves such a name to its built-in before it looks in
 * node_modules, so a package published under one of them is never what Node loads: it is read by
 * a bundler (a browser stand-in: `buffer`, `events`, `util`) or not at all (npm's placeholders
 * `crypto`, `child_process`). Node's `module.builtinModules` (Node 24), less the `node:`-only
 * modules (`node:test`, `node:sqlite`, `node:sea`), whose bare names are ordinary packages;
 * test/ecosystems/node-builtins.test.ts compares the list with the running Node's.
 */
export const NODE_BUILTIN_NAMES: ReadonlySet<string> = new Set([
  'assert', 'async_hooks', 'buffer', 'child_process', 'cluster', 'console', 'constants', 'crypto', 'dgram',
  'diagnostics_channel', 'dns', 'domain', 'events', 'fs', 'http', 'http2', 'https', 'inspector', 'module', 'net',
  'os', 'path', 'perf_hooks', 'process', 'punycode', 'querystring', 'readline', 'repl', 'stream', 'string_decoder',
  'sys', 'timers', 'tls', 'trace_events', 'tty', 'url', 'util', 'v8', 'vm', 'wasi', 'worker_threads', 'zlib',
]);

/** Whether `name` (an npm package name) is one Node loads its built-in for. */
export function isNodeBuiltinName(name: string): boolean {
  return NODE_BUILTIN_NAMES.has(name);
}
