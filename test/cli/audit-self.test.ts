/**
 * Offline: `nerq audit` on this repository itself (its own
 * package-lock.json) runs and prints a verdict. The fixture server knows none of the packages
 * (every packument 404), so each one is "could not be evaluated" and the run is INCOMPLETE
 * (exit 3) — what matters here is that the real lockfile is read, folded and gated whole.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { REPO_ROOT, runCli } from '../support/run-cli.js';
import { countByKind, parseAudit, repeated, serveOsv } from './audit-helpers.js';
import { requireBuiltCli } from './helpers.js';

let server: FixtureServer;

/** name@version of every registry package the repository's lockfile installs. */
function lockedPackages(): Set<string> {
  const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; link?: boolean; name?: string }>;
  };
  const locked = new Set<string>();
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key.includes('node_modules/') || entry.link === true || entry.version === undefined) continue;
    locked.add(`${entry.name ?? key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${entry.version}`);
  }
  return locked;
}

beforeAll(async () => {
  requireBuiltCli();
  server = await startFixtureServer();
  server.fallback('GET', '/npm/', { status: 404 });
  server.fallback('GET', '/npm-api/', { status: 404 });
  serveOsv(server, []);
});

afterAll(async () => {
  expectNoUnexpected(server);
  await server?.close();
});

describe("nerq audit of this repository's own package-lock.json", () => {
  it('reads every locked package, asks for each once, and prints a verdict', async () => {
    const result = await runCli(['audit', REPO_ROOT], { server });
    expect(result.code, result.stderr).toBe(3);
    // At 80 columns the header breaks between its parts, never inside one.
    expect(result.stdout).toMatch(/^nerq audit · INCOMPLETE · \d+ packages · inputs: package-lock\.json\npolicy: defaults$/m);
    expect(result.stdout).toMatch(/^INCOMPLETE: (\d+) of \1 packages could not be evaluated$/m);

    const json = await runCli(['audit', REPO_ROOT, '--json'], { server });
    const report = parseAudit(json.stdout);
    const locked = lockedPackages();
    expect(report.inputs).toEqual([{ file: 'package-lock.json', format: 'package-lock@3' }]);
    expect(new Set(report.entries.map((e) => `${e.subject.name}@${e.subject.version}`))).toEqual(locked);
    expect(report.summary).toEqual({ total: locked.size, passed: 0, failed: 0, ignored: 0, errors: locked.size, incomplete: 0 });
    // Every devDependency of package.json is a direct dev subject.
    const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const direct = new Set(report.entries.filter((e) => e.subject.direct).map((e) => e.subject.name));
    expect(direct).toEqual(new Set(Object.keys(manifest.devDependencies)));
    expect(report.entries.filter((e) => e.subject.direct).every((e) => e.subject.dev)).toBe(true);
    // Two runs, each: one packument request per package name — several versions of one package
    // (this lockfile locks two versions of chalk, ini, commander…) share it —, one OSV batch, and
    // the download counts of the unscoped names in bulk queries of at most 128 names per period.
    const names = new Set([...locked].map((id) => id.slice(0, id.lastIndexOf('@'))));
    expect(names.size).toBeLessThan(locked.size);
    const unscoped = [...names].filter((n) => !n.startsWith('@')).length;
    expect(countByKind(server.requests)).toEqual({ 'packument-full': 2 * names.size, 'osv-querybatch': 2, downloads: 2 * 2 * Math.ceil(unscoped / 128) });
    expect(repeated(server.requests.slice(server.requests.length / 2))).toEqual([]);
  });
});
