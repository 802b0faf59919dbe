/** The mcp-oci-images check on written MCP entry facts, and the OCI reference parser (end to end on real entries: test/cli/check-mcp.test.ts). */
import { describe, expect, it } from 'vitest';
import mcpOciImages from '../../src/checks/mcp-oci-images.js';
import { acceptedRegistry, ociImageOf, parseOciReference } from '../../src/checks/lib/oci.js';
import { NOW, pkg, facts } from './mcp-support.js';

const DIGEST = `sha256:${'ab'.repeat(32)}`;
const oci = (identifier: string) => pkg({ registryType: 'oci', identifier, version: null, target: null, evaluation: null, claim: null });
const run = (...identifiers: string[]) => mcpOciImages.evaluate({ mcp: facts({ packages: identifiers.map(oci) }) }, NOW);

describe('parseOciReference', () => {
  it.each([
    ['docker.io/domdomegg/airtable-mcp-server:1.7.3', { registry: 'docker.io', repository: 'domdomegg/airtable-mcp-server', tag: '1.7.3', digest: null }],
    [`ghcr.io/acme/box@${DIGEST}`, { registry: 'ghcr.io', repository: 'acme/box', tag: null, digest: DIGEST }],
    [`quay.io/org/a/b:2@${DIGEST}`, { registry: 'quay.io', repository: 'org/a/b', tag: '2', digest: DIGEST }],
    ['acme/box', { registry: 'docker.io', repository: 'acme/box', tag: null, digest: null }],
    ['localhost:5000/box:dev', { registry: 'localhost:5000', repository: 'box', tag: 'dev', digest: null }],
    // A registry host written with https's default port is the same registry; any other port is another.
    ['ghcr.io:443/acme/box:1.0', { registry: 'ghcr.io', repository: 'acme/box', tag: '1.0', digest: null }],
    [`GHCR.IO:443/acme/box@${DIGEST}`, { registry: 'ghcr.io', repository: 'acme/box', tag: null, digest: DIGEST }],
    ['docker.io:443/acme/box:1.0', { registry: 'docker.io', repository: 'acme/box', tag: '1.0', digest: null }],
    ['ghcr.io:8443/acme/box:1.0', { registry: 'ghcr.io:8443', repository: 'acme/box', tag: '1.0', digest: null }],
    ['ghcr.io:4430/acme/box:1.0', { registry: 'ghcr.io:4430', repository: 'acme/box', tag: '1.0', digest: null }],
    ['docker.io:80/acme/box:1.0', { registry: 'docker.io:80', repository: 'acme/box', tag: '1.0', digest: null }],
  ])('%s', (identifier, expected) => {
    expect(parseOciReference(identifier)).toEqual(expected);
  });
  it.each(['', 'Acme/Box', 'ghcr.io/acme/box@sha256:short', 'ghcr.io/acme/box:bad tag', 'ghcr.io//box', 'ghcr.io/acme/box:${VERSION}'])('%j is not a reference', (identifier) => {
    expect(parseOciReference(identifier)).toBeNull();
  });
  it('the registries the MCP Registry accepts', () => {
    expect(['docker.io', 'ghcr.io', 'quay.io', 'mcr.microsoft.com', 'us-docker.pkg.dev', 'acme.azurecr.io'].every(acceptedRegistry)).toBe(true);
    expect(['registry.evil.example', 'pkg.dev.evil.example', 'localhost:5000'].some(acceptedRegistry)).toBe(false);
  });
});

