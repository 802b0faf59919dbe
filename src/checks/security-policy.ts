/**
 * security-policy: whether the project tells people how to report a vulnerability privately
 * (a SECURITY policy in the repository, or a SECURITY file shipped in the npm package).
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { GITHUB_ABSENT_MESSAGES, GITHUB_UNKNOWN_MESSAGES, readGithub } from './lib/github.js';

export default defineCheck({
  id: 'security-policy',
  dimension: 'security',
  weight: 2,
  needs: ['github'],
  optional: ['tarball'],
  title: 'Security policy',
  description:
    'Looks for a SECURITY policy in the repository (root, `.github/` or `docs/`, or GitHub\'s security-policy flag) or a SECURITY file shipped in the npm package: either scores 100, neither 0. ' +
    'Unknown when GitHub did not say whether the repository has one and the package ships none.',
  messages: {
    repository: 'Security policy in {repository}: vulnerabilities can be reported privately',
    shipped: 'Security policy shipped in the package ({file})',
    none: 'No security policy: no documented way to report a vulnerability privately',
    'policy-unknown': 'Unknown: GitHub did not say whether {repository} has a security policy',
    ...GITHUB_ABSENT_MESSAGES,
    ...GITHUB_UNKNOWN_MESSAGES,
  },
  evaluate: ({ github, tarball }) => {
    // The package's own file is its fact, not the repository's: it counts whatever the link says.
    const file = tarball?.securityFile ?? null;
    if (file !== null) return { score: 100, messageId: 'shipped', data: { file } };
    const read = readGithub(github, ['community']);
    if (!read.ok) return read.outcome;
    const policy = read.sections.community.securityPolicy;
    const data: Record<string, EvidenceValue> = { ...read.data, securityPolicy: policy, file: null };
    if (policy === null) return { score: null, messageId: 'policy-unknown', data };
    return policy ? { score: 100, messageId: 'repository', data } : { score: 0, messageId: 'none', data };
  },
});
