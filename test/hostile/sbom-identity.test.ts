/**
 * Hostile world: an SBOM component that names one package and points its package URL at
 * another. A scanner resolves the package URL; a person reading the SBOM (or the pull request
 * that edits it) sees the name and version. When they disagree, nerq cannot tell which package
 * the SBOM describes: it must not score the package URL's (a trusted one) as if it were the
 * component, nor the other way round. The component is code nerq cannot place: an
 * unvouched-remote finding without a host, the run incomplete (docs/security.md, "Dependencies
 * no registry vouches for"). A component whose name and version agree with its package URL
 * (a scoped npm name in CycloneDX's `group`, a PyPI name as written) is audited as before.
 * A package URL nerq cannot read as one registry package (a name the registry does not allow, a
 * range or `=4.1.0` for its version, no version there nor a plain one in the component) is the
 * same: an entry without a host, never a note that lets the run pass; one without a version
 * whose component gives a plain one is that version, audited.
 */
import { describe, it } from 'vitest';
import { parseAudit, serveSynthetic, writeIn, type SyntheticPackage } from '../cli/audit-helpers.js';
import { cycloneDxXml, spdxTagValue } from '../support/sbom-syntax.js';
import { useAuditWorld } from './support/audit-world.js';
import { runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, expectCleanStderr } from './support/expect.js';
import { noteCases } from './support/metrics.js';

const TRUSTED: SyntheticPackage = { name: 'nerq-trusted', version: '4.1.0' };
const PURL = `pkg:npm/${TRUSTED.name}@${TRUSTED.version}`;

const world = useAuditWorld((server) => serveSynthetic(server, TRUSTED));
const dirs = world.dirs;

const cyclonedx = (name: string, version: string, purl = PURL) => ({
  'bom.cdx.json': JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.5', components: [{ type: 'library', name, version, purl }] }, null, 2),
});
const spdx = (name: string, version: string, purl = PURL) => ({
  'sbom.spdx.json': JSON.stringify(
    {
      spdxVersion: 'SPDX-2.3',
      SPDXID: 'SPDXRef-DOCUMENT',
      packages: [{ name, SPDXID: 'SPDXRef-Package-1', versionInfo: version, downloadLocation: 'NOASSERTION', externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: purl }] }],
    },
    null,
    2,
  ),
});
// The same SBOMs in the formats' other syntaxes.
const cyclonedxXml = (name: string, version: string, purl = PURL) => ({ 'bom.xml': cycloneDxXml(JSON.parse(cyclonedx(name, version, purl)['bom.cdx.json']) as Record<string, unknown>) });
const spdxTags = (name: string, version: string, purl = PURL) => ({ 'sbom.spdx': spdxTagValue(JSON.parse(spdx(name, version, purl)['sbom.spdx.json']) as Record<string, unknown>) });
const FORMATS = { CycloneDX: cyclonedx, SPDX: spdx, 'CycloneDX XML': cyclonedxXml, 'SPDX tag-value': spdxTags };

async function audit(files: Record<string, string>) {
  const dir = dirs.make();
  for (const [name, content] of Object.entries({ ...files, '.nerqrc.json': JSON.stringify({ minScore: 0, minCoverage: 0 }) })) writeIn(dir, name, content);
  const run = await runHostile(['audit', dir, '--json', '--timeout', '30', ...Object.keys(files).flatMap((name) => ['--file', `${dir}/${name}`])], { server: world.server });
  return { run, report: parseAudit(run.stdout) as ReturnType<typeof parseAudit> & { warnings: { code: string; details: Record<string, unknown> }[] } };
}

const LIES: [string, keyof typeof FORMATS, string, string][] = [
  ['CycloneDX, another name', 'CycloneDX', 'nerq-evil', TRUSTED.version],
  ['CycloneDX, another version', 'CycloneDX', TRUSTED.name, '4.1.1'],
  ['SPDX, another name', 'SPDX', 'nerq-evil', TRUSTED.version],
  ['SPDX, another version', 'SPDX', TRUSTED.name, '9.0.0'],
  ['CycloneDX XML, another name', 'CycloneDX XML', 'nerq-evil', TRUSTED.version],
  ['SPDX tag-value, another version', 'SPDX tag-value', TRUSTED.name, '9.0.0'],
];

describe('an SBOM component whose name or version is not its package URL\'s', () => {
  it.concurrent.for(LIES)('%s: not audited as the package URL\'s package; an unvouched-remote finding, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, format, name, version], { task, expect }) => {
    noteCases(task);
    const { run, report } = await audit(FORMATS[format](name, version));
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    expect(report.entries.map((e) => e.subject.name), context).toEqual([]);
    expect(report.warnings.filter((w) => w.code === 'unvouched-remote').map((w) => w.details.package), context).toEqual([TRUSTED.name]);
  });

  it.concurrent.for(Object.keys(FORMATS) as (keyof typeof FORMATS)[])('%s, name and version agreeing: audited, exit 0', { timeout: CLI_TEST_TIMEOUT_MS }, async (format, { task, expect }) => {
    noteCases(task);
    const { run, report } = await audit(FORMATS[format](TRUSTED.name, TRUSTED.version));
    expect(report.entries.map((e) => `${e.subject.name}@${e.subject.version}`), run.stderr).toEqual([`${TRUSTED.name}@${TRUSTED.version}`]);
    expect(run.code, run.stderr).toBe(0);
  });
});

/** [label, format, the component's own version, package URL]: which package it is cannot be told. */
const UNREADABLE: [string, keyof typeof FORMATS, string, string][] = [
  ['CycloneDX, a slash before the version', 'CycloneDX', TRUSTED.version, `pkg:npm/${TRUSTED.name}/@${TRUSTED.version}`],
  ['CycloneDX, =version', 'CycloneDX', TRUSTED.version, `pkg:npm/${TRUSTED.name}@=${TRUSTED.version}`],
  ['SPDX, a range for its version', 'SPDX', TRUSTED.version, `pkg:npm/${TRUSTED.name}@%5E${TRUSTED.version}`],
  ['SPDX tag-value, no version anywhere plain', 'SPDX tag-value', '^4', `pkg:npm/${TRUSTED.name}`],
  ['CycloneDX XML, a name with a space', 'CycloneDX XML', TRUSTED.version, `pkg:npm/%20${TRUSTED.name}@${TRUSTED.version}`],
];

describe('an SBOM component whose package URL nerq cannot read as one registry package', () => {
  it.concurrent.for(UNREADABLE)('%s: an unvouched-remote finding without a host, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, format, version, purl], { task, expect }) => {
    noteCases(task);
    const { run, report } = await audit(FORMATS[format](TRUSTED.name, version, purl));
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    expect(report.entries.map((e) => e.subject.name), context).toEqual([]);
    expect(report.warnings.filter((w) => w.code === 'unvouched-remote'), context).toHaveLength(1);
  });

  it.concurrent.for(Object.keys(FORMATS) as (keyof typeof FORMATS)[])('%s, no version in the package URL, the component\'s own: audited at it', { timeout: CLI_TEST_TIMEOUT_MS }, async (format, { task, expect }) => {
    noteCases(task);
    const { run, report } = await audit(FORMATS[format](TRUSTED.name, TRUSTED.version, `pkg:npm/${TRUSTED.name}`));
    expect(report.entries.map((e) => `${e.subject.name}@${e.subject.version}`), run.stderr).toEqual([`${TRUSTED.name}@${TRUSTED.version}`]);
    expect(run.code, run.stderr).toBe(0);
  });
});
