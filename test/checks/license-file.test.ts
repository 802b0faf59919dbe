import check from '../../src/checks/license-file.js';
import { evidence, unavailable } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable } from './check-table.js';
import { repoFiles, repoManifest, repositoryEvidence } from '../support/repository-evidence.js';

type Files = { path: string; spdx: string | null }[];
const pkg = (license: string | null, licenseFiles: Files) => evidence({ registry: { license }, tarball: { licenseFiles } });

checkTable(check, [
  {
    name: 'unknown when only the README the registry shows could be read (no tarball)',
    evidence: evidence({ tarball: unavailable('timeout'), registry: { readme: { size: 9, text: '# example', truncated: false } } }),
    score: null,
    messageId: 'no-tarball',
  },
  {
    name: 'MIT file, MIT declared',
    evidence: evidence(),
    score: 100,
    messageId: 'consistent',
    data: { files: ['LICENSE'], found: ['MIT'], declared: 'MIT' },
  },
  { name: 'no licence file', evidence: pkg('MIT', []), score: 20, messageId: 'missing', data: { files: [] } },
  {
    name: 'unrecognised text',
    evidence: pkg('MIT', [{ path: 'LICENSE', spdx: null }]),
    score: 70,
    messageId: 'unrecognised',
    message: ['text not recognised'],
  },
  {
    name: 'dual licence, both files',
    evidence: pkg('(MIT OR Apache-2.0)', [
      { path: 'LICENSE-APACHE', spdx: 'Apache-2.0' },
      { path: 'LICENSE-MIT', spdx: 'MIT' },
    ]),
    score: 100,
    messageId: 'consistent',
    data: { found: ['Apache-2.0', 'MIT'] },
  },
  { name: 'GPL-3.0-or-later declared, GPL-3.0-only text', evidence: pkg('GPL-3.0-or-later', [{ path: 'COPYING', spdx: 'GPL-3.0-only' }]), score: 100, messageId: 'consistent' },
  { name: 'GPL-2.0 (deprecated id) declared, GPL-2.0-only text', evidence: pkg('GPL-2.0', [{ path: 'COPYING', spdx: 'GPL-2.0-only' }]), score: 100, messageId: 'consistent' },
  { name: 'GPL-2.0+ declared, GPL-2.0-or-later text', evidence: pkg('GPL-2.0+', [{ path: 'COPYING', spdx: 'GPL-2.0-or-later' }]), score: 100, messageId: 'consistent' },
  {
    name: 'GPL-2.0 text does not satisfy GPL-3.0',
    evidence: pkg('GPL-3.0-only', [{ path: 'COPYING', spdx: 'GPL-2.0-only' }]),
    score: 40,
    messageId: 'contradicts',
    data: { declared: 'GPL-3.0-only', found: ['GPL-2.0-only'] },
  },
  {
    name: 'Apache text, MIT declared',
    evidence: pkg('MIT', [{ path: 'LICENSE', spdx: 'Apache-2.0' }]),
    score: 40,
    messageId: 'contradicts',
    data: { declared: 'MIT', found: ['Apache-2.0'] },
    message: ['Apache-2.0', 'MIT'],
  },
  {
    name: 'declaration corrected before comparing',
    evidence: pkg('Apache 2.0', [{ path: 'LICENSE', spdx: 'Apache-2.0' }]),
    score: 100,
    messageId: 'consistent',
    data: { declared: 'Apache-2.0' },
  },
  {
    name: "a corrected declaration that contradicts the file: the manifest's own words, with how they were read (wellknown 0.5.0: 'BSD', a WTFPL file)",
    evidence: pkg('BSD', [{ path: 'LICENSE', spdx: 'WTFPL' }]),
    score: 40,
    messageId: 'contradicts',
    data: { declared: 'BSD-2-Clause', found: ['WTFPL'], declaredWords: "'BSD' (read as BSD-2-Clause)" },
    message: ["declares 'BSD' (read as BSD-2-Clause)"],
  },
  {
    name: 'SEE LICENSE IN points at the file',
    evidence: pkg('SEE LICENSE IN LICENSE.md', [{ path: 'LICENSE.md', spdx: 'MIT' }]),
    score: 100,
    messageId: 'referenced',
  },
  {
    name: 'UNLICENSED with an MIT file',
    evidence: pkg('UNLICENSED', [{ path: 'LICENSE', spdx: 'MIT' }]),
    score: 40,
    messageId: 'contradicts',
    data: { declared: 'UNLICENSED' },
  },
  { name: 'no declaration', evidence: pkg(null, [{ path: 'LICENSE', spdx: 'ISC' }]), score: 70, messageId: 'undeclared', data: { declared: null } },
  {
    name: 'declaration not SPDX',
    evidence: pkg('Public Domain', [{ path: 'LICENSE', spdx: 'Unlicense' }]),
    score: 70,
    messageId: 'declaration-unparsed',
  },
  {
    name: 'registry unavailable',
    evidence: evidence({ registry: unavailable('HTTP 503') }),
    score: 70,
    messageId: 'registry-unavailable',
    data: { declared: null, found: ['MIT'] },
  },
  // PyPI: PEP 639 license_files from the metadata (their text is not read).
  {
    name: 'PyPI: license_files listed',
    evidence: pypiEvidence(),
    score: 100,
    messageId: 'listed',
    data: { files: ['LICENSE'], found: [], declared: 'MIT' },
    message: ['Licence files listed in the PyPI metadata (PEP 639): LICENSE'],
  },
  {
    name: 'PyPI: no PEP 639 licence files in the metadata: unknown',
    evidence: pypiEvidence({ pypi: { license: { expression: null, classifiers: [], text: 'MIT', spdx: 'MIT', source: 'text', files: null } } }),
    score: null,
    messageId: 'not-listed',
    data: { files: null },
  },
  {
    name: 'PyPI: an empty license_files list',
    evidence: pypiEvidence({ pypi: { license: { expression: 'MIT', classifiers: [], text: null, spdx: 'MIT', source: 'expression', files: [] } } }),
    score: 20,
    messageId: 'missing',
  },
  // A github: target: LICENSE at the root against the licence its manifests declare.
  {
    name: 'repository: LICENSE (MIT) matches package.json\'s MIT',
    evidence: repositoryEvidence(),
    score: 100,
    messageId: 'consistent',
    data: { files: ['LICENSE'], found: ['MIT'], declared: 'MIT' },
  },
  {
    name: 'repository: LICENSE (MIT) against a manifest declaring Apache-2.0',
    evidence: repositoryEvidence({ files: repoFiles({ manifests: [repoManifest({ license: 'Apache-2.0' })] }) }),
    score: 40,
    messageId: 'contradicts',
  },
  {
    name: 'repository without a manifest: LICENSE compared with the licence GitHub detects',
    evidence: repositoryEvidence({ files: repoFiles({ manifests: [] }) }),
    score: 100,
    messageId: 'consistent',
    data: { declared: 'MIT' },
  },
  {
    name: 'repository with no manifest nerq reads for a licence (go.mod, a .csproj) and no licence GitHub identifies: not compared, not undeclared',
    evidence: repositoryEvidence({ files: repoFiles({ manifests: [] }), repository: { license: 'NOASSERTION' } }),
    score: 70,
    messageId: 'not-compared',
    data: { found: ['MIT'], declared: null },
  },
  {
    name: 'repository at a pinned ref without a manifest: the ref\'s LICENSE never compared with the default branch\'s detected licence',
    evidence: repositoryEvidence({ files: repoFiles({ branch: 'v1.0.0', commit: 'c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3', manifests: [] }), repository: { license: 'Apache-2.0' } }),
    score: 70,
    messageId: 'not-compared-ref',
    data: { found: ['MIT'], declared: null, defaultBranch: 'main' },
  },
  {
    name: 'repository whose package.json declares no licence: undeclared',
    evidence: repositoryEvidence({ files: repoFiles({ manifests: [repoManifest({ license: null })] }), repository: { license: 'NOASSERTION' } }),
    score: 70,
    messageId: 'undeclared',
  },
  {
    name: 'repository whose root Cargo.toml declares MIT OR Apache-2.0 (no package.json or pyproject.toml): compared with it',
    evidence: repositoryEvidence({ files: repoFiles({ manifests: [], declaredLicenses: [{ path: 'Cargo.toml', license: 'MIT OR Apache-2.0' }] }), repository: { license: 'NOASSERTION' } }),
    score: 100,
    messageId: 'consistent',
    data: { declared: 'MIT OR Apache-2.0' },
  },
  {
    name: 'repository whose pom.xml names a licence nerq does not map, and no licence GitHub identifies: the name kept as written, not compared, never undeclared',
    evidence: repositoryEvidence({ files: repoFiles({ manifests: [], declaredLicenses: [{ path: 'pom.xml', license: null, unmapped: 'BSD' }] }), repository: { license: 'NOASSERTION' } }),
    score: 70,
    messageId: 'declaration-unparsed',
    data: { found: ['MIT'], declared: 'BSD' },
  },
  {
    name: 'repository whose src/Serilog/Serilog.csproj declares Apache-2.0 against a LICENSE holding MIT: a contradiction',
    evidence: repositoryEvidence({ files: repoFiles({ manifests: [], declaredLicenses: [{ path: 'src/Serilog/Serilog.csproj', license: 'Apache-2.0' }] }), repository: { license: 'NOASSERTION' } }),
    score: 40,
    messageId: 'contradicts',
    data: { declared: 'Apache-2.0' },
  },
  {
    name: 'repository: a pyproject `license = { file }` pointer names no licence: the file is compared with the licence GitHub detects',
    evidence: repositoryEvidence({ files: repoFiles({ manifests: [repoManifest({ ecosystem: 'pypi', path: 'pyproject.toml', license: 'SEE LICENSE IN LICENSE' })] }) }),
    score: 100,
    messageId: 'consistent',
    data: { declared: 'MIT' },
  },
  {
    name: 'repository: a pointer and no licence GitHub identifies: the file is the one pointed to',
    evidence: repositoryEvidence({ files: repoFiles({ manifests: [repoManifest({ license: 'SEE LICENSE IN LICENSE' })] }), repository: { license: 'NOASSERTION' } }),
    score: 100,
    messageId: 'referenced',
  },
  {
    name: 'repository: no licence file at the root',
    evidence: repositoryEvidence({ files: repoFiles({ licenseFiles: [] }) }),
    score: 20,
    messageId: 'missing-repository',
  },
  {
    name: 'repository: a truncated tree without a licence file listed: unknown',
    evidence: repositoryEvidence({ files: repoFiles({ licenseFiles: [], treeTruncated: true }) }),
    score: null,
    messageId: 'unreadable',
  },
]);
