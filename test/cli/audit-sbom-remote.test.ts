/**
 * `nerq audit --file` over an SBOM with a component fetched from a git repository (README.md,
 * `nerq audit`; docs/security.md, "Dependencies no registry vouches for"): as for a lockfile,
 * the run is INCOMPLETE (exit 3) with an `unvouched-remote` finding at the component's line that
 * names the host, nothing is asked of the registry for it, and `--allow-incomplete` accepts it.
 * The SBOMs are shaped as `npm sbom` writes them (the git resolution unencoded in the package
 * URL's `vcs_url`, and as the SPDX `downloadLocation`).
 */
import { describe, expect, it } from 'vitest';
import type { FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { lineOf, parseAudit, useAuditServer, type SyntheticPackage } from './audit-helpers.js';

const SHA = '0123456789abcdef0123456789abcdef01234567';
const REGISTRY_PACKAGE: SyntheticPackage = { name: 'nerq-audit-first', version: '1.0.0' };
const GIT = { name: 'helper', version: '1.0.0', resolved: `git+ssh://git@github.com/acme/helper.git#${SHA}` };

let server: FixtureServer;

function cyclonedx(): string {
  const item = (name: string, version: string, purl: string) => ({ 'bom-ref': `${name}@${version}`, type: 'library', name, version, scope: 'required', purl });
  return `${JSON.stringify(
    {
      bomFormat: 'CycloneDX',
      specVersion: '1.5',
      version: 1,
      metadata: { component: { ...item('app', '1.0.0', 'pkg:npm/app@1.0.0'), type: 'application' } },
      components: [
        item(REGISTRY_PACKAGE.name, REGISTRY_PACKAGE.version, `pkg:npm/${REGISTRY_PACKAGE.name}@${REGISTRY_PACKAGE.version}`),
        { ...item(GIT.name, GIT.version, `pkg:npm/${GIT.name}@${GIT.version}?vcs_url=${GIT.resolved}`), externalReferences: [{ type: 'distribution', url: GIT.resolved }] },
      ],
      dependencies: [{ ref: 'app@1.0.0', dependsOn: [`${REGISTRY_PACKAGE.name}@${REGISTRY_PACKAGE.version}`, `${GIT.name}@${GIT.version}`] }],
    },
    null,
    2,
  )}\n`;
}

function spdx(): string {
  const item = (name: string, version: string, purl: string, downloadLocation: string) => ({
    name,
    SPDXID: `SPDXRef-Package-${name}-${version}`,
    versionInfo: version,
    downloadLocation,
    filesAnalyzed: false,
    externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: purl }],
  });
  const root = item('app', '1.0.0', 'pkg:npm/app@1.0.0', 'NOASSERTION');
  const registry = item(REGISTRY_PACKAGE.name, REGISTRY_PACKAGE.version, `pkg:npm/${REGISTRY_PACKAGE.name}@${REGISTRY_PACKAGE.version}`, 'NOASSERTION');
  const git = item(GIT.name, GIT.version, `pkg:npm/${GIT.name}@${GIT.version}?vcs_url=${GIT.resolved}`, GIT.resolved);
  return `${JSON.stringify(
    {
      spdxVersion: 'SPDX-2.3',
      dataLicense: 'CC0-1.0',
      SPDXID: 'SPDXRef-DOCUMENT',
      name: 'app@1.0.0',
      documentDescribes: [root.SPDXID],
      packages: [root, registry, git],
      relationships: [
        { spdxElementId: 'SPDXRef-DOCUMENT', relatedSpdxElement: root.SPDXID, relationshipType: 'DESCRIBES' },
        { spdxElementId: registry.SPDXID, relatedSpdxElement: root.SPDXID, relationshipType: 'DEPENDENCY_OF' },
        { spdxElementId: git.SPDXID, relatedSpdxElement: root.SPDXID, relationshipType: 'DEPENDENCY_OF' },
      ],
    },
    null,
    2,
  )}\n`;
}

const dirs = useAuditServer({ packages: [REGISTRY_PACKAGE] }, (started) => {
  server = started;
});

describe.each([
  ['bom.cdx.json', cyclonedx, `"purl": "pkg:npm/${GIT.name}@`],
  ['sbom.spdx.json', spdx, `"referenceLocator": "pkg:npm/${GIT.name}@`],
])('%s with a git component', (name, make, needle) => {
  it('exits 3 with an unvouched-remote finding at its line naming the host, and 0 with --allow-incomplete', async () => {
    const text = make();
    const dir = dirs.project({ [name]: text });
    const file = `${dir}/${name}`;
    const run = await runCli(['audit', '--file', file, '--json'], { server });
    expect(run.code, run.stderr).toBe(3);
    const report = parseAudit(run.stdout);
    expect(report.outcome).toEqual({ result: 'incomplete', exitCode: 3, allowIncomplete: false });
    expect(report.unvouched?.map((u) => [u.ecosystem, u.name, u.line, u.host, u.status, u.direct])).toEqual([['npm', GIT.name, lineOf(text, needle), 'github.com', 'unvouched', true]]);
    expect(report.warnings.filter((w) => w.code === 'unvouched-remote').map((w) => w.details.package)).toEqual([GIT.name]);
    expect(report.entries.map((e) => e.subject.name)).toEqual([REGISTRY_PACKAGE.name]);
    // Nothing was asked of the registry for the git component.
    expect(server.requests.some((r) => r.path.includes(`/${GIT.name}`))).toBe(false);

    const allowed = await runCli(['audit', '--file', file, '--json', '--allow-incomplete'], { server });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(parseAudit(allowed.stdout).outcome).toEqual({ result: 'pass', exitCode: 0, allowIncomplete: true });
  });
});
