/**
 * `check_packages`' `includePackage` argument (docs/mcp.md), through the SDK client over an
 * in-memory transport against the fixture server: acme/widget publishes the npm package `widget`
 * (its link verifies), acme/gadget has the same files under another name (nothing verifies). Each
 * report says which package was folded in, or why none was; calls with and without the choice
 * never share an evaluation; bad choices are `bad-option` error results. `compare_packages` and
 * `find_alternatives` take the same choice for the targets the caller names (not for peers): one
 * target, one score, whichever tool asks, from one shared evaluation.
 */
import { describe, expect, it } from 'vitest';
import { AlternativesOutputSchema, CheckOutputSchema, CompareOutputSchema, type CheckedSchema } from '../../src/mcp/server.js';
import type { z } from 'zod';
import { repositorySearchRequests, serveNpmWidget, serveWidgetTopicSearch, WIDGET_VERSION } from '../cli/github-helpers.js';
import { serveRepo } from '../github/helpers.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { mcpFixture, jsonTextOf, textOf, type Connected } from './support.js';

let server: FixtureServer;
const connect = mcpFixture((started) => {
  server = started;
  serveRepo(server, 'acme/widget', {});
  serveRepo(server, 'acme/gadget', {});
  serveNpmWidget(server, 'widget');
});

type Checked = z.infer<typeof CheckedSchema>;
const tarballRequests = () => server.requests.filter((r) => r.method === 'GET' && r.path === `/npm/widget/-/widget-${WIDGET_VERSION}.tgz`).length;

describe('check_packages with includePackage', () => {
  it('the input schema offers it as optional; each report carries includedPackage with its code', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    const check = tools.find((t) => t.name === 'check_packages')!;
    expect(check.inputSchema.required).toEqual(['targets']);
    expect(Object.keys(check.inputSchema.properties ?? {})).toContain('includePackage');

    const result = await client.callTool({ name: 'check_packages', arguments: { targets: ['github:acme/widget', 'github:acme/gadget', 'widget'], includePackage: true } });
    expect(result.isError, textOf(result)).toBeFalsy();
    const { reports } = CheckOutputSchema.parse(result.structuredContent);
    expect(reports[0]?.includedPackage).toMatchObject({ included: true, code: 'root-manifest', ecosystem: 'npm', name: 'widget', version: WIDGET_VERSION });
    expect(reports[1]?.includedPackage).toMatchObject({ included: false, code: 'no-verified-package', name: null });
    // A package target takes no choice: its report has no such member.
    expect(reports[2]).not.toHaveProperty('includedPackage');
    expect(JSON.parse(jsonTextOf(result))).toEqual(result.structuredContent);

    const named = CheckOutputSchema.parse((await client.callTool({ name: 'check_packages', arguments: { targets: ['github:acme/widget'], includePackage: 'npm:widget' } })).structuredContent);
    expect(named.reports[0]?.includedPackage).toMatchObject({ included: true, code: 'named', name: 'widget' });
  });

  it('concurrent calls with and without it get their own reports; identical ones share one evaluation', async () => {
    const { client, evaluator } = await connect();
    const tarballs = tarballRequests();
    const call = (includePackage?: boolean) =>
      client.callTool({ name: 'check_packages', arguments: { targets: ['github:acme/widget'], ...(includePackage === undefined ? {} : { includePackage }) } });
    const [a, plain, b, off] = await Promise.all([call(true), call(), call(true), call(false)]);
    const [withA, without, withB, withFalse] = [a, plain, b, off].map((r) => CheckOutputSchema.parse(r.structuredContent).reports[0]) as [Checked, Checked, Checked, Checked];
    expect(withA.includedPackage?.code).toBe('root-manifest');
    expect(withB.includedPackage).toEqual(withA.includedPackage);
    expect(without).not.toHaveProperty('includedPackage');
    expect(withFalse).not.toHaveProperty('includedPackage');
    expect(evaluator.stats()).toMatchObject({ evaluations: 2, coalesced: 2 });
    expect(tarballRequests() - tarballs).toBe(1);
  });

  it('an invalid value, no repository target, a name that does not verify: bad-option error results', async () => {
    const { client } = await connect();
    const before = server.requests.length;
    for (const args of [
      { targets: ['github:acme/widget'], includePackage: '' },
      { targets: ['github:acme/widget'], includePackage: 'a b' },
      { targets: ['github:acme/widget'], includePackage: 'https://evil.example/x' },
      { targets: ['widget'], includePackage: true },
      { targets: ['widget', 'pypi:requests'], includePackage: 'widget' },
    ]) {
      const result = await client.callTool({ name: 'check_packages', arguments: args });
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(result), JSON.stringify(args)).toMatch(/^bad-option: /);
    }
    expect(server.requests.length).toBe(before);
    const result = await client.callTool({ name: 'check_packages', arguments: { targets: ['github:acme/widget'], includePackage: 'left-pad' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^bad-option: .*npm:widget/);
  });
});

