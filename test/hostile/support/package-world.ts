/**
 * One npm package served with hostile answers, evaluated by the real CLI: chalk 4.1.0's
 * healthy world (support/sources.ts) with some of its answers replaced. Every case shares the
 * same assertions: no crash and no stack trace, the run within its deadline and memory bound,
 * no request the world did not expect, nothing written outside the store, a report that fits
 * the JSON contract and the exit code its gate gives.
 */
import path from 'node:path';
import { expect } from 'vitest';
import type { Report } from '../../../src/report/schema.js';
import { parseReport, type RouteOverrides } from '../../cli/helpers.js';
import { startFixtureServer, type FixtureResponse, type FixtureServer } from '../../support/fixture-server.js';
import { filesUnder, makeSandbox, runHostile, type HostileRun, type Sandbox } from './cli.js';
import { contractExitCode, expectCleanStderr, expectRssBounded, expectWithinDeadline } from './expect.js';
import { integrityOf } from './hostile-tarballs.js';
import { recordedPackument, SOURCES, VERSION } from './sources.js';

export const TIMEOUT_S = 15;

const world = SOURCES[0]!.world;
const servers = new Set<FixtureServer>();

/** Close every server the cases started (call in afterAll). */
export async function closeWorlds(): Promise<void> {
  await Promise.all([...servers].map((s) => s.close()));
  servers.clear();
}

export interface Outcome {
  run: HostileRun;
  report: Report;
  sandbox: Sandbox;
}

export interface EvaluateOptions {
  /** More arguments after `check <target> --json --timeout N`. */
  args?: string[];
  /** More environment for the CLI (NERQ_NOW, to read the world at another date). */
  env?: Record<string, string>;
  /** Routes declared before the world's (the first route that matches answers). */
  extra?: (server: FixtureServer) => void;
  /** What follows `check` (default `chalk`, which resolves to the latest non-deprecated version). */
  target?: string;
  /** Another world than chalk's (then `overrides` are not used), e.g. a PyPI project's. */
  world?: (server: FixtureServer) => void;
}

/**
 * Serve chalk with `overrides` (or `options.world`; `extra` routes win over the world's), run
 * `check <target> --json` (plus `args`), check what every case shares.
 */
export async function evaluate(task: { meta: object }, label: string, overrides: RouteOverrides, options: EvaluateOptions = {}): Promise<Outcome> {
  const { args = [], env, extra, target = 'chalk', world: otherWorld } = options;
  const server = await startFixtureServer();
  servers.add(server);
  // Declared first: the first route that matches answers, so these win over the world's.
  extra?.(server);
  if (otherWorld === undefined) world(server, overrides);
  else otherWorld(server);
  const sandbox = makeSandbox();
  const run = await runHostile(['check', target, '--json', '--timeout', String(TIMEOUT_S), ...args], { server, sandbox, ...(env === undefined ? {} : { env }) });
  const context = `${label}\nexit ${run.code}\nstderr: ${run.stderr.slice(0, 500)}`;
  expectCleanStderr(run.stderr, context);
  expectWithinDeadline(task, run, TIMEOUT_S * 1000, context);
  expectRssBounded(task, run, context);
  expect(server.unexpected, context).toEqual([]);
  // Nothing on disk but the store: HOME holds only ~/.cache/nerq, the cwd and TMPDIR nothing.
  const home = filesUnder(sandbox.home).filter((f) => !f.startsWith(`.cache${path.sep}nerq${path.sep}`));
  expect({ home, cwd: filesUnder(sandbox.cwd), tmp: filesUnder(sandbox.tmp) }, context).toEqual({ home: [], cwd: [], tmp: [] });
  const report = parseReport(run.stdout);
  expect(run.code, context).toBe(contractExitCode(report));
  return { run, report, sandbox };
}

export type Packument = ReturnType<typeof recordedPackument>;

/** A version's manifest in a packument, to change (4.1.0 by default). */
export function version(packument: Packument, at = VERSION): Record<string, unknown> {
  const manifest = packument.versions[at];
  if (manifest === undefined) throw new Error(`the packument has no version ${at}`);
  return manifest as Record<string, unknown>;
}

/**
 * chalk's packument with 4.1.0's integrity set to the hash of `tarball` (the registry vouches
 * for it), its attestations listing removed, then changed by `change`.
 */
export function vouchedFor(tarball: Buffer, change?: (packument: Packument) => void): { packument: FixtureResponse; tarball: FixtureResponse } {
  const packument = recordedPackument();
  const dist = packument.versions[VERSION]!.dist;
  dist.integrity = integrityOf(tarball);
  delete dist.shasum;
  delete dist.attestations;
  change?.(packument);
  return { packument: { body: packument }, tarball: { body: tarball } };
}

/** chalk 4.1.0's package.json as its packument describes it (the manifest the package-world tarballs carry). */
export const CHALK_MANIFEST = { name: 'chalk', version: '4.1.0', main: 'source', dependencies: { 'ansi-styles': '^4.1.0', 'supports-color': '^7.1.0' }, scripts: { test: 'xo && nyc ava && tsd' } };
/** The files of a chalk 4.1.0 tarball besides its package.json. */
export const CHALK_FILES: readonly { path: string; content: string }[] = [
  { path: 'readme.md', content: '# chalk\n\nTerminal string styling done right.\n\n## Install\n\n```\nnpm install chalk\n```\n' },
  { path: 'license', content: 'MIT License\n\nCopyright (c) Sindre Sorhus\n\nPermission is hereby granted, free of charge, to any person obtaining a copy of this software.\n' },
  { path: 'source/index.js', content: 'module.exports = {};\n' },
];
