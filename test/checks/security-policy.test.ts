import check from '../../src/checks/security-policy.js';
import type { GithubCommunity } from '../../src/evidence/schema.js';
import type { PrivateReporting } from '../../src/evidence/github-facts.js';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { evidence, githubFacts, unavailable } from '../support/evidence-builder.js';
import { FIXTURES_ROOT } from '../support/fixture-server.js';
import { repoFiles, repositoryEvidence } from '../support/repository-evidence.js';
import { checkTable } from './check-table.js';
import { absentGithub, describeGithubSource, githubRuleCases, starjacked } from './github-cases.js';

const COMMUNITY: GithubCommunity = {
  readme: true,
  contributing: true,
  codeOfConduct: true,
  issueTemplate: true,
  pullRequestTemplate: true,
  securityPolicy: true,
  healthPercentage: 100,
};
/** A repository target whose SECURITY.md says `text` (the recorded policies of fixtures/github-repos, or a written one). */
const withPolicy = (text: string, file = 'SECURITY.md', privateReporting?: PrivateReporting) =>
  repositoryEvidence({
    files: repoFiles({ securityPolicy: file, securityPolicyText: { path: file, text, truncated: false }, ...(privateReporting === undefined ? {} : { privateReporting }) }),
  });
const recorded = (repo: string) => readFileSync(path.join(FIXTURES_ROOT, 'github', 'repos', repo, 'contents', 'SECURITY.md'), 'utf8');
/** Real SECURITY.md texts (fixtures/security-policies, fixtures/PROVENANCE.md). */
const realPolicy = (name: string) => readFileSync(fileURLToPath(new URL(`../../fixtures/security-policies/${name}.md`, import.meta.url)), 'utf8');
const ENABLED: PrivateReporting = { enabled: true, reason: null };
const DISABLED: PrivateReporting = { enabled: false, reason: null };
const FORBIDDEN: PrivateReporting = { enabled: null, reason: 'private vulnerability reporting: HTTP 403' };
/** A package's verified repository whose SECURITY.md the facts query read (with a token). */
const packagePolicy = (text: string | null, privateReporting?: PrivateReporting, file = '.github/SECURITY.md') =>
  evidence({
    github: githubFacts({
      community: COMMUNITY,
      securityPolicyText: text === null ? null : { path: file, text, truncated: false },
      ...(privateReporting === undefined ? {} : { privateReporting }),
    }),
  });

const policy = (securityPolicy: boolean | null) => githubFacts({ community: { ...COMMUNITY, securityPolicy } });

