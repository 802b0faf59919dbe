import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { npmHighImpact, npmTopDependents, npmTopDownloads } from 'npm-high-impact';
import { describe, expect, it } from 'vitest';
import {
  POPULAR_LIST,
  buildPopularIndex,
  differOnlyInDigits,
  distanceAllowed,
  editDistance,
  findIntended,
  flattenScope,
  homoglyphKey,
  isHomoglyphOf,
  isPopular,
  popularIndex,
  rankOf,
  segments,
  splitScope,
  stripSeparators,
} from '../../../src/checks/lib/typosquat.js';
import type { TyposquatMatch } from '../../../src/checks/lib/typosquat.js';

describe('editDistance (optimal string alignment)', () => {
  it.each<[string, string, number]>([
    ['', '', 0],
    ['a', '', 1],
    ['', 'abc', 3],
    ['lodash', 'lodash', 0],
    ['expres', 'express', 1],
    ['electorn', 'electron', 1], // one swap
    ['lodahs', 'lodash', 1],
    ['reqeust', 'request', 1],
    ['kitten', 'sitting', 3],
    ['ab', 'ba', 1],
    // Restricted Damerau: a swapped pair is not edited again (true Damerau–Levenshtein gives 2).
    ['ca', 'abc', 3],
  ])('%s ↔ %s = %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  it('stops at max and answers max + 1', () => {
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
    expect(editDistance('kitten', 'sitting', 3)).toBe(3);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
    expect(editDistance('', 'abcdef', 2)).toBe(3);
  });

  it('handles names longer than its reused rows', () => {
    const long = 'x'.repeat(300);
    expect(editDistance(long, `${long}y`)).toBe(1);
    expect(editDistance(`${long}ab`, `${long}ba`)).toBe(1);
  });

  const name = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '-', '1'), maxLength: 12 });

  it('is symmetric, zero only for equal strings, and bounded by the lengths', () => {
    fc.assert(
      fc.property(name, name, (a, b) => {
        const d = editDistance(a, b);
        expect(editDistance(b, a)).toBe(d);
        expect(d === 0).toBe(a === b);
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(d).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
      }),
    );
  });

  it('agrees with the unbounded distance under any max', () => {
    fc.assert(
      fc.property(name, name, fc.integer({ min: 0, max: 4 }), (a, b, max) => {
        expect(editDistance(a, b, max)).toBe(Math.min(editDistance(a, b), max + 1));
      }),
    );
  });

  it('counts a swap of two different adjacent characters as 1', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 2, maxLength: 12 }), fc.nat(), (s, at) => {
        const i = at % (s.length - 1);
        fc.pre(s[i] !== s[i + 1]);
        const swapped = s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
        expect(editDistance(s, swapped)).toBe(1);
      }),
    );
  });
});