const searchRequests = () => repositorySearchRequests(server);
const repositoryRequests = (fullName: string) => server.requests.filter((r) => r.path.startsWith(`/github/repos/${fullName}`)).length;
const checkedBy = async (client: Connected['client'], args: Record<string, unknown>): Promise<Checked[]> => {
  const result = await client.callTool({ name: 'check_packages', arguments: args });
  expect(result.isError, textOf(result)).toBeFalsy();
  return CheckOutputSchema.parse(result.structuredContent).reports;
};

describe('compare_packages and find_alternatives with includePackage: one target, one answer', () => {
  it('both tools offer it as optional', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    for (const name of ['compare_packages', 'find_alternatives']) {
      const tool = tools.find((t) => t.name === name)!;
      expect(Object.keys(tool.inputSchema.properties ?? {}), name).toContain('includePackage');
      expect(tool.inputSchema.required, name).not.toContain('includePackage');
    }
  });

  it('compare_packages: each target has the score check_packages gives it with the same choice, from the same evaluation', async () => {
    const { client, evaluator } = await connect();
    const [repository, npmPackage] = await checkedBy(client, { targets: ['github:acme/widget', 'widget'], includePackage: true });
    expect(repository!.includedPackage?.code).toBe('root-manifest');
    expect(evaluator.stats()).toMatchObject({ evaluations: 2, reused: 0 });

    const before = server.requests.length;
    const result = await client.callTool({ name: 'compare_packages', arguments: { targets: ['github:acme/widget', 'widget'], includePackage: true } });
    expect(result.isError, textOf(result)).toBeFalsy();
    const compared = CompareOutputSchema.parse(result.structuredContent);
    expect(compared.reports[0]!.score).toBe(repository!.score);
    expect(compared.reports[0]!.includedPackage).toEqual(repository!.includedPackage);
    expect(compared.reports[1]!.score).toBe(npmPackage!.score);
    expect(compared.reports[1]).not.toHaveProperty('includedPackage');
    // Both answered by check_packages' evaluations: nothing evaluated or fetched again.
    expect(evaluator.stats()).toMatchObject({ evaluations: 2, reused: 2 });
    expect(server.requests.length).toBe(before);

    // Without the choice the repository is compared alone — and check_packages agrees, from that evaluation.
    const alone = CompareOutputSchema.parse((await client.callTool({ name: 'compare_packages', arguments: { targets: ['github:acme/widget', 'widget'] } })).structuredContent);
    expect(alone.reports[0]).not.toHaveProperty('includedPackage');
    // An evaluation of its own (the scores may coincide: the evaluator's count tells them apart).
    expect(evaluator.stats()).toMatchObject({ evaluations: 3, reused: 3 });
    const [plain] = await checkedBy(client, { targets: ['github:acme/widget'] });
    expect(plain!.score).toBe(alone.reports[0]!.score);
    expect(evaluator.stats()).toMatchObject({ evaluations: 3, reused: 4 });
  });

  it('find_alternatives: the target ranked with the score check_packages gives it with the same choice; its peers evaluated as they are', async () => {
    serveWidgetTopicSearch(server);
    const { client, evaluator } = await connect();
    const [folded] = await checkedBy(client, { targets: ['github:acme/widget'], includePackage: true });
    const widgetReads = repositoryRequests('acme/widget');
    const tarballs = tarballRequests();
    const searches = searchRequests();

    const result = await client.callTool({ name: 'find_alternatives', arguments: { target: 'github:acme/widget', includePackage: true } });
    expect(result.isError, textOf(result)).toBeFalsy();
    const found = AlternativesOutputSchema.parse(result.structuredContent);
    expect(found.target.score).toBe(folded!.score);
    expect(found.target.includedPackage).toEqual(folded!.includedPackage);
    expect(found.target.includedPackage?.code).toBe('root-manifest');
    // The target's evaluation is check_packages': its repository and package are not read again.
    expect(repositoryRequests('acme/widget')).toBe(widgetReads);
    expect(tarballRequests()).toBe(tarballs);
    expect(searchRequests()).toBe(searches + 1);
    // One peer: too few for a standing, kept in `unavailable`.
    expect(found.comparison).toBeNull();
    expect(found.unavailable?.members?.map((m) => m.target)).toEqual([expect.stringMatching(/^acme\/gadget/)]);
    // One evaluation for the target (check_packages'), one for the peer.
    expect(evaluator.stats()).toMatchObject({ evaluations: 2, reused: 1 });

    // The peer was evaluated without the choice: a plain check of it is that evaluation.
    const [gadget] = await checkedBy(client, { targets: ['github:acme/gadget'] });
    expect(gadget).not.toHaveProperty('includedPackage');
    expect(found.unavailable!.members![0]!.score).toBe(gadget!.score);
    expect(evaluator.stats()).toMatchObject({ evaluations: 2, reused: 2 });

    // Without the choice the target is ranked alone, as check_packages scores it alone.
    const alone = AlternativesOutputSchema.parse((await client.callTool({ name: 'find_alternatives', arguments: { target: 'github:acme/widget' } })).structuredContent);
    expect(alone.target).not.toHaveProperty('includedPackage');
    // An evaluation of its own (the scores may coincide: the evaluator's count tells them apart).
    expect(evaluator.stats()).toMatchObject({ evaluations: 3, reused: 3 });
    const [plain] = await checkedBy(client, { targets: ['github:acme/widget'] });
    expect(plain!.score).toBe(alone.target.score);
    expect(evaluator.stats()).toMatchObject({ evaluations: 3, reused: 4 });
  });

  it('an invalid value, no repository target, a name that does not verify: bad-option error results, nothing fetched before', async () => {
    const { client, evaluator } = await connect();
    const before = server.requests.length;
    for (const [name, args] of [
      ['compare_packages', { targets: ['github:acme/widget', 'widget'], includePackage: '' }],
      ['compare_packages', { targets: ['github:acme/widget', 'widget'], includePackage: 'https://evil.example/x' }],
      ['compare_packages', { targets: ['widget', 'pypi:requests'], includePackage: true }],
      ['find_alternatives', { target: 'github:acme/widget', includePackage: 'a b' }],
      ['find_alternatives', { target: 'github:acme/widget', includePackage: 'x\u0000y' }],
      ['find_alternatives', { target: 'widget', includePackage: true }],
      ['find_alternatives', { target: 'pypi:requests', includePackage: 'widget' }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(result), `${name} ${JSON.stringify(args)}`).toMatch(/^bad-option: /);
    }
    expect(server.requests.length).toBe(before);
    expect(evaluator.stats().evaluations).toBe(0);

    const searches = searchRequests();
    for (const [name, args] of [
      ['compare_packages', { targets: ['github:acme/widget', 'widget'], includePackage: 'left-pad' }],
      ['find_alternatives', { target: 'github:acme/widget', includePackage: 'left-pad' }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
      expect(textOf(result), name).toMatch(/^bad-option: .*npm:widget/);
    }
    // A refused target is not compared: no peer search.
    expect(searchRequests()).toBe(searches);
  });
});
