/**
 * The entry points a package.json names, looked up in an archive's files as Node, npm and
 * TypeScript resolve them (src/checks/lib/entry-points.ts; docs/checks.md, `entry-points`).
 */
import { describe, expect, it } from 'vitest';
import { fileLookup, MAX_ENTRY_TARGETS, missingEntryPoints, PATTERN_WORK } from '../../../src/checks/lib/entry-points.js';

const missing = (manifest: Record<string, unknown>, files: string[]) => missingEntryPoints(manifest, fileLookup(files)).missing.map((m) => [m.field, m.key, m.target, m.primary]);

describe('main', () => {
  it('resolves as Node does: the file, with .js/.json/.node added, a folder index, then the package index', () => {
    expect(missing({ main: 'lib/a' }, ['lib/a.js'])).toEqual([]);
    expect(missing({ main: './lib/a' }, ['lib/a.node'])).toEqual([]);
    expect(missing({ main: 'lib' }, ['lib/index.json'])).toEqual([]);
    expect(missing({ main: 'gone.js' }, ['index.js'])).toEqual([]);
    expect(missing({ main: 'index.js' }, ['package.json', 'Readme.md'])).toEqual([['main', '', 'index.js', true]]);
  });

  it('no `main` is no defect (a types-only, CLI or CSS package), nor is a `main` Node ignores beside `exports`', () => {
    expect(missingEntryPoints({}, fileLookup(['style.css'])).declared).toBe(0);
    expect(missing({ main: 'build/index.mjs', exports: './dist/index.js' }, ['dist/index.js'])).toEqual([]);
    expect(missing({ main: 'gone.js', exports: null }, [])).toEqual([['main', '', 'gone.js', true]]);
  });

  it('a file in another case is missing (Linux file systems tell case apart)', () => {
    expect(missing({ main: 'lib/index.js' }, ['lib/Index.js'])).toEqual([['main', '', 'lib/index.js', true]]);
  });

  it('a target outside the package is not looked up', () => {
    expect(missingEntryPoints({ main: '../x.js', bin: { a: '/usr/bin/env' } }, fileLookup([])).declared).toBe(0);
  });
});

describe('bin', () => {
  it('a string names one command after the package; a map names each; the exact file must be there', () => {
    expect(missing({ name: '@s/tool', bin: './cli.js' }, [])).toEqual([['bin', 'tool', './cli.js', true]]);
    expect(missing({ bin: { a: 'bin/a.js', b: 'bin/b' } }, ['bin/a.js', 'bin/b.js'])).toEqual([['bin', 'b', 'bin/b', true]]);
  });

  it('a package whose commands are all there is run: a missing `main` or `.` export is listed, not primary', () => {
    expect(missing({ main: 'index.js', bin: { tool: 'cli.js' } }, ['cli.js'])).toEqual([['main', '', 'index.js', false]]);
    expect(missing({ bin: 'build/index.js', exports: { default: './build/types.js' } }, ['build/index.js'])).toEqual([['exports', '. default', './build/types.js', false]]);
    // A command missing too: the release is broken, everything the package needs counts.
    expect(missing({ main: 'index.js', bin: { a: 'a.js', b: 'b.js' } }, ['a.js'])).toEqual([
      ['main', '', 'index.js', true],
      ['bin', 'b', 'b.js', true],
    ]);
  });
});

describe('types', () => {
  it('with .d.ts added or in place of .js, or a folder index; missing is not primary', () => {
    expect(missing({ types: 'index' }, ['index.d.ts'])).toEqual([]);
    expect(missing({ typings: './lib/a.js' }, ['lib/a.d.ts'])).toEqual([]);
    expect(missing({ types: 'lib/a.mjs' }, ['lib/a.d.mts'])).toEqual([]);
    expect(missing({ types: 'index.d.ts' }, ['dist/types/index.d.ts'])).toEqual([['types', '', 'index.d.ts', false]]);
  });
});

