/** The mcp-image-owner check on written MCP entry facts: who controls an entry's images, from their references alone. */
import { describe, expect, it } from 'vitest';
import mcpImageOwner from '../../src/checks/mcp-image-owner.js';
import { NOW, pkg, facts } from './mcp-support.js';

const DIGEST = `sha256:${'ab'.repeat(32)}`;
type Oci = { identifier: string; version?: string | null; registryBaseUrl?: string | null; unreadable?: string[] };
const oci = ({ identifier, version = null, registryBaseUrl = null, unreadable }: Oci) =>
  pkg({ registryType: 'oci', identifier, version, registryBaseUrl, target: null, evaluation: null, claim: null, ...(unreadable === undefined ? {} : { unreadable }) });
const run = (name: string, ...images: (string | Oci)[]) =>
  mcpImageOwner.evaluate({ mcp: facts({ name, packages: images.map((i) => oci(typeof i === 'string' ? { identifier: i } : i)) }) }, NOW);

describe('mcp-image-owner', () => {
  it.each<[string, string, (string | Oci)[], number | null, string, Record<string, unknown>]>([
    ['ghcr.io under the io.github namespace\'s account', 'io.github.acme/box', ['ghcr.io/acme/box:1.0.0'], 100, 'namespace-account', { owner: 'acme', labelVerified: null }],
    ['the account compared without letter case (GitHub\'s account names)', 'io.github.Acme/box', [`ghcr.io/acme/box@${DIGEST}`], 100, 'namespace-account', { owner: 'acme' }],
    ['an image registry under the domain a reverse-DNS namespace proves', 'com.microsoft/azure', ['mcr.microsoft.com/azure-mcp:1.0'], 100, 'namespace-domain', { registry: 'mcr.microsoft.com', domain: 'microsoft.com' }],
    ['ghcr.io written with https\'s default port is ghcr.io', 'io.github.acme/box', ['ghcr.io:443/acme/box:1.0.0'], 100, 'namespace-account', { owner: 'acme' }],
    ['ghcr.io on another port is another registry: unknown', 'io.github.acme/box', ['ghcr.io:8443/acme/box:1.0.0'], null, 'unproven', {}],
    ['ghcr.io under another GitHub account', 'io.github.acme/box', ['ghcr.io/evil/box:1.0.0'], 30, 'other-account', { owner: 'evil', namespace: 'io.github.acme' }],
    ['the weakest image counts: another account beside the namespace\'s own', 'io.github.acme/box', ['ghcr.io/acme/box:1.0.0', 'ghcr.io/evil/box:1.0.0'], 30, 'other-account', { image: 'ghcr.io/evil/box:1.0.0' }],
    ['Docker Hub: an account of the same name there is no GitHub account', 'io.github.acme/box', ['docker.io/acme/box:1.0.0'], null, 'unproven', { registry: 'docker.io' }],
    ['a GitHub account named like a domain namespace proves nothing', 'com.acme/box', ['ghcr.io/acme/box:1.0.0'], null, 'unproven', {}],
    ['a domain that only looks like the namespace\'s', 'com.microsoft/azure', ['microsoft.azurecr.io/azure-mcp:1.0'], null, 'unproven', {}],
    ['one unknown image keeps a pass from passing', 'io.github.acme/box', ['ghcr.io/acme/box:1.0.0', 'quay.io/acme/box:1.0.0'], null, 'unproven', { image: 'quay.io/acme/box:1.0.0' }],
    ['no image reference, or an image registry the MCP Registry does not accept: unknown (mcp-oci-images fails it)', 'io.github.acme/box', ['ghcr.io/acme/box:${VERSION}', 'registry.evil.example/acme/box:1'], null, 'unproven', {}],
    ['an older entry: the registry named in registryBaseUrl', 'io.github.acme/box', [{ identifier: 'acme/box', version: '1.0.0', registryBaseUrl: 'https://ghcr.io' }], 100, 'namespace-account', { image: 'ghcr.io/acme/box:1.0.0' }],
    ['a registryBaseUrl nerq cannot read: unknown, not read as Docker Hub', 'io.github.acme/box', [{ identifier: 'acme/box', unreadable: ['registryBaseUrl (over 512 characters)'] }], null, 'unproven', { image: 'acme/box' }],
  ])('%s', (_label, name, images, score, messageId, data) => {
    const outcome = run(name, ...images);
    expect(outcome).toMatchObject({ score, messageId });
    expect(outcome.data).toMatchObject(data);
  });

  it('not applicable without OCI packages', () => {
    expect(mcpImageOwner.evaluate({ mcp: facts({ packages: [pkg()] }) }, NOW)).toMatchObject({ notApplicable: true, messageId: 'none' });
  });
});
