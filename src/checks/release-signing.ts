/**
 * release-signing: whether the files attached to GitHub releases come with signatures or
 * provenance (`.sig`, `.asc`, `.sigstore`, `.intoto.jsonl`, …) so a download can be verified.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { GITHUB_ABSENT_MESSAGES, GITHUB_UNKNOWN_MESSAGES, readGithub } from './lib/github.js';

export default defineCheck({
  id: 'release-signing',
  dimension: 'security',
  weight: 1,
  needs: ['github'],
  title: 'Signed releases',
  description:
    'Looks at the assets of the newest GitHub releases: the latest release signed and every examined one too scores 100, the latest signed but not all older ones 80, only older releases signed 40, none 0. ' +
    'Unknown when the repository has no GitHub releases, or when the latest one has no assets to sign (source-only releases; npm provenance is the provenance check).',
  messages: {
    signed: 'Latest release {tag} is signed ({signatureAssets}); {signedReleases} of {examined} releases examined carry signatures',
    'partly-signed': 'Latest release {tag} is signed ({signatureAssets}), but only {signedReleases} of {examined} releases examined are',
    lapsed: 'Latest release {tag} carries no signature, though {signedReleases} of {examined} releases examined do',
    unsigned: 'None of {examined} releases examined carries a signature or provenance asset (latest: {tag})',
    'no-releases': 'Unknown: no GitHub releases to check',
    'no-assets': 'Unknown: latest release {tag} has no assets to sign',
    ...GITHUB_ABSENT_MESSAGES,
    ...GITHUB_UNKNOWN_MESSAGES,
  },
  evaluate: ({ github }) => {
    const read = readGithub(github, ['releases']);
    if (!read.ok) return read.outcome;
    const { releases } = read.sections;
    const { latest, signedReleases, examined } = releases;
    if (latest === null || examined <= 0) {
      return { score: null, messageId: 'no-releases', data: { ...read.data, examined, last12Months: releases.last12Months } };
    }
    const data: Record<string, EvidenceValue> = {
      ...read.data,
      tag: latest.tag,
      publishedAt: latest.publishedAt,
      assets: latest.assets,
      signatureAssets: latest.signatureAssets,
      signedReleases,
      examined,
      last12Months: releases.last12Months,
    };
    const latestSigned = latest.signatureAssets.length > 0;
    if (!latestSigned && latest.assets <= 0 && signedReleases <= 0) return { score: null, messageId: 'no-assets', data };
    if (latestSigned) {
      return signedReleases >= examined
        ? { score: 100, messageId: 'signed', data }
        : { score: 80, messageId: 'partly-signed', data };
    }
    if (signedReleases > 0) return { score: 40, messageId: 'lapsed', data };
    return { score: 0, messageId: 'unsigned', data };
  },
});
