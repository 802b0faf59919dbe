/** The mcp-packages check on written MCP entry facts (end to end on real entries: test/cli/check-mcp.test.ts). */
import { describe, expect, it } from 'vitest';
import { formatMessage } from '../../src/checks/define.js';
import mcpPackages from '../../src/checks/mcp-packages.js';
import { NOW, pkg, facts } from './mcp-support.js';

describe('mcp-packages', () => {
  it('scores the weakest package and caps the entry there', () => {
    const out = mcpPackages.evaluate({ mcp: facts({ packages: [pkg(), pkg({ target: 'pypi:w==1', evaluation: { ...pkg().evaluation!, score: 42.5 } })] }) }, NOW);
    expect(out).toMatchObject({ score: 42.5, messageId: 'weakest' });
    expect(out.caps?.[0]).toMatchObject({ id: 'mcp-package-weakest', limit: 42.5, ceiling: true });
  });
  it('a package held below YES (a guarding check could not run) holds the entry at CAUTION; a YES package does not', () => {
    const held = mcpPackages.evaluate({ mcp: facts({ packages: [pkg(), pkg({ target: 'npm:held@1.0.0', evaluation: { ...pkg().evaluation!, score: 91.8, verdictCode: 'caution' } })] }) }, NOW);
    expect(held.holdVerdict).toMatch(/npm:held@1\.0\.0/);
    // The held package's verdict in the words the reports print, not its JSON code.
    expect(held.holdVerdict).toContain('is rated CAUTION, not YES');
    expect(held.holdVerdict).not.toContain('(caution)');
    expect(mcpPackages.evaluate({ mcp: facts({ packages: [pkg()] }) }, NOW).holdVerdict).toBeUndefined();
  });
  it('a do-not-use package makes the entry do-not-use', () => {
    const out = mcpPackages.evaluate({ mcp: facts({ packages: [pkg({ evaluation: { ...pkg().evaluation!, score: 0, verdictCode: 'do-not-use', doNotUse: true } })] }) }, NOW);
    expect(out.caps?.[0]).toMatchObject({ id: 'mcp-package-do-not-use', doNotUse: true });
  });
  it('a package whose registry could not answer leaves the check unknown under a ceiling, not a failing cap (the entry is incomplete, not failed)', () => {
    const down = pkg({ registryType: 'pypi', target: 'pypi:w==1', evaluation: { ...pkg().evaluation!, score: null, verdictCode: 'unknown', error: 'registry-unavailable' } });
    const alone = mcpPackages.evaluate({ mcp: facts({ packages: [down] }) }, NOW);
    expect(alone).toMatchObject({ score: null, messageId: 'unavailable' });
    expect(alone.caps).toEqual([expect.objectContaining({ id: 'mcp-package-unavailable', limit: 69.9, ceiling: true })]);
    // Next to an evaluated package: still unknown, bounded by the lower of the two bounds.
    const low = pkg({ evaluation: { ...pkg().evaluation!, score: 42.5 } });
    const mixed = mcpPackages.evaluate({ mcp: facts({ packages: [low, down] }) }, NOW);
    expect(mixed).toMatchObject({ score: null, messageId: 'unavailable' });
    expect(mixed.caps).toEqual([expect.objectContaining({ id: 'mcp-package-weakest', limit: 42.5, ceiling: true })]);
    expect(mcpPackages.evaluate({ mcp: facts({ packages: [pkg(), down] }) }, NOW).caps?.map((c) => c.id)).toEqual(['mcp-package-unavailable']);
    // A package not in its registry is still a finding, whatever else could not be read.
    const gone = pkg({ target: 'npm:gone@1.0.0', evaluation: { ...pkg().evaluation!, score: null, error: 'not-found' } });
    expect(mcpPackages.evaluate({ mcp: facts({ packages: [gone, down] }) }, NOW).caps?.[0]).toMatchObject({ id: 'mcp-package-missing' });
  });
  it('a package its registry has without the version named is a missing release, not a free name; a free name is named first', () => {
    const gone = pkg({ target: 'npm:gone@1.0.0', evaluation: { ...pkg().evaluation!, score: null, error: 'not-found' } });
    const noVersion = pkg({ target: 'npm:@21st-dev/magic@0.0.46', evaluation: { ...pkg().evaluation!, score: null, error: 'version-not-found' } });
    const out = mcpPackages.evaluate({ mcp: facts({ packages: [noVersion] }) }, NOW);
    expect(out).toMatchObject({ score: 0, messageId: 'version-missing', data: { package: 'npm:@21st-dev/magic@0.0.46', error: 'version-not-found' } });
    expect(out.caps).toEqual([expect.objectContaining({ id: 'mcp-package-missing', limit: 29.9, args: { package: 'npm:@21st-dev/magic@0.0.46', error: 'version-not-found' } })]);
    const free = mcpPackages.evaluate({ mcp: facts({ packages: [noVersion, gone] }) }, NOW);
    expect(free).toMatchObject({ messageId: 'missing', data: { package: 'npm:gone@1.0.0', error: 'not-found' } });
    // The error's code stays in the data; the cap's sentence (the report's alert) does not print it.
    for (const reason of [out.caps?.[0]?.reason, free.caps?.[0]?.reason]) expect(reason).not.toMatch(/not-found/);
  });
  it('a package that could not be evaluated or is missing is said in words: the error code stays in the data, never in the message or the cap reason', () => {
    const failing = (error: string) => pkg({ target: 'npm:w@1.0.0', evaluation: { ...pkg().evaluation!, score: null, verdictCode: 'unknown', error } });
    for (const error of ['registry-unavailable', 'ambiguous', 'bad-option', 'some-new-code', 'not-found', 'version-not-found']) {
      const out = mcpPackages.evaluate({ mcp: facts({ packages: [failing(error)] }) }, NOW);
      const text = formatMessage(mcpPackages.messages[out.messageId]!, out.data);
      expect([error, out.messageId, out.data?.error]).toEqual([error, error === 'not-found' ? 'missing' : error === 'version-not-found' ? 'version-missing' : 'unavailable', error]);
      expect([error, text.includes(error), text.includes('{'), out.caps?.some((c) => c.reason.includes(error))]).toEqual([error, false, false, false]);
    }
  });
  it('a package whose vulnerability or malicious-code checks could not run is listed as unchecked (a guarding check: the entry is not passed on it), its score still counting', () => {
    const blind = pkg({ target: 'npm:blind@1.0.0', evaluation: { ...pkg().evaluation!, score: 88, verdictCode: 'caution', unchecked: ['Known vulnerabilities: OSV unavailable'] } });
    const out = mcpPackages.evaluate({ mcp: facts({ packages: [pkg(), blind] }) }, NOW);
    expect(out).toMatchObject({ score: 80, messageId: 'unchecked', data: { unchecked: ['npm:blind@1.0.0: Known vulnerabilities: OSV unavailable'] } });
    expect(out.caps).toEqual([expect.objectContaining({ id: 'mcp-package-weakest', limit: 80, ceiling: true })]);
    expect(mcpPackages.guardsDanger).toBe(true);
    // Evidence saved before `unchecked` was recorded (absent) and an empty list read as checked.
    const checked = mcpPackages.evaluate({ mcp: facts({ packages: [pkg({ evaluation: { ...pkg().evaluation!, unchecked: [] } })] }) }, NOW);
    expect(checked).toMatchObject({ messageId: 'weakest', data: { unchecked: [] } });
  });
  it('an npm or PyPI package not evaluated (installed from elsewhere, or with other code) next to an evaluated one bounds and holds the entry: a client may run either', () => {
    const other = pkg({ target: null, evaluation: null, claim: null, notEvaluated: 'its runtime arguments or variables (-p) make the runner install or run other code than the package: not evaluated' });
    const out = mcpPackages.evaluate({ mcp: facts({ packages: [other, pkg()] }) }, NOW);
    expect(out).toMatchObject({ score: 80, messageId: 'weakest' });
    expect(out.caps?.map((c) => [c.id, c.limit, c.ceiling])).toEqual([
      ['mcp-package-weakest', 80, true],
      ['mcp-uninspected', 69.9, true],
    ]);
    expect(out.holdVerdict).toMatch(/npm:weather-mcp/);
    // An OCI image or MCP bundle beside an evaluated package is listed only (the entry is judged by the package).
    const image = pkg({ registryType: 'oci', identifier: 'docker.io/acme/weather:1', target: null, evaluation: null, claim: null, notEvaluated: 'oci packages are not evaluated yet' });
    const mixed = mcpPackages.evaluate({ mcp: facts({ packages: [image, pkg()] }) }, NOW);
    expect(mixed.caps?.map((c) => c.id)).toEqual(['mcp-package-weakest']);
    expect(mixed.holdVerdict).toBeUndefined();
  });
  it('a remote-only entry: unknown and uninspected (its code cannot be inspected), the bound left to mcp-remotes', () => {
    const remote = { url: 'https://mcp.example.com/mcp', type: 'streamable-http', headers: [], secretHeaders: [] };
    const out = mcpPackages.evaluate({ mcp: facts({ packages: [], remotes: [remote] }) }, NOW);
    expect(out).toMatchObject({ score: null, messageId: 'remote-only', data: { uninspected: true } });
    expect(out.notApplicable).toBeUndefined();
    expect(out.caps ?? []).toEqual([]);
  });
  it('an entry with neither a package nor a remote: unknown, bounded as uninspected (it scored 100 on its own checks) — a ceiling, not a failure', () => {
    const out = mcpPackages.evaluate({ mcp: facts({ packages: [], remotes: [] }) }, NOW);
    expect(out).toMatchObject({ score: null, messageId: 'nothing-to-run', data: { uninspected: true } });
    expect(out.notApplicable).toBeUndefined();
    expect(out.caps?.[0]).toMatchObject({ id: 'mcp-uninspected', limit: 69.9, ceiling: true });
  });
  it.each<[string, string, boolean]>([
    ['npm', '^1.0.0', true], ['npm', 'latest', true], ['npm', '1.x', true], ['npm', '*', true], ['npm', '>=1.0.0', true], ['npm', '1.0.0 || 2', true],
    ['pypi', '>=1.0', true], ['pypi', 'latest', true], ['pypi', '1.*', true],
    ['npm', '1.2.3', false], ['npm', '1.2.3-beta.1', false], ['pypi', '2024.1.post1', false], ['pypi', '1.0', false],
  ])('%s version %s: held for naming no single release (%s)', (registryType, version, held) => {
    const out = mcpPackages.evaluate({ mcp: facts({ packages: [pkg({ registryType, version })] }) }, NOW);
    expect(out.score).toBe(80);
    expect(out.holdVerdict === undefined).toBe(!held);
    expect(out.data?.unpinned).toBe(held ? `${registryType}:weather-mcp` : undefined);
  });
  it('an absent version (the schema allows it: the runner takes the latest when it starts, as for `latest`) is held for it', () => {
    const out = mcpPackages.evaluate({ mcp: facts({ packages: [pkg({ version: null })] }) }, NOW);
    expect(out.score).toBe(80);
    expect(out.holdVerdict).toBeDefined();
    expect(out.data?.unpinned).toBe('npm:weather-mcp');
  });
});
