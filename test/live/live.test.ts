/**
 * Opt-in live smoke test (`NERQ_LIVE=1 npm test`): the real npm registry from the user's npm
 * configuration. Never part of CI; it is the only test that may use the network.
 */
import { describe, expect, it } from 'vitest';
import { ReportSchema } from '../../src/report/schema.js';
import { runCli } from '../support/run-cli.js';

const live = process.env.NERQ_LIVE === '1';
// npm passes its configured registry to scripts; the child environment is otherwise from scratch.
const registry = process.env.npm_config_registry ?? process.env.NPM_CONFIG_REGISTRY;

describe.runIf(live)('live npm registry', () => {
  it('checks express end to end within the 10 s deadline', async () => {
    // Empty endpoint variables mean "the public default" (run-cli points them at loopback).
    const env: Record<string, string> = { NERQ_NOW: '', NERQ_NPM_REGISTRY: registry ?? '' };
    for (const name of ['NERQ_NPM_API_URL', 'NERQ_PYPI_URL', 'NERQ_PYPISTATS_URL', 'NERQ_GITHUB_API_URL', 'NERQ_GITHUB_GRAPHQL_URL', 'NERQ_OSV_API_URL']) env[name] = '';
    // The user's network settings (proxies, extra CAs) are part of a live run.
    for (const name of ['NODE_EXTRA_CA_CERTS', 'HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy']) {
      const value = process.env[name];
      if (value) env[name] = value;
    }
    const started = Date.now();
    const result = await runCli(['check', 'express', '--json', '--timeout', '10'], { env });
    const elapsed = Date.now() - started;
    const report = ReportSchema.parse(JSON.parse(result.stdout));
    expect(report.target.name).toBe('express');
    expect(report.score).toEqual(expect.any(Number));
    expect(report.checks.find((c) => c.id === 'readme')?.status).not.toBe('unknown');
    console.log(`live: express@${report.target.version} ${report.score} ${report.grade} ${report.verdict} coverage ${report.coverage} in ${elapsed} ms`);
  });
});
