import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { declaredDeprecation, descriptionDeclaredDeprecation, readmeOpening } from '../../../src/checks/lib/readme-opening.js';

/** Openings shaped like real READMEs (the packages named are where each shape was seen). */
const declares: { name: string; pkg: string; readme: string; where: 'title' | 'subtitle' | 'first paragraph' }[] = [
  { name: 'a "Deprecated" title (path-is-absolute)', pkg: 'path-is-absolute', readme: '# Deprecated\n\nThis package is no longer relevant as Node.js 0.12 is unmaintained.\n\n---\n\n# path-is-absolute', where: 'title' },
  { name: 'a title with an exclamation mark (request)', pkg: 'request', readme: '# Deprecated!\n\nAs of Feb 11th 2020, request is fully deprecated.', where: 'title' },
  { name: 'a notice title (optimist)', pkg: 'optimist', readme: '# DEPRECATION NOTICE\n\nI don\'t want to maintain this module anymore.', where: 'title' },
  { name: 'an emoji-framed title (json3)', pkg: 'json3', readme: '# 🚨 Unmaintained 🚨\n\nJSON 3 is deprecated.', where: 'title' },
  { name: 'a status after the name in the title', pkg: 'left-pad', readme: 'left-pad (DEPRECATED)\n=====================\n\nString left pad.', where: 'title' },
  { name: 'a bold lead-in (os-tmpdir)', pkg: 'os-tmpdir', readme: "**Deprecated:** This is not needed anymore. `require('os').tmpdir()` is good.\n\n---\n\n# os-tmpdir", where: 'first paragraph' },
  { name: 'the package names itself (request)', pkg: 'request', readme: '# Request\n\nAs of Feb 11th 2020, request is fully deprecated. No new changes are expected.', where: 'first paragraph' },
  { name: '"this module is no longer maintained"', pkg: 'x', readme: '# x\n\n> This module is no longer maintained.\n\n## Install', where: 'first paragraph' },
  { name: '"this library has been replaced by"', pkg: 'x', readme: '# x\n\nThis library has been replaced by [y](https://example.test/y).', where: 'first paragraph' },
  { name: '"Use X instead." as its own sentence', pkg: 'os-homedir', readme: '# os-homedir\n\nNot needed. Use `require("os").homedir()` instead.', where: 'first paragraph' },
  { name: '"Moved to" at the start', pkg: 'x', readme: '# x\n\nMoved to @scope/x.', where: 'first paragraph' },
  { name: 'a warning lead-in', pkg: 'x', readme: '# x\n\n⚠️ Warning: unmaintained. Fork it if you need it.', where: 'first paragraph' },
  { name: 'a subtitle right under the title (vscode 1.1.37)', pkg: 'vscode', readme: '# vscode-extension-vscode\n\n## ⚠️ Deprecated, use @types/vscode and vscode-test instead ⚠️\n\nThis is the source code for the NPM [`vscode` module](https://www.npmjs.com/package/vscode).', where: 'subtitle' },
  { name: 'a setext subtitle', pkg: 'x', readme: 'x\n=\n\nNo longer maintained\n--------------------\n\nA helper.', where: 'subtitle' },
  { name: 'a DefinitelyTyped stub, no title (@types/node-fetch 3.0.2, recorded)', pkg: '@types/node-fetch', readme: "This is a stub types definition for @types/node-fetch (https://github.com/node-fetch/node-fetch).\n\nnode-fetch provides its own type definitions, so you don't need @types/node-fetch installed!\n", where: 'first paragraph' },
  { name: '"This package is a stub."', pkg: 'x', readme: '# x\n\nThis package is a stub. Install y.', where: 'first paragraph' },
  { name: 'a stub package "for" another', pkg: 'x', readme: '# x\n\nThis is a stub package for y, which ships its own.', where: 'first paragraph' },
  { name: '"This project has moved to y."', pkg: 'x', readme: '# x\n\nThis project has moved to y.', where: 'first paragraph' },
  { name: 'the package named as the one that moved', pkg: 'x', readme: '# x\n\nx has moved to y.', where: 'first paragraph' },
  { name: 'a bold moved notice to a scoped package', pkg: 'x', readme: '# x\n\n**This project has moved to @scope/x2.**', where: 'first paragraph' },
  { name: 'a moved notice to a URL', pkg: 'x', readme: '# x\n\nThis package has moved to https://example.test/y, please update.', where: 'first paragraph' },
  { name: 'a moved notice to a new home', pkg: 'x', readme: '# x\n\nThis library has moved to a new home at y.', where: 'first paragraph' },
  { name: 'a quoted Note block that says it moved', pkg: 'x', readme: '# x\n\n> **Note**\n> This package has moved to y.', where: 'first paragraph' },
  { name: '"will not receive further updates"', pkg: 'x', readme: '# x\n\nThis package will not receive further updates.', where: 'first paragraph' },
  { name: '"Use y instead;" before more of the sentence', pkg: 'x', readme: '# x\n\nPlease use y instead; this package will not receive updates.', where: 'first paragraph' },
  { name: '"use y instead;" alone', pkg: 'x', readme: '# x\n\nUse y instead; it is faster.', where: 'first paragraph' },
  { name: 'a moved title', pkg: 'x', readme: '# This project has moved to y\n\nSee y.', where: 'title' },
  { name: 'the npm package named in words moved (@sourcegraph/amp 0.0.1790142911-g7618fb)', pkg: '@sourcegraph/amp', readme: '# Amp CLI\n\nThe Amp CLI npm package has moved to [@ampcode/cli](https://www.npmjs.com/package/@ampcode/cli).\n\nInstall the new package directly when you can.', where: 'first paragraph' },
  { name: 'a future deprecation with a subtitle between (figgy-pudding)', pkg: 'figgy-pudding', readme: '# figgy-pudding\n\n## A config helper\n\n**This module will be deprecated once npm v7 is released.**', where: 'first paragraph' },
];