describe('normalisers', () => {
  it.each<[string, { scope: string | null; name: string }]>([
    ['@types/react', { scope: 'types', name: 'react' }],
    ['react', { scope: null, name: 'react' }],
    ['@/x', { scope: null, name: '@/x' }],
  ])('splitScope(%s)', (input, parts) => {
    expect(splitScope(input)).toEqual(parts);
  });

  it.each<[string, string]>([
    ['cross-env', 'crossenv'],
    ['Cross_Env', 'crossenv'],
    ['lodash.merge', 'lodashmerge'],
    ['@types/react-dom', '@types/reactdom'],
  ])('stripSeparators(%s) = %s', (input, out) => {
    expect(stripSeparators(input)).toBe(out);
  });

  it.each<[string, string]>([
    ['@types/react', 'typesreact'],
    ['types-react', 'typesreact'],
    ['@babel/plugin-x', 'babelpluginx'],
  ])('flattenScope(%s) = %s', (input, out) => {
    expect(flattenScope(input)).toBe(out);
  });

  it.each<[string, string[]]>([
    ['@types/react-dom', ['types', 'react', 'dom']],
    ['lodash.merge', ['lodash', 'merge']],
    ['Express', ['express']],
  ])('segments(%s)', (input, out) => {
    expect(segments(input)).toEqual(out);
  });

  it.each<[string, string, boolean]>([
    ['l0dash', 'lodash', true],
    ['1odash', 'lodash', true],
    ['d1ff', 'diff', true],
    ['chai5', 'chais', true],
    ['rnoment', 'moment', true],
    ['vvebpack', 'webpack', true],
    ['webpack', 'vvebpack', true],
    ['LODASH', 'lodash', false], // the same name, not a homoglyph
    ['mild', 'mlld', false], // i and l are not look-alikes on their own
    ['lodash', 'lodesh', false],
    ['l0dash', 'lodas', false],
  ])('isHomoglyphOf(%s, %s) = %s', (a, b, expected) => {
    expect(isHomoglyphOf(a, b)).toBe(expected);
    if (expected) expect(homoglyphKey(a)).toBe(homoglyphKey(b));
  });

  it.each<[string, string, boolean]>([
    ['passport-oauth1', 'passport-oauth2', true],
    ['mkdirp2', 'mkdirp', true],
    ['mkdirp', 'mkdirp', false],
    ['lodash', 'lodahs', false],
    ['urllib3', 'urllib', true],
    ['@scope2/name', '@scope/name', true],
    ['s4transfer', 's3transfer', false],
    ['py2neo', 'py3neo', false],
  ])('differOnlyInDigits(%s, %s) = %s', (a, b, expected) => {
    expect(differOnlyInDigits(a, b)).toBe(expected);
  });

  it.each<[string, string, number]>([
    ['expres', 'express', 1],
    ['reac', 'react', 0], // under 5 characters
    ['electorn', 'electron', 2],
    ['eslint-config-umi', 'eslint-config-ali', 0], // only `umi` / `ali` differ
    ['express-validators', 'express-validator', 2],
    ['@typse/react', '@types/react', 1], // only the scope differs
    ['types-react', '@types/react', 0], // scoped against unscoped: never by distance
  ])('distanceAllowed(%s, %s) = %i', (a, b, allowed) => {
    expect(distanceAllowed(a, b)).toBe(allowed);
    expect(distanceAllowed(b, a)).toBe(allowed);
  });

  // A character dropped from a short part counts one way only: the name has the shorter part.
  it.each<[string, string, number]>([
    ['wb3-eth', 'web3-eth', 1],
    ['web3-eth', 'wb3-eth', 0], // a character added to a short part: another word (`vuex-router`)
    ['@types/nod', '@types/node', 1],
    ['@types/nodee', '@types/node', 0],
    ['is-gob', 'is-glob', 1],
    ['es-map', 'es6-map', 0], // a part of 3 characters
    ['reac', 'react', 0], // one part: the whole name is short
  ])('distanceAllowed(%s, %s) = %i (a dropped character)', (a, b, allowed) => {
    expect(distanceAllowed(a, b)).toBe(allowed);
  });
});

