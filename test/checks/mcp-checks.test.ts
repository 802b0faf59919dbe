/**
 * The MCP Registry entry checks on written facts (the fixture-server tests in
 * test/cli/check-mcp.test.ts run them on real entries): each message, cap and hold.
 */
import { describe, expect, it } from 'vitest';
import type { McpFacts, McpPackageFacts } from '../../src/evidence/schema.js';
import mcpNamespaceOwner from '../../src/checks/mcp-namespace-owner.js';
import mcpPackageOwnership from '../../src/checks/mcp-package-ownership.js';
import mcpPackages from '../../src/checks/mcp-packages.js';
import mcpRegistryStatus from '../../src/checks/mcp-registry-status.js';
import mcpRemotes from '../../src/checks/mcp-remotes.js';
import mcpRuntimeReach from '../../src/checks/mcp-runtime-reach.js';
import { readmeMcpNames } from '../../src/ecosystems/mcp/claims.js';
import { hostBelongs, namespaceDomain, wideningArguments } from '../../src/checks/lib/mcp.js';

const NOW = { now: new Date('2026-11-30T00:00:00Z') };
const SERVER = 'io.github.acme/weather';

function pkg(extra: Partial<McpPackageFacts> = {}): McpPackageFacts {
  return {
    registryType: 'npm',
    identifier: 'weather-mcp',
    version: '1.0.0',
    target: 'npm:weather-mcp@1.0.0',
    evaluation: { score: 80, grade: 'A', verdictCode: 'yes', coverage: 0.9, doNotUse: false, category: 'mcp-server', error: null },
    notEvaluated: null,
    claim: { known: true, name: SERVER, where: 'package.json mcpName' },
    runtimeHint: 'npx',
    runtimeArguments: [],
    secretVariables: [],
    ...extra,
  };
}

function facts(extra: Partial<McpFacts> = {}): McpFacts {
  return {
    name: SERVER,
    version: '1.0.0',
    description: null,
    status: 'active',
    statusMessage: null,
    isLatest: true,
    publishedAt: null,
    repositoryUrl: 'https://github.com/acme/weather',
    repositoryOwner: 'acme',
    packages: [pkg()],
    remotes: [],
    ...extra,
  };
}

describe('mcp-packages', () => {
  it('scores the weakest package and caps the entry there', () => {
    const out = mcpPackages.evaluate({ mcp: facts({ packages: [pkg(), pkg({ target: 'pypi:w==1', evaluation: { ...pkg().evaluation!, score: 42.5 } })] }) }, NOW);
    expect(out).toMatchObject({ score: 42.5, messageId: 'weakest' });
    expect(out.caps?.[0]).toMatchObject({ id: 'mcp-package-weakest', limit: 42.5 });
  });
  it('a do-not-use package makes the entry do-not-use', () => {
    const out = mcpPackages.evaluate({ mcp: facts({ packages: [pkg({ evaluation: { ...pkg().evaluation!, score: 0, verdictCode: 'do-not-use', doNotUse: true } })] }) }, NOW);
    expect(out.caps?.[0]).toMatchObject({ id: 'mcp-package-do-not-use', doNotUse: true });
  });
  it('a registry that could not answer leaves it unknown (not missing)', () => {
    const out = mcpPackages.evaluate({ mcp: facts({ packages: [pkg({ evaluation: { ...pkg().evaluation!, score: null, error: 'registry-unavailable' } })] }) }, NOW);
    expect(out).toMatchObject({ score: null, messageId: 'none-evaluated' });
    // …and what nothing evaluated cannot score as vouched for.
    expect(out.caps?.[0]).toMatchObject({ id: 'mcp-uninspected', limit: 69.9 });
  });
  it('a remote-only entry: not applicable', () => {
    expect(mcpPackages.evaluate({ mcp: facts({ packages: [] }) }, NOW).notApplicable).toBe(true);
  });
});