const declaresNothing: { name: string; pkg: string; readme: string }[] = [
  { name: 'an HTML opening, deprecation further down (got)', pkg: 'got', readme: '<div align="center">\n\t<br>\n\t<img src="media/logo.svg" alt="Got">\n</div>\n\n> Human-friendly and powerful HTTP request library for Node.js\n\n## Migrating from request\n\nrequest is deprecated; this package is not.' },
  { name: 'a plain opening (mime)', pkg: 'mime', readme: '# mime\n\nComprehensive MIME type mapping API based on mime-db module.\n\n## Version 2 Notes\n\n`lookup()` was deprecated, use `getType()` instead.' },
  { name: 'the function it ships (util-deprecate)', pkg: 'util-deprecate', readme: 'util-deprecate\n==============\n### The Node.js `util.deprecate()` function with browser support\n\nIn Node.js, this module simply re-exports the `util.deprecate()` function.' },
  { name: 'a package named after the word', pkg: 'deprecation', readme: '# deprecation\n\n> Log a deprecation message with stack' },
  { name: 'another module\'s deprecation (async-hook-domain)', pkg: 'async-hook-domain', readme: '# async-hook-domain\n\nAn implementation of the error-handling properties of the (deprecated) `domain` node core module.' },
  { name: 'deprecated platforms (isarray)', pkg: 'isarray', readme: '\n# isarray\n\n`Array#isArray` for older browsers and deprecated Node.js versions.' },
  { name: 'a tool about deprecation (depd)', pkg: 'depd', readme: '# depd\n\n[![NPM Version][npm-version-image]][npm-url]\n\nDeprecate all the things\n\n> With great modules comes great responsibility; mark things deprecated!' },
  { name: 'a conditional pointer elsewhere', pkg: 'opn', readme: '# open\n\n> Open stuff like URLs. If you need this for Electron, use `shell.openItem()` instead.' },
  { name: '"instead of"', pkg: 'hard-rejection', readme: '# hard-rejection\n\n> Make unhandled promise rejections fail hard right away instead of the default silent fail' },
  { name: 'a second paragraph (react-devtools-core)', pkg: 'react-devtools-core', readme: '# `react-devtools-core`\n\nA standalone React DevTools implementation.\n\nThis is a low-level package. Use `react-devtools` instead.' },
  { name: 'another package\'s status as the subject', pkg: 'opn', readme: '# open\n\nThe original `open` package was recently deprecated in favor of this package.' },
  { name: 'a subtitle naming the package or another status word as part of a word (util-deprecate shape)', pkg: 'deprecation', readme: '# x\n\n## deprecation helpers, undeprecated\n\nA helper.' },
  { name: 'a heading further down (a second section)', pkg: 'x', readme: '# x\n\nA helper.\n\n## Deprecated options\n\n`foo` is gone.' },
  { name: 'a library of test stubs', pkg: 'x', readme: '# x\n\nThis is a stub server for testing HTTP clients.' },
  { name: 'test doubles described', pkg: 'sinon', readme: '# Sinon.JS\n\nStandalone and test framework agnostic JavaScript test spies, stubs and mocks.' },
  { name: 'the docs moved, not the package', pkg: 'x', readme: '# x\n\nA helper. The docs have moved to a new site.' },
  { name: 'the documentation moved', pkg: 'x', readme: '# x\n\nDocumentation has moved to https://example.test/docs.' },
  { name: 'the package\'s docs moved', pkg: 'x', readme: '# x\n\nThis package\'s documentation has moved to https://example.test/docs.' },
  { name: 'the package moved to a module format', pkg: 'x', readme: '# x\n\nA helper. As of v3 this package has moved to ESM.' },
  { name: 'the package moved to a language', pkg: 'x', readme: '# x\n\nA helper. x has moved to TypeScript and ships its own types.' },
  { name: 'the package moved to promises in a version', pkg: 'x', readme: '# x\n\nA helper. It has moved to promises in v4 and dropped callbacks.' },
  { name: 'the repository moved, not the package', pkg: 'x', readme: '# x\n\nThis repository has moved to https://example.test/new-owner/x.' },
  { name: 'another npm package moved to ESM', pkg: 'x', readme: '# x\n\nA helper. The y npm package has moved to ESM, so x pins y@2.' },
  { name: 'moved further down', pkg: 'x', readme: '# x\n\nA helper.\n\n## Install\n\nThis project has moved to y.' },
  { name: 'an old major line without updates', pkg: 'x', readme: '# x\n\nA helper. Version 1 will not receive further updates.' },
  { name: 'a tool about deprecation, moved mentioned (deprecated-decorator)', pkg: 'deprecated-decorator', readme: '# Deprecated Decorator\n\nA simple decorator for deprecated properties, methods and classes. Moved methods are marked too.' },
  { name: 'a lint rule about deprecation (eslint-plugin-deprecation)', pkg: 'eslint-plugin-deprecation', readme: '# eslint-plugin-deprecation\n\nAn ESLint rule that reports usage of deprecated code.' },
  { name: 'a quoted Note about something else', pkg: 'x', readme: '# x\n\nA helper.\n\n> **Note**\n> The docs have moved to a new site.\n\n## Install' },
  { name: 'a stub further down', pkg: 'x', readme: '# x\n\nA helper.\n\nThis is a stub types definition for x.' },
  { name: 'code first', pkg: 'x', readme: '```js\n// deprecated\n```\n\nThis package is deprecated.' },
  { name: 'no README text', pkg: 'x', readme: '' },
];