describe('findIntended on a small list', () => {
  it.each<[string, string[], string, TyposquatMatch | null]>([
    ['separator beats a closer or more popular distance match', ['crossenvx', 'cross-env'], 'crossenv', { intended: 'cross-env', rule: 'separator', distance: 1 }],
    ['scope beats distance', ['types-reaxt', '@types/react'], 'types-react', { intended: '@types/react', rule: 'scope', distance: 2 }],
    ['homoglyph beats distance', ['l0dashx', 'lodash'], 'l0dash', { intended: 'lodash', rule: 'homoglyph', distance: 1 }],
    ['smaller distance beats popularity', ['abcdefghxy', 'abcdefghix'], 'abcdefghij', { intended: 'abcdefghix', rule: 'distance', distance: 1 }],
    ['list order settles a tie', ['abcdefy', 'abcdefz'], 'abcdefx', { intended: 'abcdefy', rule: 'distance', distance: 1 }],
    ['list order settles a tie (reversed)', ['abcdefz', 'abcdefy'], 'abcdefx', { intended: 'abcdefz', rule: 'distance', distance: 1 }],
    ['a name on the list is never matched', ['react', 'preact'], 'preact', null],
    ['the bare name of a popular scoped package is not flagged', ['@vercel/elysia'], 'elysia', null],
    ['a scoped name is not read as an unscoped one', ['koa-send'], '@koa/send', null],
    ['case-only difference', ['JSONStream'], 'jsonstream', { intended: 'JSONStream', rule: 'separator', distance: 0 }],
    ['short names only by the exact rules', ['ab', 'a-bc'], 'abc', { intended: 'a-bc', rule: 'separator', distance: 1 }],
    ['short names: one edit is not enough', ['chai'], 'chat', null],
  ])('%s', (_name, list, target, expected) => {
    expect(findIntended(target, buildPopularIndex(list))).toEqual(expected);
  });

  // The variant rules: tried only when no rule above matched, on a scanned and a tabled index alike.
  it.each<[string, string[], string, TyposquatMatch | null]>([
    ['repeat: runs read once on both sides', ['aiohttp'], 'aaiohttpp', { intended: 'aiohttp', rule: 'repeat', distance: 2 }],
    ['repeat: two letters doubled in a short name', ['numpy'], 'nummpyy', { intended: 'numpy', rule: 'repeat', distance: 2 }],
    ['repeat: one doubled letter is the distance rule already', ['deepseek'], 'deepseeek', { intended: 'deepseek', rule: 'distance', distance: 1 }],
    ['repeat: a triple letter plus one more edit', ['aiohttp'], 'aiohtttps', { intended: 'aiohttp', rule: 'repeat', distance: 2 }],
    ['repeat: a triple letter plus a dropped one', ['requests'], 'requstsss', { intended: 'requests', rule: 'repeat', distance: 3 }],
    ['repeat: a run dropped from the popular name', ['puppeteer'], 'pupeter', { intended: 'puppeteer', rule: 'repeat', distance: 2 }],
    ['repeat: under 5 characters once collapsed, nothing', ['st'], 'sst', null],
    ['repeat: a doubled letter plus another edit needs a triple', ['numba'], 'numbagg', null],
    ['repeat: the collapsed near match is a distance match only', ['aabbccdd'], 'abcdxxx', null],
    ['plural: an s on a name of two parts', ['huggingface-hub'], 'huggingface-hubs', { intended: 'huggingface-hub', rule: 'plural', distance: 1 }],
    ['plural: an s on an inner part', ['node-polyfill-webpack-plugin'], 'nodes-polyfill-webpack-plugin', { intended: 'node-polyfill-webpack-plugin', rule: 'plural', distance: 1 }],
    ['plural: not on a one-part name (short names meet only the exact rules)', ['hub'], 'hubs', null],
    ['plural: not an s inside a part', ['hub-ab'], 'hsub-ab', null],
    ['affix: python-', ['flask'], 'python-flask', { intended: 'flask', rule: 'affix', distance: 7 }],
    ['affix: python3-', ['flask'], 'python3-flask', { intended: 'flask', rule: 'affix', distance: 8 }],
    ['affix: python, no separator', ['httpx'], 'pythonhttpx', { intended: 'httpx', rule: 'affix', distance: 6 }],
    ['affix: not py (pydash wraps dash)', ['dash'], 'pydash', null],
    ['affix: not a suffix', ['msgpack'], 'msgpack-python', null],
    ['affix: not around names under 4 characters', ['six'], 'python-six', null],
    ['anagram: letters reordered within a part', ['matplotlib'], 'matlibplot', { intended: 'matplotlib', rule: 'anagram', distance: 6 }],
    ['anagram: a short part swapped', ['sphinx-rtd-theme'], 'sphinx-rdt-theme', { intended: 'sphinx-rtd-theme', rule: 'anagram', distance: 1 }],
    ['anagram: a digit moved', ['boto3'], 'bo3to', { intended: 'boto3', rule: 'anagram', distance: 2 }],
    ['anagram: parts reordered are a different name', ['string-to-stream'], 'stream-to-string', null],
    ['anagram: a different start', ['filelock'], 'lockfile', null],
    ['anagram: under 5 characters', ['abcd'], 'abdc', null],
    ['anagram: not scoped names', ['@types/abcd'], '@types/abdc', null],
    ['affix wins over anagram, whatever the list order', ['pyhotn-flask', 'flask'], 'python-flask', { intended: 'flask', rule: 'affix', distance: 7 }],
    ['distance wins over a variant', ['python-flasks', 'flask'], 'python-flask', { intended: 'python-flasks', rule: 'distance', distance: 1 }],
    ['repeat: a triple letter is no version sibling', ['urllib3'], 'urlllib', { intended: 'urllib3', rule: 'repeat', distance: 2 }],
    ['repeat: without a triple, the version family stands', ['urllib3'], 'urllib', null],
    ['suffix: a release word', ['uuid'], 'uuid-latest', { intended: 'uuid', rule: 'suffix', distance: 7 }],
    ['suffix: older', ['axios'], 'axios-older', { intended: 'axios', rule: 'suffix', distance: 6 }],
    ['suffix: a version number', ['react-dom'], 'react-dom-16', { intended: 'react-dom', rule: 'suffix', distance: 3 }],
    ['suffix: v and a version number', ['html-webpack-plugin'], 'html-webpack-plugin-v4', { intended: 'html-webpack-plugin', rule: 'suffix', distance: 3 }],
    ['suffix: not three digits', ['uuid'], 'uuid-123', null],
    ['suffix: not a word of its own (a fork, a next version)', ['react-quill', 'bootstrap-vue'], 'react-quill-new', null],
    ['suffix: not -next', ['bootstrap-vue'], 'bootstrap-vue-next', null],
    ['suffix: not after names under 4 characters', ['ms'], 'ms-latest', null],
    ['distance: separators read alike', ['bignumber.js'], 'bigumner-js', { intended: 'bignumber.js', rule: 'distance', distance: 2 }],
    ['distance: separators read alike, not a third edit', ['bignumber.js'], 'bigumnerr-js', null],
    ['distance: a character dropped from a short part', ['web3-eth'], 'wb3-eth', { intended: 'web3-eth', rule: 'distance', distance: 1 }],
    ['distance: not a character added to a short part', ['vue-router'], 'vuex-router', null],
    ['distance: a digit dropped is the digit rule, not a dropped character', ['web3-eth'], 'web-eth', { intended: 'web3-eth', rule: 'digit', distance: 1 }],
    ['joined: words run together and a character added', ['web3-eth-abi'], 'web3ethabii', { intended: 'web3-eth-abi', rule: 'joined', distance: 3 }],
    ['joined: words run together and a character dropped', ['web3-bzz'], 'web3bz', { intended: 'web3-bzz', rule: 'joined', distance: 2 }],
    ['joined: the most popular of two', ['web3-bz-z', 'web3-bzz'], 'web3bzx', { intended: 'web3-bz-z', rule: 'joined', distance: 3 }],
    ['joined: not two edits', ['split-lines'], 'splitpanes', null],
    ['joined: not another first character', ['web3-bzz'], 'eb3bzz', null],
    ['joined: not when the popular name has fewer parts (a word added)', ['esutils'], 'esm-utils', null],
    ['joined: not as many parts', ['json-schema-to-ts'], 'json-schema-test', null],
    ['joined: not under 6 characters', ['web-bzz'], 'webz', null],
    ['joined: not a scoped name', ['web3-eth-abi'], '@x/web3ethabii', null],
    ['digit: the digit of a word dropped', ['web3-bzz'], 'web-bzz', { intended: 'web3-bzz', rule: 'digit', distance: 1 }],
    ['digit: any part before a dash', ['eslint-plugin-jsx-a11y-x'], 'eslint-plugin-jsx-a-x', null],
    ['digit: not when the word is popular itself (a version of it)', ['vue', 'vue3-apexcharts'], 'vue-apexcharts', null],
    ['digit: not a word under 3 letters', ['es6-map'], 'es-map', null],
    ['digit: not the last part (a version family)', ['passport-oauth2'], 'passport-oauth', null],
    ['scope-extended: letters added to a popular scope', ['@typescript-eslint/parser'], '@typescript_eslinter/eslint', { intended: '@typescript-eslint/parser', rule: 'scope-extended', distance: 9 }],
    ['scope-extended: the most popular name of the scope', ['@typescript-eslint/parser', '@typescript-eslint/utils'], '@typescript-eslintx/foo', { intended: '@typescript-eslint/parser', rule: 'scope-extended', distance: 7 }],
    ['scope-extended: not a new word after a dash', ['@salesforce/core'], '@salesforce-ux/design-system', null],
    ['scope-extended: not more than 3 letters', ['@typescript-eslint/parser'], '@typescript-eslintings/foo', null],
    ['scope-extended: not a scope under 8 letters', ['@nestjs/core'], '@nestjsx/crud', null],
    ['scope-extended: not a popular scope itself', ['@storybook/react', '@storybookjs/addon'], '@storybookjs/other', null],
  ])('%s', (_name, list, target, expected) => {
    expect(findIntended(target, buildPopularIndex(list, { exactTablesAfter: Infinity }))).toEqual(expected);
    expect(findIntended(target, buildPopularIndex(list, { exactTablesAfter: 0 }))).toEqual(expected);
  });

  it('keeps the first rank of a repeated name', () => {
    const index = buildPopularIndex(['a', 'b', 'a'], { exactTablesAfter: 0 });
    expect(index.names).toEqual(['a', 'b']);
    expect(rankOf(index, 'a')).toBe(0);
    findIntended('c', index); // builds the tables
    expect(index.state.exact).toBeDefined();
    expect([rankOf(index, 'a'), rankOf(index, 'b'), rankOf(index, 'c')]).toEqual([0, 1, -1]);
  });
});

