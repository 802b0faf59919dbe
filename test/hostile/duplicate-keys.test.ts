/**
 * Hostile world: a YAML lockfile or client configuration that names one key twice. pnpm reads
 * pnpm-lock.yaml with js-yaml's `load`, which throws "duplicated mapping key"; pnpm then stops
 * with ERR_PNPM_BROKEN_LOCKFILE (its own test: "a lockfile with duplicate keys causes an
 * exception"). Goose reads its config.yaml with serde_yaml into a mapping, which refuses a
 * duplicate entry too. A reader that kept the last (or first) of the two would let whoever wrote
 * the file choose which version nerq evaluates while the tool installs nothing, or something
 * else after a merge: nerq refuses the file as malformed (bad input, exit 2) naming the line of
 * the second key. yarn berry reads yarn.lock with js-yaml in its `json` mode (the last wins) and
 * yarn classic with its own parser (the last wins): nerq reads both with those same libraries,
 * so it reads what yarn installs, and duplicate keys there stay accepted (docs/security.md).
 */
import { describe, expect, it } from 'vitest';
import { readMcpConfig } from '../../src/audit/mcp/read-config.js';
import { readInputText } from '../../src/lockfiles/index.js';
import { lockfileErrorOf as errorOf } from '../audit/inputs/helpers.js';
import { noteCases } from './support/metrics.js';

const V9_HEAD = "lockfileVersion: '9.0'\n\nimporters:\n  .:\n    dependencies:\n      chalk:\n        specifier: ^4.1.0\n        version: 4.1.0\n";
const V9_TAIL = "\nsnapshots:\n  chalk@4.1.0: {}\n";


describe('pnpm-lock.yaml with a key named twice is malformed, as pnpm holds it', () => {
  const CASES: [label: string, text: string, line: number][] = [
    ['an importer dependency locked twice', `${V9_HEAD}        version: 5.3.0\n\npackages:\n  chalk@4.1.0:\n    resolution: {integrity: sha512-x}\n${V9_TAIL}`, 9],
    [
      'a package entry named twice (the second one a tarball elsewhere)',
      `${V9_HEAD}\npackages:\n  chalk@4.1.0:\n    resolution: {integrity: sha512-x}\n  chalk@4.1.0:\n    resolution: {tarball: https://evil.example/chalk.tgz}\n${V9_TAIL}`,
      13,
    ],
    ['lockfileVersion named twice', `${V9_HEAD}lockfileVersion: '5.4'\n${V9_TAIL}`, 9],
    ['a flow mapping naming a key twice', `${V9_HEAD}\npackages:\n  chalk@4.1.0:\n    resolution: {integrity: sha512-x, integrity: sha512-y}\n${V9_TAIL}`, 12],
    ['a quoted spelling of the same key', `${V9_HEAD}\npackages:\n  chalk@4.1.0: {}\n  'chalk@4.1.0': {}\n${V9_TAIL}`, 12],
  ];
  it.for(CASES)('%s', ([, text, line], { task }) => {
    noteCases(task);
    const error = errorOf(() => readInputText(text, 'pnpm-lock.yaml'));
    expect(error).toMatchObject({ file: 'pnpm-lock.yaml', line });
    expect(error.message).toMatch(/^pnpm-lock\.yaml:\d+: invalid YAML: duplicate key /);
    expect(error.message).not.toContain('\n');
  });

  it('the same key in two different mappings is no duplicate', ({ task }) => {
    const text = `${V9_HEAD}\npackages:\n  chalk@4.1.0:\n    resolution: {integrity: sha512-x}\n${V9_TAIL}`;
    expect(readInputText(text, 'pnpm-lock.yaml').dependencies.map((d) => `${d.name}@${d.version}`)).toEqual(['chalk@4.1.0']);
    noteCases(task);
  });
});

describe('a YAML MCP client configuration naming a server twice is malformed (Goose refuses it)', () => {
  it('Goose extensions and Continue mcpServers', ({ task }) => {
    const goose = 'extensions:\n  fs:\n    type: stdio\n    cmd: npx\n    args: [-y, "@modelcontextprotocol/server-filesystem"]\n  fs:\n    type: stdio\n    cmd: npx\n    args: [-y, evil-pkg]\n';
    expect(errorOf(() => readMcpConfig(goose, 'config.yaml'))).toMatchObject({ file: 'config.yaml', line: 6 });
    const continueMap = 'mcpServers:\n  fs:\n    command: npx\n    command: uvx\n';
    expect(errorOf(() => readMcpConfig(continueMap, 'config.yaml'))).toMatchObject({ line: 4 });
    noteCases(task, 2);
  });
});

describe('yarn.lock duplicates read as yarn reads them (the last wins), with yarn own parsers', () => {
  it('berry', ({ task }) => {
    const entry = (version: string) => `"chalk@npm:^4.1.0":\n  version: ${version}\n  resolution: "chalk@npm:${version}"\n  checksum: abc\n  languageName: node\n  linkType: hard\n`;
    const text = `__metadata:\n  version: 8\n  cacheKey: 10c0\n\n${entry('4.1.0')}\n${entry('4.1.2')}`;
    expect(readInputText(text, 'yarn.lock').dependencies.map((d) => d.version)).toEqual(['4.1.2']);
    noteCases(task);
  });
});