describe('README opening: a declared status', () => {
  it.each(declares)('$name', ({ pkg, readme, where }) => {
    expect(declaredDeprecation(readme, pkg)).toMatchObject({ where });
  });

  it.each(declaresNothing)('not: $name', ({ pkg, readme }) => {
    expect(declaredDeprecation(readme, pkg)).toBeNull();
  });

  it("reads a GitHub alert's words without its type marker (@circleci/mcp-server-circleci 0.20.0, duckdb 1.4.4)", () => {
    const circleci = '> [!IMPORTANT]\n> **This package is deprecated. Please migrate.**\n>\n> `@circleci/mcp-server-circleci` is no longer receiving feature work.';
    expect(declaredDeprecation(circleci, '@circleci/mcp-server-circleci')).toEqual({ where: 'first paragraph', excerpt: 'This package is deprecated. Please migrate.' });
    const duckdb = '# DuckDB Node Bindings\n\n> [!WARNING]\n> The original DuckDB <> Node.js bindings in this package are deprecated.';
    expect(declaredDeprecation(duckdb, 'duckdb')?.excerpt).toBe('The original DuckDB <> Node.js bindings in this package are deprecated.');
    expect(declaredDeprecation('# x\n\n> [!WARNING]\n> Deprecated: use y.', 'x')).toMatchObject({ where: 'first paragraph', excerpt: 'Deprecated: use y.' });
  });

  it('reads the package named in words and beside another (node-sass 9.0.0, recorded)', () => {
    const nodeSass = readFileSync(new URL('../../../fixtures/readmes/node-sass-9.0.0-opening.md', import.meta.url), 'utf8');
    expect(declaredDeprecation(nodeSass, 'node-sass')).toMatchObject({ where: 'first paragraph' });
    expect(declaredDeprecation('# x\n\nNode Sass and LibSass are no longer maintained.', 'node-sass')).toMatchObject({ where: 'first paragraph' });
    expect(declaredDeprecation('# x\n\nThis tool and its CLI are deprecated.', 'x-tool')).toMatchObject({ where: 'first paragraph' });
    // Other packages coordinated together are not this one; a name's last word alone is not its name.
    expect(declaredDeprecation(nodeSass, 'sass')).toBeNull();
    expect(declaredDeprecation('# x\n\nLibSass and Node Sass are deprecated; this is their successor.', 'dart-sass')).toBeNull();
    expect(declaredDeprecation('# x\n\nFoo and Bar are deprecated, so x replaces them.', 'x')).toBeNull();
  });

  it('reads the paragraph after a quoted tagline (@babel/polyfill 7.12.1, recorded)', () => {
    const polyfill = readFileSync(new URL('../../../fixtures/readmes/babel-polyfill-7.12.1-opening.md', import.meta.url), 'utf8');
    expect(declaredDeprecation(polyfill, '@babel/polyfill')).toMatchObject({ where: 'paragraph under the tagline' });
    // Only right after a one-line quoted tagline, and only the one paragraph after it.
    expect(declaredDeprecation('# x\n\nA tool.\n\nThis package is deprecated.', 'x')).toBeNull();
    expect(declaredDeprecation('# x\n\n> A tool.\n\nIt does things.\n\nThis package is deprecated.', 'x')).toBeNull();
    expect(declaredDeprecation('# x\n\n> A tool\n> over two lines.\n\nThis package is deprecated.', 'x')).toBeNull();
    expect(declaredDeprecation('> A tool.\n\nThis package is deprecated.', 'x')).toBeNull();
  });

  it('reads a title that says the package was merged into another (jscs 3.0.7, recorded)', () => {
    const jscs = readFileSync(new URL('../../../fixtures/readmes/jscs-3.0.7-opening.md', import.meta.url), 'utf8');
    expect(declaredDeprecation(jscs, 'jscs')).toMatchObject({ where: 'title' });
    expect(declaredDeprecation('# x\n\nThis module has been merged into y.', 'x')).toMatchObject({ where: 'first paragraph' });
    // Another package merged into this one says nothing about this one.
    expect(declaredDeprecation('# x (y has merged into x!)', 'x')).toBeNull();
    expect(declaredDeprecation('# x\n\nMerge objects deeply: it merged with care.', 'x')).toBeNull();
    expect(declaredDeprecation('# x\n\nThis library has merged into the lodash project and is no longer published.', 'x')).toMatchObject({ where: 'first paragraph' });
    // What the package took in, not where it went: the name is followed by more of the sentence.
    expect(declaredDeprecation('# x\n\nDeep merge for objects. This package has merged with TypeScript types in v4.', 'x')).toBeNull();
    expect(declaredDeprecation('# x\n\n> Tiny and fast.\n\nThis project has merged with upstream fixes from 2019 and now supports ESM.', 'x')).toBeNull();
  });

  it('keeps a short excerpt as evidence', () => {
    const found = declaredDeprecation(`# x\n\nThis package is deprecated. ${'a'.repeat(500)}`, 'x');
    expect(Array.from(found?.excerpt ?? '').length).toBe(160);
  });
});

