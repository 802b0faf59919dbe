import check from '../../src/checks/unvouched-dependencies.js';
import type { NonRegistryDependency } from '../../src/evidence/schema.js';
import { evidence, manifestOf, registryFacts, tarballFacts } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';

const git: NonRegistryDependency = { name: 'helper', spec: 'github:evil/helper', kind: 'git', field: 'dependencies' };
const url: NonRegistryDependency = { name: 'blob', spec: 'https://evil.example/blob.tgz', kind: 'url', field: 'optionalDependencies' };

checkTable(check, [
  { name: 'registry ranges only', evidence: evidence(), score: 100, messageId: 'none', data: { dependencies: [] } },
  {
    name: 'a git dependency in the packument',
    evidence: evidence({ registry: { nonRegistryDependencies: [git] } }),
    score: 20,
    messageId: 'some',
    data: { count: 1, dependencies: ['helper (git: github:evil/helper)'] },
    message: ['helper'],
  },
  {
    name: 'a URL only in the tarball, the git one in both (listed once)',
    evidence: evidence({
      registry: { nonRegistryDependencies: [git] },
      tarball: tarballFacts({ manifest: { ...manifestOf(registryFacts()), nonRegistryDependencies: [git, url] } }),
    }),
    score: 20,
    messageId: 'some',
    data: { count: 2, dependencies: ['helper (git: github:evil/helper)', 'blob (url: https://evil.example/blob.tgz)'] },
  },
  {
    name: 'the tarball unavailable: the packument alone decides',
    evidence: evidence({ registry: { nonRegistryDependencies: [url] }, tarball: { status: 'unavailable', reason: 'tarball: timeout' } }),
    score: 20,
    messageId: 'some',
    data: { count: 1 },
  },
]);
