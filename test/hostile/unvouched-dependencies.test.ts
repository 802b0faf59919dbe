/**
 * Hostile world: dependencies no registry vouches for. A package whose dependencies include a
 * git or GitHub spec, a tarball URL, a `file:` or `link:` path makes npm fetch code nothing
 * scored describes (a git dependency even runs its `prepare` script). Such a package is not
 * "clean": the dependencies are listed, and the verdict is held, whether the packument or only
 * the tarball's own package.json declares them.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { checkOf, osvNoAdvisories } from '../cli/helpers.js';
import { makeTarball } from '../support/tarball.js';
import { requireCli } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS } from './support/expect.js';
import { noteCases } from './support/metrics.js';
import { closeWorlds, evaluate, version, vouchedFor } from './support/package-world.js';

beforeAll(() => requireCli());
afterAll(() => closeWorlds());

const DEPENDENCIES = { 'ansi-styles': '^4.1.0', 'supports-color': '^7.1.0' };
const manifest = (dependencies: Record<string, string>) => ({ name: 'chalk', version: '4.1.0', dependencies });
const tarballOf = (dependencies: Record<string, string>) =>
  makeTarball([{ path: 'package.json', content: JSON.stringify(manifest(dependencies)) }, { path: 'readme.md', content: '# chalk\n' }]);

const SPECS: [label: string, name: string, spec: string, kind: string][] = [
  ['a GitHub shorthand', 'helper', 'github:evil/helper', 'git'],
  ['a bare owner/repo', 'helper', 'evil/helper#main', 'git'],
  ['a git+https URL', 'helper', 'git+https://git.example/evil/helper.git', 'git'],
  ['a tarball URL', 'helper', 'https://evil.example/helper-1.0.0.tgz', 'url'],
  ['a file: folder', 'helper', 'file:../helper', 'file'],
  ['a link: path', 'helper', 'link:../helper', 'link'],
];

describe('dependencies npm would fetch from outside a registry', () => {
  it.concurrent.for(SPECS)('%s in the packument: listed, and the verdict is held', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, name, spec, kind], { task, expect }) => {
    noteCases(task);
    const dependencies = { ...DEPENDENCIES, [name]: spec };
    const overrides = vouchedFor(tarballOf(dependencies), (p) => void (version(p).dependencies = dependencies));
    const { report, sandbox } = await evaluate(task, label, { ...overrides, osv: osvNoAdvisories });
    sandbox.remove();
    const check = checkOf(report, 'unvouched-dependencies');
    expect(check.score, label).toBe(20);
    expect(check.evidence.dependencies, label).toEqual([`${name} (${kind}: ${spec})`]);
    expect(report.verdictCode, label).not.toBe('yes');
  });

  it('declared only in the tarball\'s package.json: listed too', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const label = 'tarball only';
    const { report, sandbox } = await evaluate(task, label, { ...vouchedFor(tarballOf({ ...DEPENDENCIES, helper: 'github:evil/helper' })), osv: osvNoAdvisories });
    sandbox.remove();
    expect(checkOf(report, 'unvouched-dependencies').evidence.dependencies, label).toEqual(['helper (git: github:evil/helper)']);
    expect(report.verdictCode, label).not.toBe('yes');
  });

  it('registry ranges and npm: aliases only: nothing to hold', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const dependencies = { ...DEPENDENCIES, styles: 'npm:ansi-styles@^4.1.0' };
    const { report, sandbox } = await evaluate(task, 'aliases', { ...vouchedFor(tarballOf(dependencies), (p) => void (version(p).dependencies = dependencies)), osv: osvNoAdvisories });
    sandbox.remove();
    expect(checkOf(report, 'unvouched-dependencies').score).toBe(100);
  });
});