describe('exports', () => {
  it('sugar and the "." entry under Node conditions are primary; subpaths and types are not', () => {
    expect(missing({ exports: './gone.js' }, [])).toEqual([['exports', '.', './gone.js', true]]);
    expect(missing({ exports: { '.': { types: './t.d.ts', import: './a.mjs', require: './a.cjs' }, './sub': './sub.js' } }, ['a.mjs'])).toEqual([
      ['types', '. types', './t.d.ts', false],
      ['exports', '. require', './a.cjs', true],
      ['exports', './sub', './sub.js', false],
    ]);
    expect(missing({ exports: { '.': { import: { types: './t.d.mts', default: './a.mjs' } } } }, ['a.mjs'])).toEqual([['types', '. import types', './t.d.mts', false]]);
  });

  it('patterns and folder mappings resolve when some file matches; `null` excludes a subpath', () => {
    expect(missing({ exports: { './lib/*': './dist/lib/*.js', './x/': './dist/x/', './internal/*': null } }, ['dist/lib/a.js', 'dist/x/y.js'])).toEqual([]);
    expect(missing({ exports: { './lib/*': './dist/lib/*.js' } }, ['dist/lib/a.ts', 'dist/other/a.js'])).toEqual([['exports', './lib/*', './dist/lib/*.js', false]]);
    expect(missing({ exports: { './*': './*' } }, ['a.js'])).toEqual([]);
  });

  it("conditions nerq does not resolve (a monorepo's own source, a bundler's) are not looked up", () => {
    const manifest = { exports: { '.': { source: './src/index.ts', input: './src/index.ts', '@nx/nx-source': './index.ts', 'jsnext:source': './src/index.ts', browser: './b.js', default: './a.js' } } };
    expect(missingEntryPoints(manifest, fileLookup(['a.js']))).toEqual({ declared: 1, missing: [] });
  });

  it('Node takes the first condition that matches: one after `node` or `default`, or after a settled `import`/`require`, is never read', () => {
    // figlet 1.12.0's `.`: `require` after `node` names a dist/figlet.js it does not ship.
    const figlet = { exports: { '.': { browser: { require: './b.cjs' }, node: { import: './n.mjs', require: './n.cjs' }, import: './f.mjs', require: './gone.js' } } };
    expect(missing(figlet, ['n.mjs', 'n.cjs', 'f.mjs'])).toEqual([]);
    expect(missing({ exports: { '.': { default: './a.js', require: './gone.cjs' } } }, ['a.js'])).toEqual([]);
    expect(missing({ exports: { '.': { import: './a.mjs', node: './gone.cjs' } } }, ['a.mjs'])).toEqual([['exports', '. node', './gone.cjs', true]]);
    // A `node` branch that settles one resolution only leaves the other to the conditions after it.
    expect(missing({ exports: { '.': { node: { import: './a.mjs' }, require: './gone.cjs' } } }, ['a.mjs'])).toEqual([['exports', '. require', './gone.cjs', true]]);
    // `module-sync` matches on some Node versions only: the conditions after it are read too.
    expect(missing({ exports: { '.': { 'module-sync': './a.mjs', default: './gone.js' } } }, ['a.mjs'])).toEqual([['exports', '. default', './gone.js', true]]);
  });

  it("an `@types/` package's exports are type entries: a `.js` target resolves to its declaration, none is primary", () => {
    const manifest = { name: '@types/three', exports: { '.': { import: './build/three.module.js', require: './build/three.cjs' }, './addons/*': './examples/jsm/*.js', './gone': './gone.js' } };
    expect(missing(manifest, ['build/three.module.d.ts', 'build/three.d.cts', 'examples/jsm/Addons.d.ts'])).toEqual([['types', './gone', './gone.js', false]]);
    expect(missing({ name: 'three', exports: { '.': { import: './build/three.module.js' } } }, ['build/three.module.d.ts'])).toEqual([['exports', '. import', './build/three.module.js', true]]);
  });

  it('an array of fallbacks resolves when one of them does', () => {
    expect(missing({ exports: { '.': ['./gone.js', './a.js'] } }, ['a.js'])).toEqual([]);
    expect(missing({ exports: { '.': ['./gone.js', './also.js'] } }, [])).toEqual([['exports', '.', './gone.js', true]]);
  });

  it('looks up at most MAX_ENTRY_TARGETS targets', () => {
    const exports = Object.fromEntries(Array.from({ length: MAX_ENTRY_TARGETS * 4 }, (_, i) => [`./s${i}`, `./s${i}.js`]));
    expect(missingEntryPoints({ exports }, fileLookup([])).declared).toBe(MAX_ENTRY_TARGETS);
  });
});

describe('fileLookup', () => {
  it('past the walking budget, counted in characters compared, a pattern is taken as matched (work not done is never a finding)', () => {
    const files = Array.from({ length: 1000 }, (_, i) => `f${i}.js`);
    const lookup = fileLookup(files);
    // Each path walked costs 1 + the suffix's 5 characters.
    for (let i = 0; i < Math.floor(PATTERN_WORK / (1000 * 6)); i++) expect(lookup.matches('', '.none')).toBe(false);
    expect(lookup.matches('', '.none')).toBe(true);
  });
});
