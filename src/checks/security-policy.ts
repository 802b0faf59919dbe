/**
 * security-policy: whether the project tells people how to report a vulnerability privately
 * (a SECURITY policy in the repository, or a SECURITY file shipped in the npm package), and, where
 * the policy's text was read (a repository target's own files; a package's verified repository's
 * SECURITY.md, read with a token), whether it gives a working channel (lib/security-channel.ts):
 * a policy that points nowhere is a warning that says so. A policy whose only channel is GitHub
 * private vulnerability reporting counts only when GitHub says the feature is on.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { GITHUB_ABSENT_MESSAGES, GITHUB_UNKNOWN_MESSAGES, readGithub } from './lib/github.js';
import { policyChannels } from './lib/security-channel.js';

/** A policy that names no working channel: present, but no way to report. */
export const DANGLING_SCORE = 40;

const CHANNEL_WORDS = { 'private-reporting': "GitHub's private vulnerability reporting", email: 'e-mail', url: 'a web form or page' } as const;

export default defineCheck({
  id: 'security-policy',
  dimension: 'security',
  weight: 2,
  needs: ['github'],
  optional: ['tarball'],
  title: 'Security policy',
  description:
    'Looks for a SECURITY policy in the repository (root, `.github/` or `docs/`, or GitHub\'s security-policy flag) or a SECURITY file shipped in the npm package: either scores 100, neither 0. ' +
    `Where the policy's text was read (a \`github:\` target; a package's verified repository with a token) it must give a working channel — GitHub private vulnerability reporting that GitHub says is enabled, an e-mail address or an http(s) URL, not a placeholder (example.com, your-domain) or the public issue tracker — else it scores ${DANGLING_SCORE} and says it points nowhere. ` +
    'Unknown when GitHub did not say whether the repository has one (or whether the private reporting a policy relies on alone is enabled) and the package ships none.',
  messages: {
    repository: 'Security policy in {repository}: vulnerabilities can be reported privately',
    shipped: 'Security policy shipped in the package ({file})',
    channel: 'Security policy in {file}: vulnerabilities can be reported privately by {channelKind} ({channel})',
    dangling: 'Security policy {file} points nowhere: {why}',
    none: 'No security policy: no documented way to report a vulnerability privately',
    'policy-unknown': 'Unknown: GitHub did not say whether {repository} has a security policy',
    'private-reporting-unknown': "Unknown: {file} names only GitHub's private vulnerability reporting, and whether it is enabled for {repository} is unknown ({reason})",
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
    // The policy's text (a repository target's own files, or a package's verified repository read
    // with a token): judge the channel it gives.
    const ownText = github.files?.securityPolicyText ?? null;
    const text = ownText ?? github.securityPolicyText ?? null;
    const privateReporting = ownText !== null ? github.files?.privateReporting : github.privateReporting;
    if (text !== null) {
      const { channel: named, fallback, placeholders } = policyChannels(text.text);
      const found = { ...data, securityPolicy: true, file: text.path, placeholders };
      // Private reporting counts only when GitHub says it is on; another working channel beside it counts as itself.
      const enabled = privateReporting?.enabled ?? null;
      const channel = named?.kind === 'private-reporting' && enabled !== true ? fallback : named;
      if (channel !== null) {
        return { score: 100, messageId: 'channel', data: { ...found, channelKind: CHANNEL_WORDS[channel.kind], channel: channel.value } };
      }
      if (named?.kind === 'private-reporting' && enabled === null) {
        const reason = privateReporting?.reason ?? 'GitHub was not asked';
        return { score: null, messageId: 'private-reporting-unknown', data: { ...found, privateReporting: null, reason } };
      }
      const why =
        named?.kind === 'private-reporting'
          ? "its only channel is GitHub's private vulnerability reporting, which GitHub says is not enabled for the repository"
          : placeholders.length > 0
            ? `its only contact is a placeholder (${placeholders.slice(0, 2).join(', ')}), so a report reaches nobody`
            : 'it gives no e-mail address, link or GitHub private vulnerability reporting to report through';
      return { score: DANGLING_SCORE, messageId: 'dangling', data: { ...found, ...(named === null ? {} : { privateReporting: false }), why } };
    }
    if (policy === null) return { score: null, messageId: 'policy-unknown', data };
    return policy ? { score: 100, messageId: 'repository', data } : { score: 0, messageId: 'none', data };
  },
});
