/**
 * publisher-continuity: whether the account that published this version also published the
 * previous one (a changed publishing account is how hijacked packages show).
 */
import { defineCheck } from './define.js';

export default defineCheck({
  id: 'publisher-continuity',
  dimension: 'security',
  weight: 1,
  needs: ['registry'],
  title: 'Publisher continuity',
  description:
    'Compares the npm account that published this version (`_npmUser`) with the one that published the version before it (npm only: PyPI does not say who uploaded a release). ' +
    'The same account, or no earlier version, scores 100; a different account 60; unknown when the registry does not name the publishers.',
  messages: {
    same: 'Published by {publisher}, as the previous version',
    first: 'Published by {publisher}; no earlier version',
    changed: 'Publisher changed: {previousPublisher} published the previous version, {publisher} this one',
    unknown: 'Publisher unknown: the registry did not name who published this version',
    'previous-unknown': 'Published by {publisher}; the publisher of the previous version is unknown',
  },
  evaluate: ({ registry }) => {
    const { publisher, previousPublisher } = registry;
    if (publisher === null) return { score: null, messageId: 'unknown', data: { publisher, previousPublisher } };
    const index = registry.versions.findIndex((v) => v.version === registry.version);
    if (index === 0 && previousPublisher === null) {
      return { score: 100, messageId: 'first', data: { publisher, previousPublisher } };
    }
    if (previousPublisher === null) {
      return { score: null, messageId: 'previous-unknown', data: { publisher, previousPublisher } };
    }
    if (previousPublisher === publisher) {
      return { score: 100, messageId: 'same', data: { publisher, previousPublisher } };
    }
    return { score: 60, messageId: 'changed', data: { publisher, previousPublisher } };
  },
});