describe('the shipped popular list', () => {
  it('is npm-high-impact at the recorded version, all three exports united', () => {
    const installed = JSON.parse(readFileSync(new URL('../../../node_modules/npm-high-impact/package.json', import.meta.url), 'utf8')) as { version: string };
    expect(POPULAR_LIST.version).toBe(installed.version);
    const union = new Set([...npmHighImpact, ...npmTopDependents, ...npmTopDownloads]);
    const index = popularIndex();
    expect(index.names.length).toBe(union.size);
    expect(index.names.length).toBeGreaterThan(10_000);
    expect(index.names.slice(0, 3)).toEqual(npmHighImpact.slice(0, 3));
    expect(popularIndex()).toBe(index); // built once
  });

  it('never flags a name on the list', () => {
    const index = popularIndex();
    const flagged = index.names.filter((name) => findIntended(name, index) !== null);
    expect(flagged).toEqual([]);
    expect(index.names.every((name) => isPopular(name, index))).toBe(true);
  });

  it.each<[string, TyposquatMatch | null]>([
    ['crossenv', { intended: 'cross-env', rule: 'separator', distance: 1 }],
    ['babelcli', { intended: 'babel-cli', rule: 'separator', distance: 1 }],
    ['jsonstream', { intended: 'JSONStream', rule: 'separator', distance: 0 }],
    ['types-react', { intended: '@types/react', rule: 'scope', distance: 2 }],
    ['l0dash', { intended: 'lodash', rule: 'homoglyph', distance: 1 }],
    ['1odash', { intended: 'lodash', rule: 'homoglyph', distance: 1 }],
    ['electorn', { intended: 'electron', rule: 'distance', distance: 1 }],
    ['lodahs', { intended: 'lodash', rule: 'distance', distance: 1 }],
    ['expres', { intended: 'express', rule: 'distance', distance: 1 }],
    ['reqeust', { intended: 'request', rule: 'distance', distance: 1 }],
    ['pupeteer', { intended: 'puppeteer', rule: 'distance', distance: 1 }],
    ['@typse/react', { intended: '@types/react', rule: 'distance', distance: 1 }], // a swap in the scope
    ['my-unique-internal-tool-xyz', null],
    ['abc', null],
    ['example', null],
    ['eslint-config-umi', null], // the differing part (`umi`) is short
    ['passport-oauth3', null], // a version family, not a typo
    // Legitimate names next to the suffix, digit and scope-extended rules.
    ['react-quill-new', null],
    ['bootstrap-vue-next', null],
    ['graphql-tools-fork', null],
    ['vue-apexcharts', null],
    ['@salesforce-ux/design-system', null],
    ['@nestjsx/crud', null],
    // Legitimate names next to the dropped-character and joined readings.
    ['vuex-router', null],
    ['eslint_d', null],
    ['splitpanes', null],
    ['json-schema-test', null],
    ['genversion', null],
    ['esm-utils', null],
    ['cross-os', null],
    ['git-config', null],
    // Next to the label words of the suffix rule: a word that goes on, one not on the list, a name of 3 letters.
    ['jquery-realtime', null],
    ['string-width-alias', null],
    ['vue-real', null],
    // Next to the word rule: a part that is a word of popular names, an ending or a start that
    // differs (another word), two edits, the popular name itself with words added, a later part.
    ['better-console', null],
    ['react-native-sortables', null],
    ['hot-patcher', null],
    ['puppeteerr-cluster', null],
    ['pupeteers-cluster', null],
    ['puppeteer-cluster', null],
    ['appium-espresso-driver', null], // a later part: `espresso` is a word of its own, not `expresso` misspelt
    ['cluster-pupeteer', null],
  ])('%s → %j', (name, expected) => {
    expect(isPopular(name)).toBe(false);
    expect(findIntended(name)).toEqual(expected);
  });

  it.each(['react', 'preact', 'chai', 'chalk', 'debug', 'ms', '@types/react', 'cross-env', 'babel-cli'])('%s is on the list', (name) => {
    expect(isPopular(name)).toBe(true);
    expect(findIntended(name)).toBeNull();
  });

  // Real names of malicious npm uploads that copy a popular package (fixtures/PROVENANCE.md).
  it('names the intended package for at least 45 of the 81 real malicious look-alikes', () => {
    const names = readFileSync(new URL('../../../fixtures/typosquat/npm-malicious-names.txt', import.meta.url), 'utf8').split('\n').filter((n) => n !== '');
    expect(names).toHaveLength(81);
    const caught = names.filter((n) => !isPopular(n) && findIntended(n) !== null);
    expect(caught.length).toBeGreaterThanOrEqual(45);
  });

  it.each([
    ['pupetier', 'puppeteer', 'distance'],
    ['markdownalint-cli2', 'markdownlint-cli2', 'distance'],
    ['types-node', '@types/node', 'scope'],
    ['pupeter', 'puppeteer', 'repeat'],
    ['webb3-bzz', 'web3-bzz', 'repeat'],
    ['nodes-polyfill-webpack-plugin', 'node-polyfill-webpack-plugin', 'plural'],
    ['uuid-latest', 'uuid', 'suffix'],
    ['jquery-real', 'jquery', 'suffix'],
    ['string-width-aliased', 'string-width', 'suffix'],
    ['react-is-17', 'react-is', 'suffix'],
    ['html-webpack-plugin-v5', 'html-webpack-plugin', 'suffix'],
    ['web-eth-abi', 'web3-eth-abi', 'digit'],
    ['web-bzz', 'web3-bzz', 'digit'],
    ['wb3-eth', 'web3-eth', 'distance'],
    ['bigumner-js', 'bignumber.js', 'distance'],
    ['web3bz', 'web3-bzz', 'joined'],
    ['web3ethabii', 'web3-eth-abi', 'joined'],
    ['@typescript_eslinter/prettier', '@typescript-eslint/types', 'scope-extended'],
    // Real malicious uploads outside the measured list (fixtures/PROVENANCE.md): a popular name misspelt, words added.
    ['pupeteer-cluster', 'puppeteer', 'word'],
    ['pupeteer-extra-plugin-adblocker', 'puppeteer', 'word'],
    ['harthat-chain', 'hardhat', 'word'],
  ])('real malicious upload %s → %s (%s)', (name, intended, rule) => {
    expect(findIntended(name)).toMatchObject({ intended, rule });
  });

  it('measures the index build and one lookup (printed, not asserted)', () => {
    const t0 = performance.now();
    const index = buildPopularIndex([...npmHighImpact, ...npmTopDependents, ...npmTopDownloads]);
    const t1 = performance.now();
    const names = ['my-unique-internal-tool-xyz', 'electorn', 'lodahs', 'some-package-name', 'typescript-eslint-helper'];
    for (const n of names) findIntended(n, index);
    const t2 = performance.now();
    console.log(
      `typosquat: ${POPULAR_LIST.name}@${POPULAR_LIST.version}, ${index.names.length} names; ` +
        `index built in ${(t1 - t0).toFixed(0)} ms, ${((t2 - t1) / names.length).toFixed(2)} ms per name`,
    );
    expect(index.names.length).toBe(popularIndex().names.length);
  });
});