/** Before the first ordinary section: a notice among the paragraphs, the first section's heading, or the paragraph under a notice heading. */
const beforeFirstSection: { name: string; pkg: string; readme: string; where: string }[] = [
  { name: 'a sentence heading after the intro (karma 6.4.4 shape)', pkg: 'karma', readme: '# Karma\n\nA simple tool.\n\n> The main purpose of Karma is to make testing easy.\n\n## Karma is deprecated and is not accepting new features.\n\nThe web testing space has evolved.', where: 'first section heading' },
  { name: 'a bare status heading (phantomjs 2.1.7 shape)', pkg: 'phantomjs', readme: 'phantomjs\n=========\n\nAn NPM installer for PhantomJS.\n\n### DEPRECATED\n\nPlease update to phantomjs-prebuilt.', where: 'first section heading' },
  { name: 'a warning-sign status heading', pkg: 'x', readme: '# x\n\nA helper.\n\n## ⚠️ Deprecated\n\nSee y.', where: 'first section heading' },
  { name: '"This project is no longer maintained"', pkg: 'x', readme: '# x\n\nA helper.\n\n## This project is no longer maintained\n\n## Install', where: 'first section heading' },
  { name: 'a project status heading', pkg: 'x', readme: '# x\n\nA helper.\n\n## Project status: archived / unmaintained', where: 'first section heading' },
  { name: 'a status "in favour of" another', pkg: 'x', readme: '# x\n\nA helper.\n\n## Deprecated in favour of y', where: 'first section heading' },
  { name: 'a deprecation notice heading', pkg: 'x', readme: '# x\n\nA helper.\n\n## Deprecation notice', where: 'first section heading' },
  { name: '"Use y instead" as a heading', pkg: 'x', readme: '# x\n\nA helper.\n\n## Use y instead.', where: 'first section heading' },
  { name: 'an HTML heading after an HTML title', pkg: 'x', readme: '<div align="center">\n  <h1>x</h1>\n  <p>A helper.</p>\n</div>\n\n<h2 align="center">Deprecated</h2>\n\nUse y.', where: 'first section heading' },
  { name: 'a GitHub alert with its words on the marker line, after the first paragraph', pkg: 'x', readme: '# x\n\nA helper.\n\n> [!WARNING] This package is deprecated.\n\n## Install', where: 'notice in the opening' },
  { name: 'a GitHub alert with its marker alone, after the first paragraph', pkg: 'x', readme: '# x\n\nA helper.\n\n> [!CAUTION]\n> No longer maintained.\n\n## Install', where: 'notice in the opening' },
  { name: 'a warning-led paragraph after the first paragraph', pkg: 'x', readme: '# x\n\nA helper.\n\n**Warning:** this module has been replaced by y.\n\n## Install', where: 'notice in the opening' },
  { name: 'a quoted Note block after the first paragraph that says it moved', pkg: 'x', readme: '# x\n\nA helper.\n\n> **Note**\n> This package has moved to y.\n\n## Install', where: 'notice in the opening' },
  { name: 'the paragraph under a notice heading', pkg: 'x', readme: '# x\n\nA helper.\n\n## ⚠️ Notice\n\nThis package is deprecated; use y.', where: 'paragraph under the first section heading' },
  { name: 'an end-of-support subtitle (aws-sdk 2.1693.0 shape)', pkg: 'aws-sdk', readme: '# AWS SDK for JavaScript (v2)\n\n## 🚫 End-of-support as of **September 8, 2025**\n\nThe AWS SDK for JavaScript v2 has reached end-of-support.', where: 'subtitle' },
  { name: '"The <name> library is not being actively maintained" (subscriptions-transport-ws shape)', pkg: 'subscriptions-transport-ws', readme: '# graphql-ws\n\nThe `subscriptions-transport-ws` library is not being actively maintained. It is recommended that you use graphql-ws instead.', where: 'first paragraph' },
  { name: 'a note of obsolescence (fibers shape)', pkg: 'fibers', readme: '**NOTE OF OBSOLESCENCE** -- The author of this project recommends you avoid its use if possible.', where: 'first paragraph' },
];

