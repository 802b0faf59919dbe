/**
 * The mcp-bundles check on written MCP entry facts: the real MCP bundles of the registry's seed
 * and documentation (fixtures/mcp-registry/seed.json, server-json-examples/13-…), and edits of
 * them (said so). End to end through `nerq check mcp:…`: test/mcp-registry/bundles.test.ts.
 */
import { describe, expect, it } from 'vitest';
import mcpBundles from '../../src/checks/mcp-bundles.js';
import { NOW, pkg, facts } from './mcp-support.js';

// io.github.domdomegg/airtable-mcp-server 1.7.3 (seed.json), as published.
const AIRTABLE = 'https://github.com/domdomegg/airtable-mcp-server/releases/download/v1.7.3/airtable-mcp-server.mcpb';
const AIRTABLE_SHA = '0f28a9129cfebd262dfb77854c872355d21401bb3e056575b3027081f5d570ca';
const AIRTABLE_REPO = 'https://github.com/domdomegg/airtable-mcp-server.git';

const bundle = (identifier: string, fileSha256: string | null = AIRTABLE_SHA) =>
  pkg({ registryType: 'mcpb', identifier, version: null, fileSha256, target: null, evaluation: null, claim: null, notEvaluated: 'mcpb packages are not evaluated yet' });
const run = (repositoryUrl: string | null, ...packages: ReturnType<typeof bundle>[]) => mcpBundles.evaluate({ mcp: facts({ repositoryUrl, packages }) }, NOW);

describe('mcp-bundles', () => {
  it.each([
    ['the seed\'s bundle: a release asset of the repository the entry names, its SHA-256 given', AIRTABLE_REPO, [bundle(AIRTABLE)], 100, 'release'],
    ['the documentation\'s example (repository URL written without .git)', 'https://github.com/modelcontextprotocol/text-editor-mcpb', [bundle('https://github.com/modelcontextprotocol/text-editor-mcpb/releases/download/v1.0.2/text-editor.mcpb', 'fe333e598595000ae021bd27117db32ec69af6987f507ba7a63c90638ff633ce')], 100, 'release'],
    ['a GitLab release asset of the repository named (edit)', 'https://gitlab.com/acme/tools/weather', [bundle('https://gitlab.com/acme/tools/weather/-/releases/v1.0.0/downloads/weather.mcpb')], 100, 'release'],
    ['a release of another repository (edit)', 'https://github.com/acme/weather', [bundle(AIRTABLE)], 30, 'other-repository'],
    ['no repository named to compare with (edit)', null, [bundle(AIRTABLE)], null, 'no-repository'],
    ['no SHA-256 (edit)', AIRTABLE_REPO, [bundle(AIRTABLE, null)], 0, 'no-hash'],
    ['a SHA-256 that is not 64 hex digits (edit)', AIRTABLE_REPO, [bundle(AIRTABLE, 'abc123...')], 0, 'no-hash'],
    ['a file on another host (edit)', AIRTABLE_REPO, [bundle('https://files.example/airtable-mcp-server.mcpb')], 0, 'not-a-release'],
    ['a release asset over http (edit)', AIRTABLE_REPO, [bundle(AIRTABLE.replace('https:', 'http:'))], 0, 'not-a-release'],
    ['a GitHub URL that is not a release asset (edit)', AIRTABLE_REPO, [bundle('https://github.com/domdomegg/airtable-mcp-server/raw/main/x.mcpb')], 0, 'not-a-release'],
    ['not a URL (edit)', AIRTABLE_REPO, [bundle('airtable-mcp-server.mcpb')], 0, 'not-a-release'],
    ['the weakest bundle counts (edit: a second one without its hash)', AIRTABLE_REPO, [bundle(AIRTABLE), bundle(AIRTABLE, null)], 0, 'no-hash'],
  ])('%s', (_label, repositoryUrl, packages, score, messageId) => {
    const outcome = run(repositoryUrl, ...packages);
    expect(outcome).toMatchObject({ score, messageId });
    // The bundle is never downloaded: its hash is never said to be verified.
    expect(outcome.data?.hashVerified).toBeNull();
  });

  it('evidence saved before the SHA-256 was recorded: unknown, never "gives no SHA-256"', () => {
    const { fileSha256: _recorded, ...old } = bundle(AIRTABLE);
    expect(run(AIRTABLE_REPO, old)).toMatchObject({ score: null, messageId: 'hash-unrecorded' });
    // A bundle that is no release asset still fails on what was recorded.
    const { fileSha256: _none, ...elsewhere } = bundle('https://files.example/airtable-mcp-server.mcpb');
    expect(run(AIRTABLE_REPO, old, elsewhere)).toMatchObject({ score: 0, messageId: 'not-a-release' });
  });

  it('an entry without bundles: not applicable', () => {
    expect(run(AIRTABLE_REPO, pkg())).toMatchObject({ score: null, messageId: 'none', notApplicable: true });
  });
});