describe('mcp-oci-images', () => {
  it('a digest scores 100, a tag 60, latest or none 30; the weakest counts; the label is said not read', () => {
    expect(run(`ghcr.io/acme/box@${DIGEST}`)).toMatchObject({ score: 100, messageId: 'pinned', data: { labelVerified: null } });
    expect(run(`ghcr.io/acme/box@${DIGEST}`, 'docker.io/acme/box:1.2.0')).toMatchObject({ score: 60, messageId: 'tag', data: { image: 'docker.io/acme/box:1.2.0' } });
    expect(run('docker.io/acme/box:latest', 'docker.io/acme/box:1.2.0')).toMatchObject({ score: 30, messageId: 'latest' });
    expect(run('acme/box')).toMatchObject({ score: 30, messageId: 'latest' });
  });
  it('an image registry the MCP Registry does not accept, or no reference at all, scores 0', () => {
    expect(run('registry.evil.example/acme/box:1.0')).toMatchObject({ score: 0, messageId: 'foreign-registry', data: { registry: 'registry.evil.example' } });
    expect(run('ghcr.io/github/github-mcp-server:${VERSION}')).toMatchObject({ score: 0, messageId: 'malformed' });
  });
  it.each([
    ['ghcr.io:443/acme/box:1.0', 60, 'tag'],
    [`ghcr.io:443/acme/box@${DIGEST}`, 100, 'pinned'],
    ['docker.io:443/acme/box:1.0', 60, 'tag'],
    ['ghcr.io:8443/acme/box:1.0', 0, 'foreign-registry'],
    ['docker.io:8443/acme/box:1.0', 0, 'foreign-registry'],
  ])('%s: a registry written with its default https port is that registry, another port is foreign', (identifier, score, messageId) => {
    expect(run(identifier)).toMatchObject({ score, messageId });
  });
  it('an entry of schema 2025-09-29 names the registry in registryBaseUrl and the tag in version: the image is read with them, not as `latest`', () => {
    // The shape of the production seed's 88 OCI packages (fixtures/mcp-registry/seed-2025-09-29.json.gz).
    const legacy = (identifier: string, version: string | null, registryBaseUrl: string | null) =>
      mcpOciImages.evaluate({ mcp: facts({ packages: [pkg({ registryType: 'oci', identifier, version, registryBaseUrl, target: null, evaluation: null, claim: null })] }) }, NOW);
    expect(legacy('grafana/mcp-grafana', '0.6.5', 'https://docker.io')).toMatchObject({ score: 60, messageId: 'tag', data: { image: 'docker.io/grafana/mcp-grafana:0.6.5' } });
    // A registry the MCP Registry does not accept is not hidden behind Docker's default.
    expect(legacy('acme/box', '1.0.0', 'https://registry.evil.example')).toMatchObject({ score: 0, messageId: 'foreign-registry', data: { registry: 'registry.evil.example' } });
    // No version and no tag is still whatever was pushed last; a malformed identifier stays malformed.
    expect(legacy('acme/box', null, 'https://docker.io')).toMatchObject({ score: 30, messageId: 'latest' });
    expect(legacy('@scope/not-an-image', '1.0.10', 'https://docker.io')).toMatchObject({ score: 0, messageId: 'malformed' });
  });
  it('an image whose version or registryBaseUrl the entry writes in a shape nerq cannot read: unknown, never read without it; a failing image still fails', () => {
    const unreadable = (identifier: string, member: string) => pkg({ registryType: 'oci', identifier, version: null, unreadable: [member], target: null, evaluation: null, claim: null });
    const judged = (...packages: ReturnType<typeof pkg>[]) => mcpOciImages.evaluate({ mcp: facts({ packages }) }, NOW);
    // Read without its version, `acme/box` would be judged `latest` (30): a made-up reference.
    expect(judged(unreadable('acme/box', 'version (a number, not text)'))).toMatchObject({ score: null, messageId: 'unreadable', data: { image: 'acme/box', member: 'version (a number, not text)' } });
    expect(judged(unreadable('acme/box', 'registryBaseUrl (over 512 characters)'), oci(`ghcr.io/acme/box@${DIGEST}`))).toMatchObject({ score: null, messageId: 'unreadable' });
    expect(judged(unreadable('acme/box', 'version (a number, not text)'), oci('registry.evil.example/acme/box:1.0'))).toMatchObject({ score: 0, messageId: 'foreign-registry' });
    // A runtime hint is not part of the reference.
    expect(judged(unreadable(`ghcr.io/acme/box@${DIGEST}`, 'runtimeHint (over 64 characters)'))).toMatchObject({ score: 100, messageId: 'pinned' });
  });
  it.each([
    ['ghcr.io/acme/box:v1.2.3', null, null, 'ghcr.io/acme/box:v1.2.3'],
    ['ghcr.io/acme/box:v1.2.3', '9.9.9', 'https://docker.io', 'ghcr.io/acme/box:v1.2.3'],
    [`acme/box@${DIGEST}`, '1.0.0', null, `acme/box@${DIGEST}`],
    ['acme/box', '1.0.0', 'https://docker.io', 'docker.io/acme/box:1.0.0'],
    ['acme/box', '1.0.0', 'https://user:secret@ghcr.io/', 'ghcr.io/acme/box:1.0.0'],
    ['acme/box', '1.0.0', 'not a url', 'acme/box:1.0.0'],
  ] as const)('ociImageOf(%j, %j, %j) = %j', (identifier, version, base, expected) => {
    expect(ociImageOf(identifier, version, base)).toBe(expected);
  });
  it('not applicable without OCI packages', () => {
    expect(mcpOciImages.evaluate({ mcp: facts({ packages: [pkg()] }) }, NOW).notApplicable).toBe(true);
  });
});
