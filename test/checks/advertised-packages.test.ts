import { expect } from 'vitest';
import check from '../../src/checks/advertised-packages.js';
import { distributed, repositoryEvidence } from '../support/repository-evidence.js';
import { checkTable, outcomeOf } from './check-table.js';
import { it } from 'vitest';

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
    name: "an image on ghcr.io under the repository owner's account (case aside): its own, no network needed",
    evidence: repositoryEvidence({ repository: { fullName: 'Acme/server' }, distribution: dist([], [{ name: 'ghcr.io/acme/server', command: 'docker run ghcr.io/acme/server' }]) }),
    score: 100,
    messageId: 'own-image',
    data: { ownImages: 'ghcr.io/acme/server', images: ['ghcr.io/acme/server'], unknownImages: '' },
    message: ['ghcr.io/acme/server'],
  },
  {
    name: "an image on ghcr.io under another GitHub account: a finding naming it and the account, the verdict held as for a package published elsewhere",
    evidence: repositoryEvidence({
      repository: { fullName: 'acme/server' },
      distribution: dist([], [{ name: 'ghcr.io/someone-else/tool', command: 'docker run -i --rm ghcr.io/someone-else/tool:1.2' }]),
    }),
    score: 0,
    messageId: 'image-elsewhere',
    data: { foreignImages: 'ghcr.io/someone-else/tool', imageAccount: 'someone-else' },
    message: ['ghcr.io/someone-else/tool', 'someone-else'],
  },
  {
    name: 'a Docker Hub image under an account named as the owner: unknown, never a pass',
    evidence: repositoryEvidence({ repository: { fullName: 'acme/server' }, distribution: dist([], [{ name: 'acme/server', command: 'docker run acme/server' }]) }),
    score: null,
    messageId: 'image-unknown',
    data: { unknownImages: 'acme/server', imageKinds: [expect.stringMatching(/^acme\/server unknown: on docker\.io: /)] },
    message: ['acme/server'],
  },
  {
    name: 'images on quay.io, mcr.microsoft.com and a *.pkg.dev registry: each unknown',
    evidence: repositoryEvidence({
      repository: { fullName: 'acme/server' },
      distribution: dist([], ['quay.io/acme/server', 'mcr.microsoft.com/acme/server', 'europe-docker.pkg.dev/acme/images/server'].map((name) => ({ name, command: `docker run ${name}` }))),
    }),
    score: null,
    messageId: 'image-unknown',
    data: { unknownImages: 'quay.io/acme/server, mcr.microsoft.com/acme/server, europe-docker.pkg.dev/acme/images/server' },
  },
  {
    name: 'a repository on GitHub Enterprise: a ghcr.io account of its owner\'s name proves nothing, unknown',
    evidence: repositoryEvidence({ repository: { host: 'ghe.example.com', fullName: 'acme/server' }, distribution: dist([], [{ name: 'ghcr.io/acme/server', command: 'docker run ghcr.io/acme/server' }]) }),
    score: null,
    messageId: 'image-unknown',
    data: { unknownImages: 'ghcr.io/acme/server', ownImages: '' },
  },
  {
    name: 'a verified package beside a Docker Hub image: the known items score, the unknown image is named and moves nothing',
    evidence: repositoryEvidence({ distribution: dist([distributed()], [{ name: 'example/example', command: 'docker run example/example' }]) }),
    score: 100,
    messageId: 'verified-image-unknown',
    data: { own: 'npm:example', unknownImages: 'example/example' },
    message: ['npm:example', 'example/example'],
  },
  {
    name: "a verified package and the owner's ghcr.io image: both its own",
    evidence: repositoryEvidence({ distribution: dist([distributed()], [{ name: 'ghcr.io/example/example', command: 'docker run ghcr.io/example/example' }]) }),
    score: 100,
    messageId: 'verified',
    data: { own: 'npm:example, ghcr.io/example/example', ownImages: 'ghcr.io/example/example' },
  },
  {
    name: 'an unknown image beside an unlinked package neither lifts nor sinks its score',
    evidence: repositoryEvidence({ distribution: dist([distributed({ status: 'unlinked', linksTo: null })], [{ name: 'quay.io/example/example', command: 'docker run quay.io/example/example' }]) }),
    score: 50,
    messageId: 'unlinked',
    data: { unknownImages: 'quay.io/example/example' },
  },
  {
    name: 'an unknown image beside a registry that could not answer: still unknown',
    evidence: repositoryEvidence({ distribution: dist([distributed({ status: 'unavailable', linksTo: null, reason: 'HTTP 503' })], [{ name: 'example/example', command: 'docker run example/example' }]) }),
    score: null,
    messageId: 'registry-unknown',
    data: { unavailable: 'npm:example', unknownImages: 'example/example' },
  },
  {
    name: "another account's ghcr.io image beside a package nobody published: the missing package leads, the image is named",
    evidence: repositoryEvidence({
      distribution: dist([distributed({ status: 'missing', linksTo: null, declared: false })], [{ name: 'ghcr.io/mallory/example', command: 'docker run ghcr.io/mallory/example' }]),
    }),
    score: 0,
    messageId: 'missing',
    data: { missing: 'npm:example', foreignImages: 'ghcr.io/mallory/example' },
  },
  {
    name: 'official Docker Hub images (node, library/postgres, docker.io/library/python) are infrastructure, not its distribution: nothing to judge',
    evidence: repositoryEvidence({
      distribution: dist([], ['node', 'library/postgres', 'docker.io/library/python'].map((name) => ({ name, command: `docker run ${name}` }))),
    }),
    score: null,
    messageId: 'none',
    notApplicable: true,
    data: { infrastructure: ['node', 'library/postgres', 'docker.io/library/python'], unknownImages: '' },
  },
  {
    name: 'an image name that is no image reference is not judged',
    evidence: repositoryEvidence({ distribution: dist([], [{ name: 'ghcr.io/mallory/-tool', command: 'docker run ghcr.io/mallory/-tool' }]) }),
    score: null,
    messageId: 'none',
    notApplicable: true,
    data: { images: ['ghcr.io/mallory/-tool'], imageKinds: ['ghcr.io/mallory/-tool unreadable: not an image reference'] },
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
  {
    name: "a README that pipes the project's own https installer into a shell, nothing else advertised: context, no score",
    evidence: repositoryEvidence({ repository: { fullName: 'astral-sh/uv', homepage: 'https://docs.astral.sh/uv' }, distribution: { ...dist([]), scripts: [script('https://astral.sh/uv/install.sh')] } }),
    score: null,
    messageId: 'script-own',
    notApplicable: true,
    data: { scriptHosts: ['astral.sh'] },
    message: ['astral.sh'],
  },
  {
    name: "the project's own installer beside a verified package: the package's score unchanged, the script in the evidence",
    evidence: repositoryEvidence({ repository: { homepage: 'https://example.dev' }, distribution: { ...dist([distributed()]), scripts: [script('https://get.example.dev/i.sh')] } }),
    score: 100,
    messageId: 'verified',
    data: { scriptHosts: ['get.example.dev'] },
  },
  {
    name: 'an installer piped from an unrelated host: a warning naming the host',
    evidence: repositoryEvidence({ distribution: { ...dist([distributed()]), scripts: [script('https://cdn.elsewhere.net/i.sh')] } }),
    score: 50,
    messageId: 'script-elsewhere',
    data: { scriptHost: 'cdn.elsewhere.net' },
    message: ['cdn.elsewhere.net'],
  },
  {
    name: 'an installer piped over plain http: a failure',
    evidence: repositoryEvidence({ repository: { homepage: 'https://example.dev' }, distribution: { ...dist([distributed()]), scripts: [script('http://example.dev/i.sh')] } }),
    score: 0,
    messageId: 'script-unsafe',
    data: { scriptHost: 'example.dev' },
    message: ['http://example.dev/i.sh'],
  },
]);

function script(url: string, credentials = false) {
  const parsed = new URL(url);
  return { url, host: parsed.hostname, https: parsed.protocol === 'https:', credentials, command: `curl -fsSL ${url} | sh` };
}

it('an unsafe installer holds the verdict, its reason first, before a package finding', () => {
  const evidence = repositoryEvidence({
    distribution: {
      ...dist([distributed({ name: 'mcp-code-runner', declared: false, status: 'missing', linksTo: null, reason: 'the npm registry has no such package' })]),
      scripts: [script('https://203.0.113.7/i.sh')],
    },
  });
  const outcome = outcomeOf(check, evidence);
  expect(outcome.messageId).toBe('script-unsafe');
  const hold = outcome.holdVerdict ?? '';
  expect(hold.indexOf('https://203.0.113.7/i.sh')).toBeGreaterThanOrEqual(0);
  expect(hold.indexOf('https://203.0.113.7/i.sh')).toBeLessThan(hold.indexOf('npm:mcp-code-runner'));
});
