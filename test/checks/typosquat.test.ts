import { describe, expect, it } from 'vitest';
import check, { TYPOSQUAT_SCORE, WIDELY_USED_WEEKLY_DOWNLOADS } from '../../src/checks/typosquat.js';
import { daysAgo, evidence, unavailable, versionsAgo } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import type { CheckCase } from './check-table.js';
import { checkTable, outcomeOf } from './check-table.js';

/** A young package (two releases this month): nothing but its name speaks for it. */
const YOUNG = versionsAgo([['0.1.0', 20], ['2.1.0', 3]]);
const named = (name: string, lastWeek: number | null = 120) => evidence({ registry: { name, versions: YOUNG }, downloads: { lastWeek } });
/** `count` releases, the first `days` before now. */
const history = (count: number, days: number) => versionsAgo(Array.from({ length: count }, (_, i) => [i === count - 1 ? '2.1.0' : `0.${i}.0`, days - i] as const));

/** Six releases of one line dated against version order: a mirror's own times, withheld (docs/scoring.md §12). */
const WITHHELD = versionsAgo([['0.0.0', 10], ['0.1.0', 900], ['0.2.0', 5], ['0.3.0', 800], ['0.4.0', 3], ['0.5.0', 700]]);

/** How each rule reads in the message: user words, never the rule's id. */
const HOW: Record<string, string> = {
  separator: 'only the separators differ',
  scope: 'the same name under another scope',
  homoglyph: 'look-alike characters',
  distance: 'one character differs',
  suffix: 'a version or a word such as latest added',
  digit: 'a digit of the name dropped',
  joined: 'the words run together, one character differs',
  word: 'one of its words is the name misspelt',
  'scope-extended': 'letters added to a popular scope',
};

const flagged = (name: string, intended: string, rule: string, distance: number): CheckCase => ({
  name: `${name} → ${intended} (${rule})`,
  evidence: named(name),
  score: TYPOSQUAT_SCORE,
  messageId: 'likely-typosquat',
  data: { intended, rule, distance, how: HOW[rule] ?? '' },
  message: [`\`${intended}\` (${HOW[rule]})`, `check that you meant ${intended}`],
});

const popular = (name: string): CheckCase => ({
  name: `${name} is popular`,
  evidence: named(name, 5_000),
  score: 100,
  messageId: 'popular',
  data: { intended: null, rule: null, distance: null },
});

const distinct = (name: string): CheckCase => ({
  name: `${name} is distinct`,
  evidence: named(name),
  score: 100,
  messageId: 'distinct',
  data: { intended: null, rule: null, distance: null },
});

const youngPypi = [
  { version: '0.1.0', time: daysAgo(20), prerelease: false, yanked: false, yankedReason: null, files: 2 },
  { version: '2.1.0', time: daysAgo(3), prerelease: false, yanked: false, yankedReason: null, files: 2 },
];
const pypiNamed = (name: string, lastWeek: number | null = 120) => pypiEvidence({ pypi: { name, releases: youngPypi }, downloads: { lastWeek } });

