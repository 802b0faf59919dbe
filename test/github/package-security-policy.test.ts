/**
 * A package's verified repository's security policy, read with a token from the facts query
 * itself (graphql.ts `SECURITY_POLICY_PATHS`, source.ts; docs/scoring.md, security-policy): its text
 * comes with the one query, and GitHub is asked (one REST request,
 * `GET /repos/{owner}/{repo}/private-vulnerability-reporting`) only when the policy's only channel
 * is private reporting. The repository answer is acme/widget's recorded one; the policy texts placed
 * in it are real SECURITY.md files (fixtures/security-policies, fixtures/PROVENANCE.md) and the
 * private-reporting answers have the shape of GitHub's documented example (`{"enabled": true}`) —
 * placing them in widget's answer is an edit of the recorded answer, made here.
 */
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import { memoryFactsCache } from '../../src/sources/facts-cache.js';
import { fetchGithubFacts } from '../../src/sources/github/source.js';
import { contextFor, factsOf, NOW, npmClaim, TOKEN, widgetNode, useTokenServer } from './helpers.js';

const gh = useTokenServer();

const WIDGET = { host: 'github.com', owner: 'acme', name: 'widget' };
const GRAPHQL = '/github/graphql';
const PRIVATE_REPORTING = '/github/repos/acme/widget/private-vulnerability-reporting';
const policy = (name: string) => readFileSync(new URL(`../../fixtures/security-policies/${name}.md`, import.meta.url), 'utf8');
const recorded = (repo: string) => readFileSync(new URL(`../../fixtures/http/github/repos/${repo}/contents/SECURITY.md`, import.meta.url), 'utf8');
const blob = (text: string) => ({ byteSize: Buffer.byteLength(text), text, isTruncated: false, isBinary: false });

let queries: string[] = [];

/** The facts query's answer: widget's recorded node with the policy at `.github/SECURITY.md` (or none). */
function answer(policyText: string | null): void {
  queries = [];
  gh.server.route('POST', GRAPHQL, (_req, res: ServerResponse, { body }) => {
    queries.push((JSON.parse(body.toString('utf8')) as { query: string }).query);
    const node = { ...widgetNode(), workflowFiles: null, securityPolicy0: null, securityPolicy1: policyText === null ? null : blob(policyText), securityPolicy2: null };
    const text = JSON.stringify({ data: { r0: node } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
    res.end(text);
  });
}

const facts = async () => factsOf(await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, npmClaim('widget')));
const privateReportingAsked = () => gh.server.requests.filter((r) => r.path === PRIVATE_REPORTING).length;

describe("a package's verified repository's security policy", () => {
  test('its text comes with the facts query: one request, no more (a placeholder address is judged from it)', async () => {
    answer(recorded('blazickjp/arxiv-mcp-server'));
    const got = await facts();
    expect(got.link.verifiedBy).toBe('manifest');
    expect(got.via).toEqual({ api: 'graphql', requests: 1 });
    expect(got.securityPolicyText).toMatchObject({ path: '.github/SECURITY.md', truncated: false });
    expect(got.securityPolicyText?.text).toContain('maintainer@example.com');
    expect(got.privateReporting).toBeUndefined();
    expect(queries[0]).toContain('securityPolicy0: object(expression: "HEAD:SECURITY.md")');
    expect(queries[0]).toContain('securityPolicy1: object(expression: "HEAD:.github/SECURITY.md")');
    expect(queries[0]).toContain('securityPolicy2: object(expression: "HEAD:docs/SECURITY.md")');
    expect(privateReportingAsked()).toBe(0);
  });

  test('none at the paths asked: null (the policy then counts by its presence), still one request', async () => {
    answer(null);
    const got = await facts();
    expect(got.securityPolicyText).toBeNull();
    expect(got.via.requests).toBe(1);
  });

  test('private reporting its only channel: GitHub is asked once, and says it is not enabled', async () => {
    answer(policy('froazin-winode'));
    gh.server.expect('GET', PRIVATE_REPORTING, { body: { enabled: false } });
    const got = await facts();
    expect(got.privateReporting).toEqual({ enabled: false, reason: null });
    expect(got.via.requests).toBe(2);
    expect(privateReportingAsked()).toBe(1);
  });

  test('private reporting its only channel, enabled', async () => {
    answer(policy('froazin-winode'));
    gh.server.expect('GET', PRIVATE_REPORTING, { body: { enabled: true } });
    expect((await facts()).privateReporting).toEqual({ enabled: true, reason: null });
  });

  test('GitHub refuses (403): unknown with the reason, never a made-up value', async () => {
    answer(policy('froazin-winode'));
    gh.server.expect('GET', PRIVATE_REPORTING, { status: 403, body: { message: 'Resource not accessible by personal access token' } });
    const refused = await facts();
    expect(refused.privateReporting?.enabled).toBeNull();
    expect(refused.privateReporting?.reason).toMatch(/^private vulnerability reporting: /);
  });

  test('GitHub answers another shape: unknown with the reason', async () => {
    answer(policy('froazin-winode'));
    gh.server.expect('GET', PRIVATE_REPORTING, { body: { enabled: 'yes' } });
    const odd = await facts();
    expect(odd.privateReporting).toMatchObject({ enabled: null });
    expect(odd.privateReporting?.reason).toContain('unexpected shape');
  });

  test('an address beside private reporting: GitHub is not asked (neutrinolabs/xrdp, real)', async () => {
    answer(policy('neutrinolabs-xrdp'));
    const got = await facts();
    expect(got.privateReporting).toBeUndefined();
    expect(got.via.requests).toBe(1);
    expect(privateReportingAsked()).toBe(0);
  });

  test('the facts cache: private reporting GitHub could not say about is asked again next run; an answer is kept', async () => {
    const twice = async (response: { status?: number; body: object }) => {
      answer(policy('froazin-winode'));
      gh.server.expect('GET', PRIVATE_REPORTING, { ...response, times: 2 });
      const ctx = { ...contextFor(gh.server, gh.client.http, TOKEN), facts: memoryFactsCache(() => NOW.getTime()) };
      factsOf(await fetchGithubFacts(ctx, WIDGET, npmClaim('widget')));
      factsOf(await fetchGithubFacts(ctx, WIDGET, npmClaim('widget')));
      return queries.length;
    };
    expect(await twice({ status: 403, body: { message: 'Forbidden' } })).toBe(2);
    expect(await twice({ body: { enabled: false } })).toBe(1);
  });
});