const notBeforeFirstSection: { name: string; pkg: string; readme: string }[] = [
  { name: 'a maintenance-mode notice (moment shape)', pkg: 'moment', readme: '# Moment.js\n\nA JavaScript date library.\n\n> ⚠️ Moment.js is a legacy project, now in **maintenance mode**. New features\n> are not being accepted.\n\n_Thank you._\n\n## Resources' },
  { name: 'a section about deprecated APIs', pkg: 'x', readme: '# x\n\nA helper.\n\n## Deprecated APIs\n\n`foo()` is deprecated.' },
  { name: 'a section about deprecated options', pkg: 'x', readme: '# x\n\nA helper.\n\n## Deprecated options' },
  { name: 'a "Deprecation" section alone', pkg: 'x', readme: '# x\n\nA helper.\n\n## Deprecation\n\nWe deprecate with a major release.' },
  { name: 'a status heading past the first section', pkg: 'x', readme: '# x\n\nA helper.\n\n## Install\n\nnpm i x\n\n## Deprecated\n\nOld.' },
  { name: 'a statement deep in the first section', pkg: 'x', readme: '# x\n\nA helper.\n\n## Install\n\nnpm i x.\n\nThis package is deprecated.' },
  { name: 'a plain second paragraph', pkg: 'x', readme: '# x\n\nA helper.\n\nIt is fast.\n\nThis package is deprecated.' },
  { name: 'an install section telling to use another client', pkg: 'x', readme: '# x\n\nA helper.\n\n## Install\n\nUse pnpm instead.' },
  { name: 'a notice about another version (mime 4 shape)', pkg: 'mime', readme: '# mime\n\nA helper.\n\n> [!Note]\n> `mime@4` is now `latest`. If you are upgrading from `mime@3`, read the notes.\n\n## Install' },
  { name: 'a project status that is healthy', pkg: 'x', readme: '# x\n\nA helper.\n\n## Project status\n\nThis project is actively maintained.' },
  { name: 'a call for maintainers (sequelize shape)', pkg: 'sequelize', readme: "# Sequelize\n\nAn ORM.\n\n## 🚀 Seeking New Maintainers for Sequelize! 🚀\n\nWe're looking for new maintainers." },
  { name: 'a note heading about an option', pkg: 'x', readme: '# x\n\nA helper.\n\n## Note\n\nThe `foo` option is deprecated.' },
  { name: 'a heading past five intro paragraphs', pkg: 'x', readme: '# x\n\na.\n\nb.\n\nc.\n\nd.\n\ne.\n\nf.\n\n## Deprecated' },
  { name: 'a heading after code', pkg: 'x', readme: '# x\n\nA helper.\n\n```js\nx()\n```\n\n## Deprecated' },
];