checkTable(check, [
  flagged('crossenv', 'cross-env', 'separator', 1),
  flagged('babelcli', 'babel-cli', 'separator', 1),
  flagged('types-react', '@types/react', 'scope', 2),
  flagged('l0dash', 'lodash', 'homoglyph', 1),
  flagged('electorn', 'electron', 'distance', 1),
  flagged('lodahs', 'lodash', 'distance', 1),
  flagged('@type/node', '@types/node', 'distance', 1),
  flagged('@aws-sdkk/client-s3', '@aws-sdk/client-s3', 'distance', 1),
  flagged('@vuee/shared', '@vue/shared', 'distance', 1),
  distinct('@acme/node'),
  flagged('uuid-latest', 'uuid', 'suffix', 7),
  flagged('jquery-real', 'jquery', 'suffix', 5),
  flagged('react-dom-16', 'react-dom', 'suffix', 3),
  flagged('web-bzz', 'web3-bzz', 'digit', 1),
  flagged('web3ethabii', 'web3-eth-abi', 'joined', 3),
  flagged('wb3-eth', 'web3-eth', 'distance', 1),
  flagged('pupeteer-cluster', 'puppeteer', 'word', 9),
  distinct('better-console'), // `console` is a word of popular names, not `consola` misspelt
  distinct('vuex-router'), // a character added to a short part: another word
  flagged('@typescript_eslinter/eslint', '@typescript-eslint/types', 'scope-extended', 9),
  distinct('react-quill-new'), // a fork's name: `-new` is no release word
  distinct('vue-apexcharts'), // `vue` is popular: `vue3` is a version of it, not a word
  distinct('@salesforce-ux/design-system'), // a word added after a dash, not letters added to the scope's last word
  distinct('@nz/webpack'), // a two-letter scope one edit from @nx: too short to tell a typo from another owner
  flagged('expres', 'express', 'distance', 1),
  flagged('reqeust', 'request', 'distance', 1),
  // Two popular packages one edit apart are both legitimate.
  popular('react'),
  popular('preact'),
  popular('chai'),
  popular('chalk'),
  popular('debug'),
  popular('ms'),
  popular('@types/react'),
  distinct('my-unique-internal-tool-xyz'),
  distinct('abc'),
  distinct('example'),
  {
    name: 'a close name that is widely used itself',
    evidence: named('electorn', 5_000_000),
    score: 100,
    messageId: 'widely-used',
    data: { intended: 'electron', rule: 'distance', distance: 1, how: 'one character differs', lastWeek: 5_000_000 },
    message: ['electron', '5,000,000'],
  },
  {
    name: 'exactly at the widely-used bar',
    evidence: named('crossenv', WIDELY_USED_WEEKLY_DOWNLOADS),
    score: 100,
    messageId: 'widely-used',
  },
  {
    name: 'just under the widely-used bar',
    evidence: named('crossenv', WIDELY_USED_WEEKLY_DOWNLOADS - 1),
    score: TYPOSQUAT_SCORE,
    messageId: 'likely-typosquat',
  },
  {
    name: 'established: 5 releases, the first 730 days ago',
    evidence: evidence({ registry: { name: 'crossenv', versions: history(5, 730) }, downloads: { lastWeek: 10 } }),
    score: 100,
    messageId: 'established',
    data: { intended: 'cross-env', releases: 5 },
    message: ['established: 5 releases since'],
  },
  {
    // electron-rebuild 3.2.9 on a mirror: 58 releases listed, their times the mirror's own (docs/scoring.md §12).
    name: 'release dates withheld, 5 releases or more: whether it is established cannot be told (unknown, held)',
    evidence: evidence({ registry: { name: 'electron-rebuild', version: '0.5.0', trimmed: true, versions: WITHHELD }, downloads: { lastWeek: null } }),
    score: null,
    messageId: 'undated',
    data: { intended: '@electron/rebuild', rule: 'scope', releases: 6 },
    message: ['`@electron/rebuild` (the same name under another scope)', 'the dates of its 6 releases are unknown'],
  },
  {
    name: 'release dates withheld, fewer than 5 releases: not established whatever the dates',
    evidence: evidence({ registry: { name: 'electron-rebuild', version: '0.3.0', trimmed: true, versions: WITHHELD.slice(0, 4) }, downloads: { lastWeek: null } }),
    score: TYPOSQUAT_SCORE,
    messageId: 'likely-typosquat',
  },
  {
    name: 'not established: 4 releases over years',
    evidence: evidence({ registry: { name: 'crossenv', versions: history(4, 2000) }, downloads: { lastWeek: 10 } }),
    score: TYPOSQUAT_SCORE,
    messageId: 'likely-typosquat',
  },
  {
    name: 'not established: many releases, the first 729 days ago',
    evidence: evidence({ registry: { name: 'crossenv', versions: history(40, 729) }, downloads: { lastWeek: 10 } }),
    score: TYPOSQUAT_SCORE,
    messageId: 'likely-typosquat',
  },
  {
    name: 'download count unknown: flagged',
    evidence: named('crossenv', null),
    score: TYPOSQUAT_SCORE,
    messageId: 'likely-typosquat',
  },
  {
    name: 'downloads source unavailable: flagged',
    evidence: evidence({ registry: { name: 'crossenv', versions: YOUNG }, downloads: unavailable('HTTP 503') }),
    score: TYPOSQUAT_SCORE,
    messageId: 'likely-typosquat',
    data: { intended: 'cross-env', rule: 'separator' },
  },
  // PyPI: the curated PyPI list, PEP 503 names.
  { name: 'PyPI requests is popular', evidence: pypiNamed('requests'), score: 100, messageId: 'popular-pypi' },
  { name: 'PyPI Python_Dateutil is python-dateutil (PEP 503)', evidence: pypiNamed('Python_Dateutil'), score: 100, messageId: 'popular-pypi' },
  {
    name: 'PyPI reqeusts → requests (distance)',
    evidence: pypiNamed('reqeusts'),
    score: TYPOSQUAT_SCORE,
    messageId: 'likely-typosquat',
    data: { intended: 'requests', rule: 'distance', distance: 1, how: 'one character differs' },
  },
  {
    name: 'PyPI pythondateutil → python-dateutil (separator)',
    evidence: pypiNamed('pythondateutil'),
    score: TYPOSQUAT_SCORE,
    messageId: 'likely-typosquat',
    data: { intended: 'python-dateutil', rule: 'separator' },
  },
  { name: 'PyPI nurnpy → numpy (homoglyph rn/m)', evidence: pypiNamed('nurnpy'), score: TYPOSQUAT_SCORE, messageId: 'likely-typosquat', data: { intended: 'numpy', rule: 'homoglyph' } },
  { name: 'PyPI aiohtttps → aiohttp (repeat)', evidence: pypiNamed('aiohtttps'), score: TYPOSQUAT_SCORE, messageId: 'likely-typosquat', data: { intended: 'aiohttp', rule: 'repeat', distance: 2 } },
  { name: 'PyPI huggingface_hubs → huggingface-hub (plural)', evidence: pypiNamed('huggingface_hubs'), score: TYPOSQUAT_SCORE, messageId: 'likely-typosquat', data: { intended: 'huggingface-hub', rule: 'plural', distance: 1 } },
  { name: 'PyPI Python.Flask → flask (affix)', evidence: pypiNamed('Python.Flask'), score: TYPOSQUAT_SCORE, messageId: 'likely-typosquat', data: { intended: 'flask', rule: 'affix', distance: 7 } },
  { name: 'PyPI urlllib → urllib3 (repeat: a triple letter is no version sibling)', evidence: pypiNamed('urlllib'), score: TYPOSQUAT_SCORE, messageId: 'likely-typosquat', data: { intended: 'urllib3', rule: 'repeat', distance: 2 } },
  { name: 'PyPI matlibplot → matplotlib (anagram)', evidence: pypiNamed('matlibplot'), score: TYPOSQUAT_SCORE, messageId: 'likely-typosquat', data: { intended: 'matplotlib', rule: 'anagram', distance: 6 } },
  { name: 'PyPI pydash wraps dash: a py prefix is not read', evidence: pypiNamed('pydash'), score: 100, messageId: 'distinct' },
  { name: 'PyPI: an npm name is not compared with npm packages', evidence: pypiNamed('l0dash'), score: 100, messageId: 'distinct' },
  { name: 'PyPI: a distinct project', evidence: pypiNamed('example'), score: 100, messageId: 'distinct' },
  {
    name: 'PyPI: close to a popular project but widely used itself',
    evidence: pypiNamed('reqeusts', 2_000_000),
    score: 100,
    messageId: 'widely-used',
  },
]);

describe('typosquat check', () => {
  it('holds the verdict on a likely typosquat, naming the intended package, and only then', () => {
    expect(outcomeOf(check, named('crossenv')).holdVerdict).toMatch(/^the name can be mistaken for the popular cross-env \(.+\): check that you meant cross-env; the hold lifts once/);
    expect(outcomeOf(check, named('example')).holdVerdict).toBeUndefined();
    const undated = evidence({ registry: { name: 'electron-rebuild', version: '0.5.0', trimmed: true, versions: WITHHELD }, downloads: { lastWeek: null } });
    expect(outcomeOf(check, undated).holdVerdict).toMatch(/^the name can be mistaken for the popular @electron\/rebuild \(.+\): check that you meant @electron\/rebuild; .*6 releases.*cannot be told/);
  });

  it('is unknown only when the release facts are unavailable', () => {
    expect(check.needs).toEqual(['release']);
    expect(check.optional).toEqual(['downloads']);
  });

  it('answers the same every time', () => {
    const ev = named('crossenv');
    expect(outcomeOf(check, ev)).toEqual(outcomeOf(check, ev));
  });

  it('names the list it compares with in its description', () => {
    expect(check.description).toMatch(/npm-high-impact \d+\.\d+\.\d+/);
  });
});
