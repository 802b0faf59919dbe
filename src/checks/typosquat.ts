/**
 * typosquat: whether the package name is confusable with a far more popular package's name
 * (a separator, scope, look-alike character or one- or two-letter difference), using the
 * popular names shipped as data for the target's ecosystem. Pure: no network.
 */
import { defineCheck } from './define.js';
import { PYPI_POPULAR } from '../ecosystems/pypi/popular-names.js';
import { packageRulesOf } from '../ecosystems/rules.js';
import { ESTABLISHED_MIN_DAYS, ESTABLISHED_MIN_RELEASES, establishment } from './lib/releases.js';
import { POPULAR_LIST, findIntended, isPopular, popularIndexFor, type TyposquatRule } from './lib/typosquat.js';

/** Weekly downloads from which a package is popular in its own right (npm's high-impact bar). */
export const WIDELY_USED_WEEKLY_DOWNLOADS = 1_000_000;
export const TYPOSQUAT_SCORE = 15;

/** How the names are confusable, in a user's words (the evidence keeps the rule's id). */
const RULE_WORDS: Record<TyposquatRule, (distance: number) => string> = {
  separator: () => 'only the separators differ',
  scope: () => 'the same name under another scope',
  homoglyph: () => 'look-alike characters',
  distance: (distance) => (distance === 1 ? 'one character differs' : `${distance} characters differ`),
  repeat: () => 'a repeated character, read once',
  plural: () => 'an `s` added',
  affix: () => 'a Python prefix added',
  anagram: () => 'the same characters in another order',
  suffix: () => 'a version or a word such as latest added',
  digit: () => 'a digit of the name dropped',
  joined: () => 'the words run together, one character differs',
  word: () => 'one of its words is the name misspelt',
  'scope-extended': () => 'letters added to a popular scope',
};