describe('README opening: a status declared before the first section', () => {
  it.each(beforeFirstSection)('$name', ({ pkg, readme, where }) => {
    expect(declaredDeprecation(readme, pkg)).toMatchObject({ where });
  });

  it.each(notBeforeFirstSection)('not: $name', ({ pkg, readme }) => {
    expect(declaredDeprecation(readme, pkg)).toBeNull();
  });

  it('reads the first section heading of recorded READMEs (karma 6.4.4, phantomjs 2.1.7)', () => {
    const karma = readFileSync(new URL('../../../fixtures/readmes/karma-6.4.4-opening.md', import.meta.url), 'utf8');
    expect(declaredDeprecation(karma, 'karma')).toEqual({ where: 'first section heading', excerpt: 'Karma is deprecated and is not accepting new features or general bug fixes.' });
    const phantomjs = readFileSync(new URL('../../../fixtures/readmes/phantomjs-2.1.7-opening.md', import.meta.url), 'utf8');
    expect(declaredDeprecation(phantomjs, 'phantomjs')).toEqual({ where: 'first section heading', excerpt: 'DEPRECATED' });
  });
});

describe('README opening', () => {
  it('reads the title and the first paragraph, past badges, link definitions and HTML', () => {
    expect(readmeOpening('# name [![b](https://x.test/b.svg)](https://x.test)\n\n[npm-url]: https://x.test\n\n<p align="center"><b>One</b> line\nand its second line.</p>\n\nMore.')).toEqual({
      title: 'name',
      subtitle: null,
      paragraph: 'One line and its second line.',
    });
  });

  it('reads past badges written by reference (`[![npm]](…)` beside its `[npm]:` definition, as claude-code 2.1.x\'s README opens)', () => {
    const text = '# Claude Code\n\n![](https://img.x.test/node.svg) [![npm]](https://x.test/package/x)\n\n[npm]: https://img.x.test/npm/v/x.svg\n\nX is an agentic coding tool that lives in your terminal.\n';
    expect(readmeOpening(text)).toEqual({ title: 'Claude Code', subtitle: null, paragraph: 'X is an agentic coding tool that lives in your terminal.' });
    // A collapsed reference image, and one alone on its line.
    expect(readmeOpening('# t\n\n![logo][] ![badge]\n\n[logo]: https://x.test/l.png\n\nWords.').paragraph).toBe('Words.');
    // Brackets in prose are still words.
    expect(readmeOpening('# t\n\nSee [the guide] for more!').paragraph).toBe('See the guide for more!');
  });

  it('has no paragraph when the README opens with code', () => {
    expect(readmeOpening('# t\n\n    indented code\n\nText.')).toEqual({ title: 't', subtitle: null, paragraph: null });
    expect(readmeOpening('# t\n\n## sub\n\nText.')).toEqual({ title: 't', subtitle: 'sub', paragraph: 'Text.' });
  });

  it('reads only the start of a README', () => {
    expect(declaredDeprecation(`${'\n'.repeat(9_000)}# Deprecated`, 'x')).toBeNull();
    expect(declaredDeprecation(`# t\n\n${'this package '.repeat(200_000)}`, 'x')).toBeNull();
  });
});

