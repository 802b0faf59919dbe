/**
 * Whether GitHub's private vulnerability reporting is on for a repository: one request,
 * `GET /repos/{owner}/{repo}/private-vulnerability-reporting` → `{"enabled": true|false}` (GitHub's
 * REST reference, "Check if private vulnerability reporting is enabled for a repository"; a public
 * repository answers without a token). Asked only when a security policy's only channel is private
 * reporting (docs/scoring.md, security-policy). A failure, a refusal (403, 404 on an older GitHub
 * Enterprise) or an answer of another shape is `enabled: null` with its reason, never a guess.
 */
import { z } from 'zod';
import type { PrivateReporting } from '../../evidence/github-facts.js';
import { policyChannels, onlyPrivateReporting } from '../../checks/lib/security-channel.js';
import { joinUrl } from '../http/url.js';
import { GithubStop, type GithubCall } from './request.js';
import { getJson } from './rest.js';

const AnswerSchema = z.object({ enabled: z.boolean() });

/** Ask GitHub (one request) when `policyText`'s only channel is private reporting; undefined (no request) otherwise. */
export async function privateReportingFor(call: GithubCall, base: string, policyText: string | null): Promise<PrivateReporting | undefined> {
  if (policyText === null || !onlyPrivateReporting(policyChannels(policyText))) return undefined;
  try {
    const got = await getJson(call, joinUrl(base, 'private-vulnerability-reporting'), AnswerSchema, 'private vulnerability reporting', { maxBytes: 4096 });
    return got.ok ? { enabled: got.value.enabled, reason: null } : { enabled: null, reason: got.reason };
  } catch (error) {
    // A rate limit stops GitHub requests: this fact alone is unknown.
    return { enabled: null, reason: error instanceof GithubStop ? error.reason : 'private vulnerability reporting: unexpected error' };
  }
}