checkTable(check, [
  {
    name: 'policy in the repository',
    evidence: evidence({ github: {} }),
    score: 100,
    messageId: 'repository',
    data: { repository: 'example/example', securityPolicy: true, file: null },
    message: ['Security policy in example/example'],
  },
  {
    name: 'no policy anywhere',
    evidence: evidence({ github: policy(false) }),
    score: 0,
    messageId: 'none',
    data: { securityPolicy: false },
  },
  {
    name: 'no policy in the repository, but the npm package ships SECURITY.md',
    evidence: evidence({ tarball: { securityFile: 'SECURITY.md' }, github: policy(false) }),
    score: 100,
    messageId: 'shipped',
    data: { file: 'SECURITY.md' },
    message: ['Security policy shipped in the package (SECURITY.md)'],
  },
  {
    name: 'GitHub did not say: unknown',
    evidence: evidence({ github: policy(null) }),
    score: null,
    messageId: 'policy-unknown',
    message: ['Unknown: GitHub did not say whether example/example has a security policy'],
  },
  {
    name: 'GitHub did not say, the package ships one: 100',
    evidence: evidence({ tarball: { securityFile: '.github/SECURITY.md' }, github: policy(null) }),
    score: 100,
    messageId: 'shipped',
  },
  {
    name: 'tarball unavailable, no repository policy',
    evidence: evidence({ tarball: unavailable('HTTP 503'), github: policy(false) }),
    score: 0,
    messageId: 'none',
  },
  {
    name: 'the package\'s own file counts even when the repository link is unverified',
    evidence: evidence({ tarball: { securityFile: 'SECURITY.md' }, github: starjacked() }),
    score: 100,
    messageId: 'shipped',
  },
  {
    name: 'the package\'s own file counts even when the repository is missing',
    evidence: evidence({ tarball: { securityFile: 'SECURITY.md' }, github: absentGithub('missing') }),
    score: 100,
    messageId: 'shipped',
  },
  {
    name: 'a repository policy with an e-mail address (microsoft/playwright-mcp, recorded)',
    evidence: withPolicy(recorded('microsoft/playwright-mcp')),
    score: 100,
    messageId: 'channel',
    data: { file: 'SECURITY.md', channel: 'secure@microsoft.com', channelKind: 'e-mail' },
  },
  {
    name: "a repository policy that sends reports through GitHub's private vulnerability reporting (modelcontextprotocol/typescript-sdk, recorded)",
    evidence: withPolicy(recorded('modelcontextprotocol/typescript-sdk'), 'SECURITY.md', ENABLED),
    score: 100,
    messageId: 'channel',
    data: { channelKind: "GitHub's private vulnerability reporting" },
  },
  {
    name: 'a policy in .github/ linking to the new-advisory form',
    evidence: withPolicy('Report it at https://github.com/example/example/security/advisories/new please.', '.github/SECURITY.md', ENABLED),
    score: 100,
    messageId: 'channel',
    data: { file: '.github/SECURITY.md', channel: 'https://github.com/example/example/security/advisories/new' },
  },
  {
    name: 'a policy whose only address is a placeholder points nowhere (blazickjp/arxiv-mcp-server, recorded: maintainer@example.com)',
    evidence: withPolicy(recorded('blazickjp/arxiv-mcp-server')),
    score: 40,
    messageId: 'dangling',
    data: { placeholders: ['maintainer@example.com'] },
    message: ['points nowhere', 'maintainer@example.com'],
  },
  {
    name: 'a policy with no channel at all, only the public issue tracker',
    evidence: withPolicy('# Security\n\nPlease open an issue at https://github.com/example/example/issues if you find a problem.\n'),
    score: 40,
    messageId: 'dangling',
    data: { placeholders: [] },
  },
  {
    name: 'private reporting alone, GitHub says it is enabled (froazin/winode, real)',
    evidence: withPolicy(realPolicy('froazin-winode'), 'SECURITY.md', ENABLED),
    score: 100,
    messageId: 'channel',
    data: { channelKind: "GitHub's private vulnerability reporting" },
  },
  {
    name: 'private reporting alone, GitHub says it is not enabled: points nowhere (froazin/winode, real)',
    evidence: withPolicy(realPolicy('froazin-winode'), 'SECURITY.md', DISABLED),
    score: 40,
    messageId: 'dangling',
    data: { privateReporting: false, placeholders: [] },
  },
  {
    name: 'private reporting alone, GitHub refused to say (403): unknown with the reason, never credited',
    evidence: withPolicy(realPolicy('froazin-winode'), 'SECURITY.md', FORBIDDEN),
    score: null,
    messageId: 'private-reporting-unknown',
    data: { privateReporting: null, reason: 'private vulnerability reporting: HTTP 403', file: 'SECURITY.md' },
  },
  {
    name: 'private reporting alone, GitHub never asked (evidence saved before it was): unknown',
    evidence: withPolicy(recorded('modelcontextprotocol/typescript-sdk')),
    score: null,
    messageId: 'private-reporting-unknown',
    data: { reason: 'GitHub was not asked' },
  },
  {
    name: 'the advisory form and a mailing list (neutrinolabs/xrdp, real): the address counts, GitHub need not be asked',
    evidence: withPolicy(realPolicy('neutrinolabs-xrdp')),
    score: 100,
    messageId: 'channel',
    data: { channelKind: 'e-mail', channel: 'xrdp-core@googlegroups.com' },
  },
  {
    name: 'text that says private reporting is not enabled, and no other contact: points nowhere',
    evidence: withPolicy(realPolicy('not-enabled-no-contact')),
    score: 40,
    messageId: 'dangling',
    data: { placeholders: [] },
  },
  {
    name: 'text that says private reporting is not enabled yet ("once … is live"): the profile link, not private reporting',
    evidence: withPolicy(realPolicy('not-enabled-yet-profile')),
    score: 100,
    messageId: 'channel',
    data: { channelKind: 'a web form or page', channel: 'https://github.com/example-maintainer' },
  },
  {
    name: "a package's verified repository: a placeholder SECURITY.md read with the facts query points nowhere",
    evidence: packagePolicy(recorded('blazickjp/arxiv-mcp-server')),
    score: 40,
    messageId: 'dangling',
    data: { file: '.github/SECURITY.md', placeholders: ['maintainer@example.com'] },
  },
  {
    name: "a package's verified repository: an address in its SECURITY.md",
    evidence: packagePolicy(recorded('microsoft/playwright-mcp')),
    score: 100,
    messageId: 'channel',
    data: { channel: 'secure@microsoft.com' },
  },
  {
    name: "a package's verified repository: private reporting alone, not enabled",
    evidence: packagePolicy(realPolicy('froazin-winode'), DISABLED),
    score: 40,
    messageId: 'dangling',
    data: { privateReporting: false },
  },
  {
    name: "a package's verified repository with no SECURITY.md at the paths asked (another name listed): counted by presence",
    evidence: packagePolicy(null),
    score: 100,
    messageId: 'repository',
  },
  ...githubRuleCases({ sections: ['community'] }),
]);

describeGithubSource(check);