/** Registry descriptions (the package named is where each shape was seen, or a shape npm packages use). */
const descriptionDeclares: { name: string; pkg: string; description: string }[] = [
  { name: 'renamed, with a link (@sourcegraph/amp, recorded)', pkg: '@sourcegraph/amp', description: 'Renamed to @ampcode/cli - see https://ampcode.com/news/npm-package-changes' },
  { name: 'a status first, then a colon', pkg: 'x', description: 'DEPRECATED: use y instead' },
  { name: 'a status in brackets first', pkg: 'x', description: '[Deprecated] A helper for z' },
  { name: 'a status first, then a pointer', pkg: 'x', description: 'Deprecated in favour of @scope/y' },
  { name: 'a status at the end, in brackets', pkg: 'x', description: 'A helper for z (unmaintained)' },
  { name: 'the package says it of itself', pkg: 'x', description: 'This package is no longer maintained.' },
  { name: 'the package named as the subject', pkg: 'x', description: 'x has been replaced by y' },
  { name: 'use another instead', pkg: 'x', description: 'A helper for z. Use y instead.' },
];
const descriptionDeclaresNothing: { name: string; pkg: string; description: string }[] = [
  { name: 'a tool about deprecation warnings', pkg: 'x', description: 'Deprecation warnings for your API' },
  { name: 'a status word that starts a phrase of its own', pkg: 'x', description: 'Abandoned cart e-mails for shops' },
  { name: 'a lint rule that reports deprecated code (eslint-plugin-deprecation)', pkg: 'eslint-plugin-deprecation', description: 'ESLint rule that reports usage of deprecated code' },
  { name: 'util-deprecate', pkg: 'util-deprecate', description: 'The Node.js `util.deprecate()` function with browser support' },
  { name: 'end-of-life dates', pkg: 'x', description: 'End-of-life dates for runtimes and frameworks' },
  { name: 'an empty description', pkg: 'x', description: '   ' },
  { name: 'a bracketed status in the middle, of another thing', pkg: 'x', description: 'Legacy support (deprecated) for old browsers' },
];

describe('registry description: a declared status', () => {
  it.each(descriptionDeclares)('$name', ({ pkg, description }) => {
    expect(descriptionDeclaredDeprecation(description, pkg)).toBe(description.trim());
  });

  it.each(descriptionDeclaresNothing)('not: $name', ({ pkg, description }) => {
    expect(descriptionDeclaredDeprecation(description, pkg)).toBeNull();
  });
});
