/** Word lists the synthetic package, owner and organisation names are built from. */

export const NAME_WORDS = [
  'fast', 'tiny', 'simple', 'json', 'yaml', 'http', 'url', 'path', 'glob', 'stream', 'buffer', 'async',
  'promise', 'event', 'emitter', 'cache', 'store', 'state', 'query', 'parse', 'format', 'string', 'color',
  'chalk', 'log', 'debug', 'trace', 'test', 'mock', 'spy', 'assert', 'deep', 'equal', 'merge', 'clone',
  'object', 'array', 'map', 'set', 'queue', 'retry', 'limit', 'rate', 'throttle', 'debounce', 'timer',
  'date', 'time', 'uuid', 'hash', 'crypto', 'base64', 'hex', 'bytes', 'size', 'semver', 'config', 'env',
  'dotenv', 'cli', 'args', 'prompt', 'spinner', 'progress', 'table', 'markdown', 'html', 'css', 'svg',
  'image', 'file', 'fs', 'watch', 'walk', 'tree', 'graph', 'node', 'react', 'vue', 'svelte', 'router',
  'server', 'client', 'socket', 'proxy', 'agent', 'fetch', 'request', 'cookie', 'session', 'auth', 'token',
  'jwt', 'schema', 'validate', 'types', 'typed', 'lint', 'plugin', 'loader', 'bundle', 'build', 'compile',
  'minify', 'transform', 'babel', 'postcss', 'webpack', 'rollup', 'vite', 'esm', 'cjs', 'shim', 'polyfill',
  'utils', 'helpers', 'core', 'kit', 'lite', 'plus', 'pro', 'next', 'micro', 'mini', 'super', 'safe',
] as const;

export const ORG_WORDS = [
  'acme', 'nimbus', 'corvid', 'lumen', 'quartz', 'tessel', 'orbit', 'cinder', 'harbor', 'fathom', 'ember',
  'vertex', 'delta', 'prism', 'kestrel', 'juniper', 'sable', 'atlas', 'nova', 'zephyr',
] as const;

export const PERSON_WORDS = [
  'alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'mallory', 'niaj',
  'olivia', 'peggy', 'rupert', 'sybil', 'trent', 'victor', 'walter', 'yuki', 'zara', 'omar', 'lena', 'tariq',
] as const;

export const LICENSES = ['MIT', 'MIT', 'MIT', 'MIT', 'ISC', 'ISC', 'Apache-2.0', 'Apache-2.0', 'BSD-3-Clause', 'BSD-2-Clause', 'MPL-2.0', '0BSD'] as const;

export const TOPICS = ['javascript', 'nodejs', 'typescript', 'cli', 'http', 'parser', 'utility', 'testing', 'react', 'build-tool', 'security', 'json'] as const;

export const DEV_DEPENDENCIES = [
  'typescript', 'eslint', 'prettier', 'vitest', 'mocha', 'jest', 'tap', 'c8', 'nyc', 'tsup', 'rollup', 'esbuild',
  '@types/node', 'ts-node', 'xo', 'ava', 'sinon', 'chai', 'husky', 'lint-staged', 'standard', 'tsd',
] as const;
