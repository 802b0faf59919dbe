/** The mcp-oci-images check on written MCP entry facts, and the OCI reference parser (end to end on real entries: test/cli/check-mcp.test.ts). */
import { describe, expect, it } from 'vitest';
import mcpOciImages from '../../src/checks/mcp-oci-images.js';
import { acceptedRegistry, parseOciReference } from '../../src/checks/lib/oci.js';
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
  it('not applicable without OCI packages', () => {
    expect(mcpOciImages.evaluate({ mcp: facts({ packages: [pkg()] }) }, NOW).notApplicable).toBe(true);
  });
});
