import { describe, expect, it } from 'vitest';
import { parsePolicy, PolicyError } from '../../../src/audit/policy.js';
import { parseIgnoreTarget } from '../../../src/audit/policy-schema.js';

const FILE = '.nerqrc.json';

/** The PolicyError message for a policy object. */
function errorOf(data: unknown, file = FILE, prefix = ''): string {
  try {
    parsePolicy(data, file, prefix);
  } catch (error) {
    expect(error).toBeInstanceOf(PolicyError);
    return (error as Error).message;
  }
  throw new Error('expected a PolicyError');
}

describe('policy file schema', () => {
  it('parses a complete policy, ignore entries split into ecosystem, name and range', () => {
    const policy = parsePolicy(
      {
        $schema: 'https://example.test/nerqrc.schema.json',
        minScore: 60,
        minCoverage: 0.6,
        dimensions: { security: 70, compliance: 50 },
        licenses: { allow: ['MIT', 'Apache-2.0', 'GPL-2.0+', 'Apache-2.0 WITH LLVM-exception'], deny: ['AGPL-3.0-only'] },
        ignore: [
          { package: '@scope/pkg@^1.2.0', reason: 'vendored fork', expires: '2027-03-01' },
          { package: 'pypi:Django@>=4,<5', reason: ' audited by the team ' },
          { package: 'left-pad', reason: 'tiny' },
        ],
        failOn: 'caution',
      },
      FILE,
    );
    expect(policy.minScore).toBe(60);
    expect(policy.dimensions).toEqual({ security: 70, compliance: 50 });
    expect(policy.ignore).toEqual([
      { kind: 'package', package: '@scope/pkg@^1.2.0', ecosystem: null, name: '@scope/pkg', range: '^1.2.0', reason: 'vendored fork', expires: '2027-03-01' },
      { kind: 'package', package: 'pypi:Django@>=4,<5', ecosystem: 'pypi', name: 'Django', range: '>=4,<5', reason: 'audited by the team', expires: null },
      { kind: 'package', package: 'left-pad', ecosystem: null, name: 'left-pad', range: null, reason: 'tiny', expires: null },
    ]);
    expect(policy.failOn).toBe('caution');
  });

  it('takes failOnSeverity: the advisory severity that fails a package', () => {
    expect(parsePolicy({ failOnSeverity: 'high' }, '.nerqrc.json').failOnSeverity).toBe('high');
  });

  it('accepts an empty policy', () => {
    expect(parsePolicy({}, FILE)).toEqual({});
  });

  it.each([
    [{ minscore: 50 }, '.nerqrc.json: minscore: unknown key'],
    [{ minScore: 120 }, '.nerqrc.json: minScore: must be at most 100'],
    [{ minScore: -1 }, '.nerqrc.json: minScore: must be at least 0'],
    [{ minScore: '50' }, '.nerqrc.json: minScore: expected number, got string'],
    [{ minCoverage: 1.5 }, '.nerqrc.json: minCoverage: must be at most 1'],
    // JSON.parse reads `1e999` as Infinity: a number, but not one a score can be.
    [JSON.parse('{"minScore": 1e999}'), '.nerqrc.json: minScore: must be a finite number from 0 to 100'],
    [JSON.parse('{"minScore": -1e999}'), '.nerqrc.json: minScore: must be a finite number from 0 to 100'],
    [{ minScore: Number.NaN }, '.nerqrc.json: minScore: must be a finite number from 0 to 100'],
    [JSON.parse('{"minCoverage": 1e999}'), '.nerqrc.json: minCoverage: must be a finite number from 0 to 1'],
    [JSON.parse('{"dimensions": {"security": 1e999}}'), '.nerqrc.json: dimensions.security: must be a finite number from 0 to 100'],
    [{ dimensions: { securty: 60 } }, '.nerqrc.json: dimensions.securty: unknown key'],
    [{ dimensions: { security: 101 } }, '.nerqrc.json: dimensions.security: must be at most 100'],
    [{ security: 60 }, '.nerqrc.json: security: unknown key'],
    [{ licenses: { alow: ['MIT'] } }, '.nerqrc.json: licenses.alow: unknown key'],
    [{ licenses: { allow: [] } }, '.nerqrc.json: licenses.allow: must list at least one licence'],
    [{ licenses: { allow: ['MIT', 'Not A Licence'] } }, ".nerqrc.json: licenses.allow[1]: 'Not A Licence' is not an SPDX licence identifier"],
    [
      { licenses: { deny: ['MIT OR Apache-2.0'] } },
      ".nerqrc.json: licenses.deny[0]: 'MIT OR Apache-2.0' combines licences with AND/OR; list each licence on its own",
    ],
    [{ ignore: [{ package: 'a', reason: 'ok' }, { package: 'b' }] }, '.nerqrc.json: ignore[1].reason: required'],
    [{ ignore: [{ package: 'a', reason: '   ' }] }, '.nerqrc.json: ignore[0].reason: must not be empty: say why the package is ignored'],
    [{ ignore: [{ reason: 'x' }] }, '.nerqrc.json: ignore[0].package: required'],
    [{ ignore: [{ package: 'a', reason: 'x', expires: '2027-02-30' }] }, '.nerqrc.json: ignore[0].expires: must be a date as YYYY-MM-DD'],
    [{ ignore: [{ package: 'a', reason: 'x', expires: '1 March 2027' }] }, '.nerqrc.json: ignore[0].expires: must be a date as YYYY-MM-DD'],
    [{ ignore: [{ package: 'a', reason: 'x', until: '2027-01-01' }] }, '.nerqrc.json: ignore[0].until: unknown key'],
    [
      { ignore: [{ package: 'lodash@^^1', reason: 'x' }] },
      ".nerqrc.json: ignore[0].package: '^^1' is neither an npm semver range nor a PEP 440 specifier",
    ],
    [{ ignore: [{ package: 'pypi:requests@^2', reason: 'x' }] }, ".nerqrc.json: ignore[0].package: '^2' is not a valid PEP 440 version specifier"],
    [{ ignore: [{ package: 'npm:lodash@>=1,<2', reason: 'x' }] }, ".nerqrc.json: ignore[0].package: '>=1,<2' is not a valid npm semver range"],
    [{ ignore: [{ package: 'lodash@', reason: 'x' }] }, ".nerqrc.json: ignore[0].package: 'lodash@' has an empty range after '@'"],
    [{ ignore: [{ package: 'two words', reason: 'x' }] }, ".nerqrc.json: ignore[0].package: 'two words' does not name a package (expected name or name@range)"],
    [{ ignore: { package: 'a', reason: 'x' } }, '.nerqrc.json: ignore: expected array, got object'],
    [{ failOn: 'yes' }, '.nerqrc.json: failOn: must be one of "no", "caution"'],
    [{ failOnSeverity: 'medium' }, '.nerqrc.json: failOnSeverity: must be one of "low", "moderate", "high", "critical"'],
    [[], '.nerqrc.json: expected object, got array'],
  ])('%j → %s', (data, message) => {
    expect(errorOf(data)).toBe(message);
  });

  it('names the package.json key path', () => {
    expect(errorOf({ ignore: [{ package: 'a' }] }, 'package.json', 'nerq')).toBe('package.json: nerq.ignore[0].reason: required');
    expect(errorOf('strict', 'package.json', 'nerq')).toBe('package.json: nerq: expected object, got string');
  });

  it('keeps the error fields and sanitises a hostile key', () => {
    let caught: unknown;
    try {
      parsePolicy({ 'evil\u001b[31m\nkey': 1 }, FILE);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PolicyError);
    const error = caught as PolicyError;
    expect(error.file).toBe(FILE);
    expect(error.message).toBe('.nerqrc.json: evil key: unknown key');
    expect(error.message).not.toMatch(/[\u001b\n]/);
  });
});

