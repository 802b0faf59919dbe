/**
 * A github.com repository's files from GitHub's raw file hosting
 * (`<githubRaw>/<owner>/<repo>/<commit>/<path>`, endpoints.ts `githubRaw`), which does not spend
 * the REST API's rate limit: how workflow files are read without a token (workflow-files.ts;
 * docs/scoring.md, "Repository files").
 *
 * Always at a commit sha, never a branch name, so the files are those of the tree that was
 * listed. No token is ever sent there (source.ts `githubAuthFor` names only the API origins): nerq
 * reads public repositories, which raw hosting serves to anyone. Each path from the tree listing
 * is checked and encoded segment by segment (an empty, `.` or `..` segment, a backslash or a
 * control character: the file is not asked for), so no listing can make a request leave the
 * repository's folder at that commit. One request each, with the file's size cap; a 404 is a
 * missing file, any other failure an unread file with its reason, and a 429 (or a 403 rate-limit
 * answer) stops raw hosting alone for the run — never the REST API, never an exception.
 */
import { joinUrl } from '../http/url.js';
import type { FileRead } from './link.js';
import { classifyRateLimit } from './rate-limit.js';
import type { GithubCall } from './request.js';

/** Where one repository's files are read: the raw base, the repository and the commit of its listed tree. */
export interface RawAt {
  base: string;
  owner: string;
  name: string;
  commit: string;
}

/** A 40 (SHA-1) or 64 (SHA-256) hex digit commit id: the only refs raw reads are pinned to. */
export const COMMIT_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** The URL of `path` at `at`, or null when a segment cannot be one literal segment of the repository's path. */
export function rawFileUrl(at: RawAt, path: string): string | null {
  if (!COMMIT_SHA.test(at.commit)) return null;
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || /[\u0000-\u001f\u007f\\]/.test(s))) return null;
  const folder = joinUrl(at.base, at.owner, at.name, at.commit);
  const url = joinUrl(folder, ...segments);
  // The URL as a client resolves it must stay in the repository's folder at that commit.
  try {
    return new URL(url).pathname.startsWith(`${new URL(folder).pathname}/`) ? url : null;
  } catch {
    return null;
  }
}

/** Read `paths` (each at most `maxBytes`) from raw hosting; every path gets an answer. */
export async function readRawFiles(call: GithubCall, at: RawAt, paths: readonly string[], maxBytes: number): Promise<Map<string, FileRead>> {
  const out = new Map<string, FileRead>();
  await Promise.all(
    paths.map(async (path) => {
      const url = rawFileUrl(at, path);
      if (url === null) return void out.set(path, { kind: 'error', reason: 'the path cannot be asked of raw file hosting safely' });
      const stopped = call.limiter.stoppedFor(at.base, call.now);
      if (stopped !== null) return void out.set(path, { kind: 'error', reason: stopped });
      const res = await call.http.request({ url, method: 'GET', headers: { accept: 'text/plain' }, maxBytes, retryRateLimited: false });
      if (res.ok) {
        if (res.status === 200) out.set(path, { kind: 'file', text: res.body.toString('utf8') });
        else out.set(path, { kind: 'error', reason: `GitHub's raw file host answered HTTP ${res.status}` });
        return;
      }
      if (res.status === 404) return void out.set(path, { kind: 'missing' });
      const verdict = res.status === 429 || res.status === 403 ? classifyRateLimit(res.status, res.headers, null, call.now, call.tokenInUse) : null;
      if (verdict !== null && verdict.kind !== 'fine') {
        const reason = `GitHub's raw file host is rate limiting (HTTP ${res.status})`;
        call.limiter.stop(at.base, reason, verdict.resumeAt, call.now);
        return void out.set(path, { kind: 'error', reason });
      }
      out.set(path, { kind: 'error', reason: res.reason, ...(res.kind === 'too-large' ? { oversize: true as const } : {}) });
    }),
  );
  return out;
}
