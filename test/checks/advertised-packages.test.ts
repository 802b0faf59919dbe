import check from '../../src/checks/advertised-packages.js';
import { distributed, repositoryEvidence } from '../support/repository-evidence.js';
import { checkTable } from './check-table.js';

const dist = (packages: ReturnType<typeof distributed>[], images: { name: string; command: string }[] = []) => ({ packages, images, skipped: [] });

checkTable(check, [
  {
    name: 'a package that links back and that a manifest here names: verified',
    evidence: repositoryEvidence({ distribution: dist([distributed()]) }),
    score: 100,
    messageId: 'verified',
    data: { verified: 'npm:example' },
  },
  {
    name: 'the README advertises a package nobody published: a finding naming it, the verdict held',
    evidence: repositoryEvidence({
      distribution: dist([distributed({ name: 'mcp-code-runner', declared: false, status: 'missing', linksTo: null, reason: 'the npm registry has no such package' })]),
    }),
    score: 0,
    messageId: 'missing',
    data: { missing: 'npm:mcp-code-runner' },
    message: ['npm:mcp-code-runner'],
  },
  {
    name: 'the README advertises three packages nobody published: all named, the message reads for several as for one',
    evidence: repositoryEvidence({
      distribution: dist(
        ['mcp-tool', 'mcp-tool-cli', 'mcp-tool-web'].map((name) => distributed({ name, command: `npm install ${name}`, declared: false, status: 'missing', linksTo: null, reason: 'the npm registry has no such package' })),
      ),
    }),
    score: 0,
    messageId: 'missing',
    data: { missing: 'npm:mcp-tool, npm:mcp-tool-cli, npm:mcp-tool-web' },
    message: ['install npm:mcp-tool, npm:mcp-tool-cli, npm:mcp-tool-web, not published'],
  },
  {
    name: 'the README advertises a package published from another repository',
    evidence: repositoryEvidence({
      distribution: dist([distributed({ ecosystem: 'pypi', name: 'example-tool', command: 'uvx example-tool', declared: false, status: 'elsewhere', linksTo: 'https://github.com/someone/else' })]),
    }),
    score: 0,
    messageId: 'elsewhere',
    data: { elsewhere: 'pypi:example-tool', linksTo: 'https://github.com/someone/else' },
    message: ['pypi:example-tool', 'someone/else'],
  },
  {
    name: 'an advertised package that names no repository cannot be confirmed',
    evidence: repositoryEvidence({ distribution: dist([distributed({ status: 'unlinked', linksTo: null })]) }),
    score: 50,
    messageId: 'unlinked',
  },
  {
    name: 'a manifest name taken on the registry by another repository',
    evidence: repositoryEvidence({ distribution: dist([distributed({ command: null, status: 'elsewhere', linksTo: 'https://github.com/other/pkg' })]) }),
    score: 60,
    messageId: 'name-taken',
    data: { taken: 'npm:example' },
  },
  {
    name: 'links here but no manifest here names it',
    evidence: repositoryEvidence({ distribution: dist([distributed({ status: 'unconfirmed', reason: 'package.json at main names "other"' })]) }),
    score: 70,
    messageId: 'unconfirmed',
  },
  {
    name: 'the registry could not answer: unknown, never a pass',
    evidence: repositoryEvidence({ distribution: dist([distributed({ status: 'unavailable', linksTo: null, reason: 'HTTP 503' })]) }),
    score: null,
    messageId: 'registry-unknown',
  },
  {
    name: 'images only: nothing to judge, listed',
    evidence: repositoryEvidence({ distribution: dist([], [{ name: 'ghcr.io/acme/server', command: 'docker run ghcr.io/acme/server' }]) }),
    score: null,
    messageId: 'none',
    data: { images: ['ghcr.io/acme/server'] },
  },
  {
    name: 'a third-party dependency installed alongside is listed, not judged; the own package verifies',
    evidence: repositoryEvidence({
      repository: { fullName: 'acme/widget-server' },
      distribution: dist([
        distributed({ name: '@acme/widget-server', command: 'npm i @acme/widget-server express', declared: false }),
        distributed({ name: 'express', command: 'npm i @acme/widget-server express', declared: false, status: 'elsewhere', linksTo: 'https://github.com/expressjs/express' }),
      ]),
    }),
    score: 100,
    messageId: 'verified',
    data: { thirdParty: ['npm:express'], verified: 'npm:@acme/widget-server' },
  },
  {
    name: 'a name that claims the repository, published from another one, is a finding even when no manifest declares it',
    evidence: repositoryEvidence({
      repository: { fullName: 'acme/widget-mcp' },
      distribution: dist([distributed({ name: '@widget/mcp', command: 'npx @widget/mcp', declared: false, status: 'elsewhere', linksTo: 'https://github.com/mallory/widget' })]),
    }),
    score: 0,
    messageId: 'elsewhere',
  },
  {
    name: "a tool under the owner's npm scope published from another of the owner's repositories is a sibling listed, not an impostor",
    evidence: repositoryEvidence({
      repository: { fullName: 'acme/kotlin-sdk' },
      distribution: dist([distributed({ name: '@acme/inspector', command: 'npx -y @acme/inspector', declared: false, status: 'elsewhere', linksTo: 'https://github.com/acme/inspector' })]),
    }),
    score: null,
    messageId: 'none',
    data: { thirdParty: ['npm:@acme/inspector'] },
  },
  {
    name: "the owner's scope published from another owner's repository is still a finding",
    evidence: repositoryEvidence({
      repository: { fullName: 'acme/kotlin-sdk' },
      distribution: dist([distributed({ name: '@acme/inspector', command: 'npx -y @acme/inspector', declared: false, status: 'elsewhere', linksTo: 'https://github.com/mallory/inspector' })]),
    }),
    score: 0,
    messageId: 'elsewhere',
  },
]);
