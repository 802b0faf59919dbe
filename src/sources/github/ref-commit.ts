/**
 * The commit a ref names (`github:owner/repo@ref`: a tag, a branch or a commit sha), asked once
 * before a pinned target's files are read, so that every file comes from that one commit and a
 * branch moving between requests cannot mix two states (docs/scoring.md §9, "A pinned ref").
 *
 * One request: `GET …/commits/{ref}` with the `application/vnd.github.sha` media type, which GitHub
 * answers with the commit's sha alone as plain text (not the commit with its files and patches).
 * GitHub answers 422 ("No commit found for SHA: …") or 404 for a ref the repository does not
 * have: the ref is missing, never replaced by the default branch. Any other failure, or an answer
 * that is not one sha, is an error with its reason.
 */
import { joinUrl } from '../http/url.js';
import { COMMIT_SHA } from './raw-files.js';
import { failureReason, githubRequest, oneLine, type GithubCall } from './request.js';

/** GitHub's media type for a commit's sha alone. */
const ACCEPT_SHA = 'application/vnd.github.sha';
/** A sha is 40 or 64 characters; a little more for a line end. */
const MAX_SHA_BYTES = 128;

export type RefCommit = { kind: 'commit'; sha: string } | { kind: 'missing'; reason: string } | { kind: 'error'; reason: string };

/** The commit `ref` names in the repository at `base` (`…/repos/{owner}/{name}`). Throws only GithubStop (a rate limit). */
export async function resolveRefCommit(call: GithubCall, base: string, ref: string): Promise<RefCommit> {
  // A ref with slashes (`release/1.x`) is one path segment: its slashes percent-encoded.
  const answer = await githubRequest(call, { url: joinUrl(base, 'commits', ref), accept: ACCEPT_SHA, maxBytes: MAX_SHA_BYTES });
  if (!answer.ok) {
    if (answer.status === 404 || answer.status === 422) return { kind: 'missing', reason: `GitHub has no commit for the ref (HTTP ${answer.status})` };
    return { kind: 'error', reason: `the ref's commit: ${failureReason(answer)}` };
  }
  const sha = answer.body.toString('utf8').trim().toLowerCase();
  if (!COMMIT_SHA.test(sha)) return { kind: 'error', reason: `the ref's commit: GitHub's answer is not a commit sha (${JSON.stringify(oneLine(sha, 48))})` };
  return { kind: 'commit', sha };
}
