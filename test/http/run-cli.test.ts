import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VERSION } from '../../src/version.js';
import { startFixtureServer } from '../support/fixture-server.js';
import { CLI_BIN, cliEnv, DEFAULT_NOW, runCli } from '../support/run-cli.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('cliEnv', () => {
  it('builds the environment from scratch: nothing inherited but PATH', () => {
    vi.stubEnv('npm_config_registry', 'http://inherited.invalid/');
    vi.stubEnv('GITHUB_TOKEN', 'inherited-token');
    vi.stubEnv('NODE_OPTIONS', '--inspect');
    const env = cliEnv(path.join('fake', 'home-x'));
    const endpoints = ['NERQ_NPM_REGISTRY', 'NERQ_NPM_API_URL', 'NERQ_PYPI_URL', 'NERQ_PYPI_FILES_URL', 'NERQ_PYPISTATS_URL', 'NERQ_GITHUB_API_URL', 'NERQ_GITHUB_GRAPHQL_URL', 'NERQ_GITHUB_RAW_URL', 'NERQ_CRATES_INDEX_URL', 'NERQ_OSV_API_URL', 'NERQ_MCP_REGISTRY_URL', 'NERQ_NPM_PUBLIC_REGISTRY'];
    expect(Object.keys(env).sort()).toEqual(
      ['HOME', 'NERQ_NOW', 'NO_COLOR', 'PATH', 'USERPROFILE', 'XDG_CACHE_HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', ...endpoints].sort(),
    );
    // With no fixture server, every endpoint is a refused loopback port: never the internet.
    for (const name of endpoints) expect(env[name]).toMatch(/^http:\/\/127\.0\.0\.1:9\//);
    expect(env.HOME).toBe(path.join('fake', 'home-x'));
    expect(env.XDG_CONFIG_HOME).toBe(path.join('fake', 'home-x', '.config'));
    expect(env.NO_COLOR).toBe('1');
    expect(env.NERQ_NOW).toBe(DEFAULT_NOW);
  });

  it('points every endpoint at the fixture server, and lets overrides win', async () => {
    const server = await startFixtureServer();
    try {
      const env = cliEnv(path.join('fake', 'home-y'), { server, env: { NERQ_NOW: '2027-01-01T00:00:00Z', EXTRA: '1' } });
      expect(env).toMatchObject({
        NERQ_NPM_REGISTRY: `${server.origin}/npm/`,
        NERQ_NPM_API_URL: `${server.origin}/npm-api`,
        NERQ_PYPI_URL: `${server.origin}/pypi`,
        NERQ_PYPISTATS_URL: `${server.origin}/pypistats`,
        NERQ_GITHUB_API_URL: `${server.origin}/github`,
        NERQ_GITHUB_GRAPHQL_URL: `${server.origin}/github/graphql`,
        NERQ_GITHUB_RAW_URL: `${server.origin}/github-raw`,
        NERQ_CRATES_INDEX_URL: `${server.origin}/crates-index`,
        NERQ_OSV_API_URL: `${server.origin}/osv`,
        // PyPI's file host stays refused unless a test serves files (test/support/pypi-files.ts).
        NERQ_PYPI_FILES_URL: 'http://127.0.0.1:9/pypi-files',
        NERQ_NOW: '2027-01-01T00:00:00Z',
        EXTRA: '1',
      });
    } finally {
      await server.close();
    }
  });
});

describe('runCli', () => {
  it('runs the built bin and captures its exit code and output', async () => {
    expect(existsSync(CLI_BIN)).toBe(true);
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(VERSION);
  });
});