describe('MCP ignore entries', () => {
  it('an entry with an "mcp" key names a server; "finding" is one code or several, absent for all', () => {
    const policy = parsePolicy(
      {
        ignore: [
          { mcp: 'box', file: '.mcp.json', finding: 'mcp-widened-reach', reason: ' needs the Docker socket: reviewed ', expires: '2027-01-31' },
          { mcp: 'io.github.acme/tools', finding: ['mcp-entry-policy', 'mcp-remote-unverified', 'mcp-entry-policy'], reason: 'our own server' },
          { mcp: 'internal', reason: 'ours' },
          { package: 'left-pad', reason: 'tiny' },
        ],
      },
      FILE,
    );
    expect(policy.ignore).toEqual([
      { kind: 'mcp', mcp: 'box', file: '.mcp.json', findings: ['mcp-widened-reach'], reason: 'needs the Docker socket: reviewed', expires: '2027-01-31' },
      { kind: 'mcp', mcp: 'io.github.acme/tools', file: null, findings: ['mcp-entry-policy', 'mcp-remote-unverified'], reason: 'our own server', expires: null },
      { kind: 'mcp', mcp: 'internal', file: null, findings: null, reason: 'ours', expires: null },
      { kind: 'package', package: 'left-pad', ecosystem: null, name: 'left-pad', range: null, reason: 'tiny', expires: null },
    ]);
  });

  it.each([
    [{ mcp: 'box', finding: 'mcp-widend-reach', reason: 'x' }, "ignore[0].finding: unknown code 'mcp-widend-reach' (expected 'mcp-widened-reach', 'mcp-remote-unverified', 'mcp-fetched-script', 'mcp-uninspected', 'mcp-package-missing', 'mcp-entry-policy')"],
    [{ mcp: 'box', finding: ['mcp-widened-reach', 'capped'], reason: 'x' }, "ignore[0].finding[1]: unknown code 'capped' (expected 'mcp-widened-reach', 'mcp-remote-unverified', 'mcp-fetched-script', 'mcp-uninspected', 'mcp-package-missing', 'mcp-entry-policy')"],
    [{ mcp: 'plain', finding: 'mcp-remote-insecure', reason: 'x' }, 'ignore[0].finding: mcp-remote-insecure cannot be ignored'],
    [{ mcp: 'box', finding: [], reason: 'x' }, 'ignore[0].finding: must list at least one code'],
    [{ mcp: 'box', finding: 3, reason: 'x' }, 'ignore[0].finding: '],
    [{ mcp: 'box' }, 'ignore[0].reason: required'],
    [{ mcp: 'box', reason: ' ' }, 'ignore[0].reason: must not be empty: say why the finding is ignored'],
    [{ mcp: ' ', reason: 'x' }, 'ignore[0].mcp: must name a server'],
    [{ mcp: 7, reason: 'x' }, 'ignore[0].mcp: expected string, got number'],
    [{ mcp: 'box', file: '', reason: 'x' }, 'ignore[0].file: must name a configuration file'],
    [{ mcp: 'box', package: 'left-pad', reason: 'x' }, 'ignore[0].package: unknown key'],
    [{ package: 'left-pad', finding: 'mcp-widened-reach', reason: 'x' }, 'ignore[0].finding: unknown key'],
    [{ mcp: 'box', reason: 'x', expires: '2027-13-01' }, 'ignore[0].expires: must be a date as YYYY-MM-DD'],
  ])('%j is bad input naming the key', (entry, message) => {
    expect(errorOf({ ignore: [entry] }).startsWith(`.nerqrc.json: ${message}`)).toBe(true);
  });
});

describe('parseIgnoreTarget', () => {
  it.each([
    ['lodash', { ecosystem: null, name: 'lodash', range: null }],
    ['lodash@<4.17.21', { ecosystem: null, name: 'lodash', range: '<4.17.21' }],
    ['@babel/core', { ecosystem: null, name: '@babel/core', range: null }],
    ['@babel/core@7.x', { ecosystem: null, name: '@babel/core', range: '7.x' }],
    ['npm:@babel/core@^7', { ecosystem: 'npm', name: '@babel/core', range: '^7' }],
    ['pypi:requests@2.31.0', { ecosystem: 'pypi', name: 'requests', range: '2.31.0' }],
    ['requests@~=2.31', { ecosystem: null, name: 'requests', range: '~=2.31' }],
  ])('%s', (raw, expected) => {
    expect(parseIgnoreTarget(raw)).toEqual(expected);
  });

  it('refuses a bare scope', () => {
    expect(parseIgnoreTarget('@')).toMatch(/does not name a package/);
  });
});
