/**
 * typosquat: whether the package name is confusable with a far more popular package's name
 * (a separator, scope, look-alike character or one- or two-letter difference), using the
 * popular npm names shipped as data. Pure: no network.
 */
import { defineCheck } from './define.js';
import { POPULAR_LIST, findIntended, isPopular } from './lib/typosquat.js';

/** Weekly downloads from which a package is popular in its own right (npm's high-impact bar). */
export const WIDELY_USED_WEEKLY_DOWNLOADS = 1_000_000;
export const TYPOSQUAT_SCORE = 15;

export default defineCheck({
  id: 'typosquat',
  dimension: 'security',
  weight: 2,
  needs: ['registry'],
  optional: ['downloads'],
  title: 'Not a typosquat',
  description:
    `Compares the name with the high-impact npm packages shipped with nerq (${POPULAR_LIST.name} ${POPULAR_LIST.version}). ` +
    'A name that is not on the list but equals a popular one once separators are removed (`crossenv`), reads as a popular scoped name (`types-react`), ' +
    'uses look-alike characters (`l0dash`), or is one edit away (two from 8 letters; swaps count as one) in a part of 5 letters or more (`electorn`) scores 15 and names the likely intended package. ' +
    'Names on the list, and packages with 1,000,000 or more downloads last week, score 100.',
  messages: {
    popular: 'On the list of high-impact npm packages',
    'likely-typosquat': 'Name is close to the popular `{intended}` ({rule}); check you meant {intended}',
    'widely-used': 'Name is close to the popular `{intended}` ({rule}), but with {lastWeek} downloads last week it is widely used itself',
    distinct: 'No popular package with a confusable name',
  },
  evaluate: ({ registry, downloads }) => {
    const name = registry.name;
    if (isPopular(name)) return { score: 100, messageId: 'popular', data: { intended: null, rule: null, distance: null } };
    const match = findIntended(name);
    if (match === null) return { score: 100, messageId: 'distinct', data: { intended: null, rule: null, distance: null } };
    const data = { intended: match.intended, rule: match.rule, distance: match.distance };
    const lastWeek = downloads?.lastWeek ?? null;
    if (lastWeek !== null && lastWeek >= WIDELY_USED_WEEKLY_DOWNLOADS) {
      return { score: 100, messageId: 'widely-used', data: { ...data, lastWeek } };
    }
    return { score: TYPOSQUAT_SCORE, messageId: 'likely-typosquat', data };
  },
});
