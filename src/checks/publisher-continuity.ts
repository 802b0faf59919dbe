/**
 * publisher-continuity: whether the account that published this version is one the package
 * already trusted — the publisher of the previous version, of any earlier version, or a listed
 * maintainer. An account that is none of those is how hijacked packages show; it is scored
 * here once (release-anomalies counts it only in combination with other changes).
 */
import { defineCheck } from './define.js';

export const UNKNOWN_PUBLISHER_SCORE = 60;

export default defineCheck({
  id: 'publisher-continuity',
  dimension: 'security',
  weight: 1,
  needs: ['registry'],
  title: 'Publisher continuity',
  description:
    'Compares the npm account that published this version (`_npmUser`) with the one that published the version before it, the publishers of every earlier version and the listed maintainers (npm only: PyPI does not say who uploaded a release). ' +
    `The same account, no earlier version, an account that published an earlier version, or a listed maintainer scores 100; an account that is none of those ${UNKNOWN_PUBLISHER_SCORE}; unknown when the registry does not name the publishers.`,
  messages: {
    same: 'Published by {publisher}, as the previous version',
    first: 'Published by {publisher}; no earlier version',
    'earlier-publisher': 'Published by {publisher}, who published earlier versions ({previousPublisher} published the previous one)',
    'listed-maintainer': 'Published by {publisher}, a listed maintainer ({previousPublisher} published the previous version)',
    changed: 'Publisher changed: {previousPublisher} published the previous version, {publisher} this one',
    unknown: 'Publisher unknown: the registry did not name who published this version',
    'previous-unknown': 'Published by {publisher}; the publisher of the previous version is unknown',
  },
  evaluate: ({ registry }) => {
    const { publisher, previousPublisher } = registry;
    const data = { publisher, previousPublisher };
    if (publisher === null) return { score: null, messageId: 'unknown', data };
    const index = registry.versions.findIndex((v) => v.version === registry.version);
    if (index === 0 && previousPublisher === null) return { score: 100, messageId: 'first', data };
    if (previousPublisher === null) return { score: null, messageId: 'previous-unknown', data };
    if (previousPublisher === publisher) return { score: 100, messageId: 'same', data };
    if (registry.priorPublishers?.includes(publisher)) return { score: 100, messageId: 'earlier-publisher', data };
    if (registry.maintainerNames?.includes(publisher)) return { score: 100, messageId: 'listed-maintainer', data };
    return { score: UNKNOWN_PUBLISHER_SCORE, messageId: 'changed', data };
  },
});