export default defineCheck({
  id: 'typosquat',
  dimension: 'security',
  weight: 2,
  needs: ['release'],
  optional: ['downloads'],
  title: 'Not a typosquat',
  description:
    `Compares the name with the high-impact npm packages shipped with nerq (${POPULAR_LIST.name} ${POPULAR_LIST.version}), or for PyPI with nerq's hand-curated list of ${PYPI_POPULAR.length} widely used projects (names PEP 503 normalised on both sides). ` +
    'A name that is not on the list but equals a popular one once separators are removed (`crossenv`, `pythondateutil`), reads as a popular scoped name (`types-react`), ' +
    'uses look-alike characters (`l0dash`), is one edit away (two from 8 letters; swaps count as one, separators read alike) in a part of 5 letters or more (`electorn`, `reqeusts`, `bigumner-js`) or lacks one character of a part of 4 letters or more in a name of two parts or more (`wb3-eth`), publishes a popular scoped name under a scope one edit away from its own (3 letters or more: `@type/node`, `@aws-sdkk/client-s3`), ' +
    'or, when none of these match, equals a popular name once runs of a repeated character are read once on both sides (5 letters or more: `aaiohttpp`, `pupeter`; with a character three times in a row, the edit rule above applies to the names so read: `aiohtttps`), adds an `s` to one part of a popular name of two parts or more (`huggingface-hubs`), puts `python-`, `python3-` or `python` before a popular name of 4 letters or more (`python-flask`), reorders the characters within the parts of an unscoped popular name of 5 letters or more, keeping its first two (`matlibplot`, `sphinx-rdt-theme`), ' +
    'adds `-latest`, `-official`, `-old`, `-older`, `-real`, `-genuine`, `-original`, `-authentic`, `-aliased` or a version number of one or two digits to a popular name of 4 letters or more (`uuid-latest`, `jquery-real`, `react-dom-16`), drops the digits ending a part before a `-` when the 3 or more letters left are no popular name themselves (`web-bzz` / `web3-bzz`), runs the parts of an unscoped popular name together with one more edit, its first letter kept (6 letters or more: `web3ethabii`), misspells by one edit, its first letter and last two kept, an unscoped popular name of one word of 7 letters or more as the first part of a longer name, the part being no word of any popular name (`pupeteer-cluster`), or adds up to 3 letters to the end of a popular scope of 8 letters or more (`@typescript_eslinter/eslint`), ' +
    `scores ${TYPOSQUAT_SCORE} and names the likely intended package. ` +
    `Names on the list, packages with 1,000,000 or more downloads last week, and established packages (a first release at least ${ESTABLISHED_MIN_DAYS} days ago and at least ${ESTABLISHED_MIN_RELEASES} releases) score 100; with ${ESTABLISHED_MIN_RELEASES} releases or more whose dates are a mirror's own (withheld: docs/scoring.md §12), whether the package is established cannot be told, so the check is unknown and holds the verdict, as a likely typosquat does at CAUTION.`,
  messages: {
    popular: 'On the list of high-impact npm packages',
    'popular-pypi': "On nerq's list of widely used PyPI projects",
    'likely-typosquat': 'The name can be mistaken for the popular `{intended}` ({how}): check that you meant {intended}',
    'widely-used': 'The name can be mistaken for the popular `{intended}` ({how}), but with {lastWeek} downloads last week it is widely used itself',
    established: 'The name can be mistaken for the popular `{intended}` ({how}), but it is established: {releases} releases since {firstRelease}',
    undated: 'The name can be mistaken for the popular `{intended}` ({how}); whether it is established cannot be told: the dates of its {releases} releases are unknown (the registry\'s times are a mirror\'s own)',
    distinct: 'No popular package with a confusable name',
  },
  evaluate: ({ release, downloads }, { now }) => {
    const { canonicalName, registry } = packageRulesOf(release.ecosystem);
    const name = canonicalName(release.name);
    const index = popularIndexFor(release.ecosystem);
    if (isPopular(name, index)) {
      return { score: 100, messageId: registry.popular.messageId, data: { intended: null, rule: null, distance: null } };
    }
    const match = findIntended(name, index);
    if (match === null) return { score: 100, messageId: 'distinct', data: { intended: null, rule: null, distance: null } };
    const data = { intended: match.intended, rule: match.rule, distance: match.distance, how: RULE_WORDS[match.rule](match.distance) };
    const lastWeek = downloads?.lastWeek ?? null;
    if (lastWeek !== null && lastWeek >= WIDELY_USED_WEEKLY_DOWNLOADS) {
      return { score: 100, messageId: 'widely-used', data: { ...data, lastWeek } };
    }
    const established = establishment(release.releases, now);
    if (established !== null) return { score: 100, messageId: 'established', data: { ...data, ...established } };
    // Dates a mirror withheld (docs/scoring.md §12) cannot show a package established, nor show it is not: unknown, never
    // scored as a typosquat. Fewer releases than the rule needs are not established whatever their dates.
    const releases = release.releases.length;
    if (release.timesWithheld !== null && releases >= ESTABLISHED_MIN_RELEASES) {
      return {
        score: null,
        messageId: 'undated',
        data: { ...data, releases },
        holdVerdict: `the name can be mistaken for the popular ${match.intended} (${data.how}): check that you meant ${match.intended}; with the dates of its ${releases} releases unknown (the registry's times are a mirror's own), whether it is established (${ESTABLISHED_MIN_RELEASES} releases over ${ESTABLISHED_MIN_DAYS} days) cannot be told; a registry that serves publish times would lift this`,
      };
    }
    return {
      score: TYPOSQUAT_SCORE,
      messageId: 'likely-typosquat',
      data,
      holdVerdict: `the name can be mistaken for the popular ${match.intended} (${data.how}): check that you meant ${match.intended}; the hold lifts once the package is established (${ESTABLISHED_MIN_RELEASES} releases over ${ESTABLISHED_MIN_DAYS} days) or widely used`,
    };
  },
});
