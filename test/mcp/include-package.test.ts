/**
 * `check_packages`' `includePackage` argument (docs/mcp.md), through the SDK client over an
 * in-memory transport against the fixture server: acme/widget publishes the npm package `widget`
 * (its link verifies), acme/gadget has the same files under another name (nothing verifies). Each
 * report says which package was folded in, or why none was; calls with and without the choice
 * never share an evaluation; bad choices are `bad-option` error results.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CheckOutputSchema, type CheckedSchema } from '../../src/mcp/server.js';
import type { z } from 'zod';
import { serveNpmWidget, WIDGET_VERSION } from '../cli/github-helpers.js';
import { serveRepo } from '../github/helpers.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { connectInMemory, textOf, type Connected } from './support.js';

let server: FixtureServer;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  server = await startFixtureServer();
  serveRepo(server, 'acme/widget', {});
  serveRepo(server, 'acme/gadget', {});
  serveNpmWidget(server, 'widget');
});

afterEach(async () => {
  expectNoUnexpected(server);
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  await server?.close();
});

async function connect(): Promise<Connected> {
  const connected = await connectInMemory(server);
  cleanups.push(connected.close);
  return connected;
}

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
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);

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
