import check from '../../src/checks/release-signing.js';
import type { GithubReleases } from '../../src/evidence/schema.js';
import { daysAgo, evidence, githubFacts } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';
import { describeGithubSource, githubRuleCases } from './github-cases.js';

const releases = (r: Partial<GithubReleases> & { latestSignatures?: string[]; latestAssets?: number }) => {
  const { latestSignatures = ['tool-2.1.0.tar.gz.sig'], latestAssets = 4, ...rest } = r;
  return evidence({
    github: githubFacts({
      releases: {
        last12Months: 4,
        latest: { tag: 'v2.1.0', publishedAt: daysAgo(30), signatureAssets: latestSignatures, assets: latestAssets },
        signedReleases: 5,
        examined: 5,
        ...rest,
      },
    }),
  });
};

checkTable(check, [
  {
    name: 'healthy example: latest signed, 5 of 6 examined',
    evidence: evidence({ github: {} }),
    score: 80,
    messageId: 'partly-signed',
    data: { tag: 'v2.1.0', signatureAssets: ['example-2.1.0.tgz.sigstore'], signedReleases: 5, examined: 6 },
    message: ['Latest release v2.1.0 is signed (example-2.1.0.tgz.sigstore), but only 5 of 6 releases examined are'],
  },
  {
    name: 'every examined release signed',
    evidence: releases({}),
    score: 100,
    messageId: 'signed',
    message: ['Latest release v2.1.0 is signed (tool-2.1.0.tar.gz.sig); 5 of 5 releases examined carry signatures'],
  },
  {
    name: 'several signature kinds on the latest',
    evidence: releases({ latestSignatures: ['a.asc', 'a.intoto.jsonl'], signedReleases: 1, examined: 1 }),
    score: 100,
    messageId: 'signed',
    message: ['(a.asc, a.intoto.jsonl)'],
  },
  {
    name: 'latest unsigned, older ones signed: lapsed',
    evidence: releases({ latestSignatures: [], signedReleases: 3, examined: 5 }),
    score: 40,
    messageId: 'lapsed',
    message: ['Latest release v2.1.0 carries no signature, though 3 of 5 releases examined do'],
  },
  {
    name: 'no release signed',
    evidence: releases({ latestSignatures: [], signedReleases: 0, examined: 5 }),
    score: 0,
    messageId: 'unsigned',
    data: { assets: 4 },
    message: ['None of 5 releases examined carries a signature or provenance asset (latest: v2.1.0)'],
  },
  {
    name: 'latest has no assets at all: nothing to sign, unknown',
    evidence: releases({ latestSignatures: [], latestAssets: 0, signedReleases: 0, examined: 5 }),
    score: null,
    messageId: 'no-assets',
    message: ['Unknown: latest release v2.1.0 has no assets to sign'],
  },
  {
    name: 'latest without assets but older signed: lapsed, not unknown',
    evidence: releases({ latestSignatures: [], latestAssets: 0, signedReleases: 2, examined: 5 }),
    score: 40,
    messageId: 'lapsed',
  },
  {
    name: 'no GitHub releases: unknown, not 0',
    evidence: evidence({ github: githubFacts({ releases: { last12Months: 0, latest: null, signedReleases: 0, examined: 0 } }) }),
    score: null,
    messageId: 'no-releases',
    data: { examined: 0 },
    message: ['Unknown: no GitHub releases to check'],
  },
  ...githubRuleCases({ sections: ['releases'] }),
]);

describeGithubSource(check);