describe('mcp-package-ownership', () => {
  it('a package that names no server holds the verdict', () => {
    const out = mcpPackageOwnership.evaluate({ mcp: facts({ packages: [pkg({ claim: { known: true, name: null, where: 'README mcp-name' } })] }) }, NOW);
    expect(out).toMatchObject({ score: 50, messageId: 'unclaimed' });
    expect(out.holdVerdict).toBeDefined();
  });
  it('an unreadable claim is unknown; OCI only is not applicable', () => {
    expect(mcpPackageOwnership.evaluate({ mcp: facts({ packages: [pkg({ claim: { known: false, name: null, where: 'package.json mcpName' } })] }) }, NOW)).toMatchObject({ score: null, messageId: 'unknown' });
    expect(mcpPackageOwnership.evaluate({ mcp: facts({ packages: [pkg({ registryType: 'oci', claim: null })] }) }, NOW).notApplicable).toBe(true);
  });
});

describe('mcp-namespace-owner', () => {
  it('case-insensitive match; a domain namespace is not applicable; no repository is unknown', () => {
    expect(mcpNamespaceOwner.evaluate({ mcp: facts({ repositoryOwner: 'ACME' }) }, NOW)).toMatchObject({ score: 100, messageId: 'match' });
    expect(mcpNamespaceOwner.evaluate({ mcp: facts({ name: 'com.example/weather' }) }, NOW).notApplicable).toBe(true);
    expect(mcpNamespaceOwner.evaluate({ mcp: facts({ repositoryOwner: null }) }, NOW)).toMatchObject({ score: null, messageId: 'no-repository' });
  });
});

describe('mcp-registry-status', () => {
  it('deprecated without a message still caps; no status is unknown', () => {
    const out = mcpRegistryStatus.evaluate({ mcp: facts({ status: 'deprecated' }) }, NOW);
    expect(out.caps?.[0]).toMatchObject({ id: 'mcp-deprecated', limit: 49.9, args: { message: 'no message given' } });
    expect(mcpRegistryStatus.evaluate({ mcp: facts({ status: null }) }, NOW)).toMatchObject({ score: null, messageId: 'unknown' });
  });
});

describe('mcp-remotes', () => {
  const remote = (url: string, secretHeaders: string[] = []) => ({ type: 'streamable-http', url, headers: secretHeaders, secretHeaders });
  it('a host under the owner’s github.io, secret headers named', () => {
    const out = mcpRemotes.evaluate({ mcp: facts({ remotes: [remote('https://acme.github.io/mcp', ['Authorization'])] }) }, NOW);
    expect(out).toMatchObject({ score: 100, messageId: 'https' });
    expect(out.data?.secretHeaders).toEqual(['Authorization']);
    expect(out.holdVerdict).toBeUndefined();
  });
  it('a URL template in the host is not tied to the publisher', () => {
    expect(mcpRemotes.evaluate({ mcp: facts({ remotes: [remote('https://{tenant}.example.net/mcp')] }) }, NOW)).toMatchObject({ score: 60, messageId: 'foreign-host' });
  });
});

describe('mcp-runtime-reach', () => {
  it('each widening argument is named; secrets listed by name', () => {
    const out = mcpRuntimeReach.evaluate({ mcp: facts({ packages: [pkg({ registryType: 'oci', runtimeArguments: ['--privileged', '-v /var/run/docker.sock:/var/run/docker.sock', '--pid host'], secretVariables: ['TOKEN'] })] }) }, NOW);
    expect(out.data?.findings).toEqual(['privileged', 'docker-socket', 'host-pid']);
    expect(out.caps?.[0]?.id).toBe('mcp-widened-reach');
  });
});

describe('helpers', () => {
  it('README mcp-name lines, in a comment or not, with a boundary', () => {
    expect(readmeMcpNames('# x\n<!-- mcp-name: io.github.a/b -->\nmcp-name: io.github.c/d\n')).toEqual(['io.github.a/b', 'io.github.c/d']);
    expect(readmeMcpNames('see mcp-name: io.github.a/b. and more')).toEqual([]);
  });
  it('namespace domains, host ownership, widening', () => {
    expect(namespaceDomain('com.example.tools/x')).toBe('tools.example.com');
    expect(hostBelongs('api.tools.example.com', 'com.example.tools/x', null)).toBe(true);
    expect(hostBelongs('evil-example.com', 'com.example/x', null)).toBe(false);
    expect(hostBelongs('mcp.example', 'io.github.x/y', 'example')).toBe(false);
    expect(wideningArguments(['--network bridge', '--net=host'])).toEqual([{ id: 'host-network', argument: '--net=host' }]);
  });
});
