import { describe, expect, it } from 'vitest';
import { advertisedInstalls } from '../../src/sources/github/readme-installs.js';
import { npmPackageName } from '../../src/ecosystems/npm/install-name.js';
import { pypiProjectName } from '../../src/ecosystems/pypi/install-name.js';

const names = (md: string): string[] => advertisedInstalls(md).map((i) => `${i.ecosystem}:${i.name}`);

describe('advertisedInstalls', () => {
  it('reads npm, pnpm, yarn, bun and npx commands in fenced code, skipping flags and stripping versions', () => {
    const md = [
      '# Tool',
      '```bash',
      '$ npm i -g @acme/tool@^2 other-pkg',
      'npx -y mcp-runner@latest --port 3000',
      'pnpm add left-pad && yarn global add cowsay',
      'bunx some-cli',
      'pnpm dlx create-thing',
      'npm install ./local-dir github:o/r https://example.invalid/x.tgz',
      '```',
    ].join('\n');
    expect(names(md)).toEqual(['npm:@acme/tool', 'npm:other-pkg', 'npm:mcp-runner', 'npm:left-pad', 'npm:cowsay', 'npm:some-cli', 'npm:create-thing']);
  });

  it('reads pip, pipx, uvx, uv and docker commands, stripping extras and specifiers', () => {
    const md = [
      '```sh',
      'pip install "mcp[cli]>=1.2" -r requirements.txt -e .',
      'python -m pip install fastmcp==2.0',
      'pipx install arxiv-tool',
      'uvx --from arxiv-mcp-server arxiv',
      'uv tool install serve-it',
      'docker run -i --rm -e TOKEN=x -v /a:/b ghcr.io/acme/server:1.2 --flag',
      '```',
    ].join('\n');
    expect(names(md)).toEqual(['pypi:mcp', 'pypi:fastmcp', 'pypi:arxiv-tool', 'pypi:arxiv-mcp-server', 'pypi:serve-it', 'docker:ghcr.io/acme/server']);
  });

  // A README's launch that installs a second package beside the project's own (`-p a -p b`,
  // `--with`): each is code the user is told to run, so none is dropped (shapes: the MCP client
  // configurations READMEs print, fixtures/mcp-clients, with packages added).
  it('every package a runner installs counts, not only the first', () => {
    const md = [
      '```sh',
      'npx -y -p own-mcp -p extra-payload own-mcp',
      'npm exec --package=own-mcp --package=second-payload -- own-mcp',
      'uvx --from own-py-mcp --with py-payload,other-payload own-py-mcp',
      'uv tool run --with tool-payload own-tool',
      'deno run -A --import-map ./map.json npm:deno-own@1.0.0',
      'bunx -p bun-payload own-bun',
      'npx -y -p own-call -c "own-call --init && npx -y call-payload"',
      '```',
      '```json',
      '{ "mcpServers": { "own": { "command": "npx", "args": ["-y", "--package", "json-own", "--package=json-payload", "json-own"] } } }',
      '```',
    ].join('\n');
    expect(names(md)).toEqual([
      'npm:own-mcp',
      'npm:extra-payload',
      'npm:second-payload',
      'pypi:own-py-mcp',
      'pypi:py-payload',
      'pypi:other-payload',
      'pypi:own-tool',
      'pypi:tool-payload',
      'npm:deno-own',
      'npm:bun-payload',
      'npm:own-call',
      'npm:call-payload',
      'npm:json-own',
      'npm:json-payload',
    ]);
  });

  it('counts inline code and code in lists and tables, never prose', () => {
    const md = 'Run npm i prose-only to start.\n\n- Install with `npm i listed-pkg`\n\n| how | cmd |\n| --- | --- |\n| npm | `npx table-pkg` |\n';
    expect(names(md)).toEqual(['npm:listed-pkg', 'npm:table-pkg']);
  });

  it('keeps the command line that advertised each name, once per name', () => {
    const installs = advertisedInstalls('`npm i x-pkg`\n\n```\nnpm install x-pkg@2\n```');
    expect(installs).toEqual([{ ecosystem: 'npm', name: 'x-pkg', command: 'npm i x-pkg' }]);
  });

  // Pointed at another registry, a command installs no package of the public one (docs/scoring.md §9).
  it('a command pointed at another registry names no package, unless it names the public one', () => {
    const md = '```\nnpm i -g own-tool --registry https://example.invalid\nnpx -y --registry=https://registry.example/ public-tool\n```';
    expect(names(md)).toEqual([]);
    expect(advertisedInstalls(md, { npm: ['https://registry.example'], pypi: [] }).map((i) => i.name)).toEqual(['public-tool']);
  });

  it('leaves placeholders, variables and shell comments out', () => {
    expect(names('```\nnpm i <package-name>\nnpx $PKG\n# npm i commented\npip install {name}\n```')).toEqual([]);
  });

  it('survives hostile text', () => {
    expect(names('```\n' + 'npm i "'.repeat(5000) + '\n```')).toEqual([]);
    expect(names('`'.repeat(100_000))).toEqual([]);
  });
});

describe('name parsing', () => {
  it('npm names through npm-package-arg', () => {
    expect(npmPackageName('@s/x@1.2.3')).toBe('@s/x');
    expect(npmPackageName('x@npm:y')).toBeNull();
    expect(npmPackageName('../x')).toBeNull();
  });
  it('PyPI names by the PEP 508 grammar', () => {
    expect(pypiProjectName('requests[socks]>=2.31,<3')).toBe('requests');
    expect(pypiProjectName('git+https://example.invalid/x.git')).toBeNull();
    expect(pypiProjectName('dist/x-1.0.whl')).toBeNull();
  });
});

describe('MCP client configurations in JSON code', () => {
  it('reads command and args, trailing commas and all', () => {
    const md = '```json\n{\n  "mcpServers": {\n    "runner": {\n      "command": "npx",\n      "args": ["-y", "mcp-server-code-runner@latest"],\n    },\n    "py": { "command": "uvx", "args": ["arxiv-mcp-server", "--storage-path", "/x"] },\n    "img": { "command": "docker", "args": ["run", "-i", "--rm", "acme/server"] }\n  }\n}\n```';
    expect(advertisedInstalls(md)).toEqual([
      { ecosystem: 'npm', name: 'mcp-server-code-runner', command: 'npx -y mcp-server-code-runner@latest' },
      { ecosystem: 'pypi', name: 'arxiv-mcp-server', command: 'uvx arxiv-mcp-server --storage-path /x' },
      { ecosystem: 'docker', name: 'acme/server', command: 'docker run -i --rm acme/server' },
    ]);
  });
});

describe('warnings are not advertisements', () => {
  it('leaves out inline code in a paragraph that warns against it (as arxiv-mcp-server does for an unrelated npm package)', () => {
    const md = 'The supported package is published on PyPI. An unrelated npm package uses the same name, so do not install this server with npm, pnpm, or `npx arxiv-mcp-server`.\n\n```\nuvx arxiv-mcp-server\n```\n';
    expect(names(md)).toEqual(['pypi:arxiv-mcp-server']);
  });
});
