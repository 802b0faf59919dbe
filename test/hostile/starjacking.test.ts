/**
 * Hostile world: starjacking through a path the attacker names. A package can claim a famous
 * repository and point `repository.directory` at a test fixture or example inside it whose
 * package.json happens to carry the package's name — or at nothing but the repository's private
 * monorepo root; a Python project can claim a repository whose setup.py mentions its name in a
 * comment. None of these manifests is published, so none may verify the link (and lend the
 * package the repository's stars and activity): only a published manifest, or the workspace
 * member that publishes it, vouches for a package.
 *
 * The repository's files are real (fixtures/github/starjacking: facebook/react's private root,
 * its private `fixtures/dom` app and a `react` stub under it), served to the link rules
 * through the same file-source interface the REST and GraphQL readers implement.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TreeEntry } from '../../src/sources/github/files.js';
import { verifyLink, type DirRead, type FileRead, type GithubClaim, type RepoFileSource } from '../../src/sources/github/link.js';
import { noteCases } from './support/metrics.js';

const REACT = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'fixtures', 'github', 'starjacking', 'facebook-react');

/** Every file under a folder, by `/`-separated path. */
function filesOf(root: string, at = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(path.join(root, at))) {
    const relative = at === '' ? name : `${at}/${name}`;
    if (statSync(path.join(root, relative)).isDirectory()) Object.assign(out, filesOf(root, relative));
    else out[relative] = readFileSync(path.join(root, relative), 'utf8');
  }
  return out;
}

/** A repository made of `files` (path → text), as the link rules read it. */
function repository(files: Record<string, string>): RepoFileSource {
  const entries = (dir: string): TreeEntry[] => {
    const prefix = dir === '' ? '' : `${dir}/`;
    const names = new Map<string, TreeEntry['type']>();
    for (const file of Object.keys(files)) {
      if (!file.startsWith(prefix)) continue;
      const rest = file.slice(prefix.length);
      const slash = rest.indexOf('/');
      names.set(slash === -1 ? rest : rest.slice(0, slash), slash === -1 ? 'file' : 'dir');
    }
    return [...names].map(([name, type]) => ({ path: name, type }) as TreeEntry);
  };
  return {
    rootEntries: entries(''),
    read: async (paths) => new Map(paths.map((p): [string, FileRead] => [p, p in files ? { kind: 'file', text: files[p]! } : { kind: 'missing' }])),
    list: async (dirs) => new Map(dirs.map((d): [string, DirRead] => [d, { kind: 'dir', entries: entries(d) }])),
  };
}

const npm = (name: string, directory: string | null): GithubClaim => ({ kind: 'package', ecosystem: 'npm', name, directory, provenanceRepository: null });
const pypi = (name: string): GithubClaim => ({ kind: 'package', ecosystem: 'pypi', name, directory: null, provenanceRepository: null });

async function link(claim: GithubClaim, files: Record<string, string>) {
  return verifyLink({ claim, host: 'github.com', fullName: 'facebook/react', names: ['facebook/react'], branch: 'main', files: repository(files) });
}

const react = filesOf(REACT);
const manifest = (fields: object) => JSON.stringify({ version: '1.0.0', ...fields });

describe('only a published manifest vouches for a package', () => {
  const refused: [label: string, claim: GithubClaim, files: Record<string, string>, says: RegExp][] = [
    ['directory → a private test fixture app (react-fixtures)', npm('react-fixtures', 'fixtures/dom'), react, /private/],
    ['directory → a stub named like the package inside a fixture folder', npm('react', 'fixtures/dom/stubs/react'), react, /test, fixture or example folder/],
    ['directory → a folder the workspaces do not list', npm('evil-tool', 'scripts/tool'), { ...react, 'scripts/tool/package.json': manifest({ name: 'evil-tool' }) }, /not one of the repository's workspaces/],
    ['directory → an example folder of a repository without workspaces', npm('demo-app', 'examples/demo'), { 'package.json': manifest({ name: 'lib' }), 'examples/demo/package.json': manifest({ name: 'demo-app' }) }, /example folder/],
    ['a private monorepo root that names the package', npm('mono', null), { 'package.json': manifest({ name: 'mono', private: true, workspaces: ['packages/*'] }) }, /private/],
    ['a private root, with `private: "true"` as a string (npm refuses to publish any truthy private)', npm('mono', null), { 'package.json': manifest({ name: 'mono', private: 'true' }) }, /private/],
    ['a private workspace member', npm('@acme/internal', null), { 'package.json': manifest({ name: 'acme', private: true, workspaces: ['packages/*'] }), 'packages/internal/package.json': manifest({ name: '@acme/internal', private: true }) }, /none of the/],
    ['a workspace member under a test folder', npm('@acme/fixture', null), { 'package.json': manifest({ private: true, workspaces: ['test/*'] }), 'test/fixture/package.json': manifest({ name: '@acme/fixture' }) }, /none of the/],
    ['setup.py naming the project in a comment', pypi('evil-project'), { 'setup.py': '# This was forked from evil-project: name="evil-project"\nfrom setuptools import setup\nsetup(name="real-project")\n' }, /real-project/],
    ['setup.py naming it in a docstring', pypi('evil-project'), { 'setup.py': '"""\nsetup(name="evil-project")\n"""\nfrom setuptools import setup\nsetup(name="real-project")\n' }, /real-project/],
    ['setup.py naming it in another call', pypi('evil-project'), { 'setup.py': 'from setuptools import setup\nprint(dict(name="evil-project"))\nsetup(name=NAME)\n' }, /no Python manifest/],
    ['setup.py naming it in a string that looks like an argument', pypi('evil-project'), { 'setup.py': "from setuptools import setup\nsetup(description='name=\"evil-project\"', name='real-project')\n" }, /real-project/],
  ];
  it.for(refused)('%s: not verified, and the reason says why', async ([label, claim, files, says], { task }) => {
    noteCases(task);
    const result = await link(claim, files);
    expect(result.verifiedBy, label).toBeNull();
    expect(result.reason, label).toMatch(says);
  });

  const verified: [label: string, claim: GithubClaim, files: Record<string, string>][] = [
    ['directory → a workspace member', npm('react-dom', 'packages/react-dom'), { ...react, 'packages/react-dom/package.json': manifest({ name: 'react-dom' }) }],
    ['a workspace member found by listing', npm('react-is', null), { ...react, 'packages/react-is/package.json': manifest({ name: 'react-is' }) }],
    ['a published root', npm('lib', null), { 'package.json': manifest({ name: 'lib', private: false }) }],
    ['directory in a repository without workspaces', npm('sub', 'sub'), { 'package.json': manifest({ name: 'other' }), 'sub/package.json': manifest({ name: 'sub' }) }],
    ['setup.py with the name as the setup() keyword', pypi('real-project'), { 'setup.py': '# not the one: name="x"\nimport setuptools\nsetuptools.setup(\n    version="1.0",\n    name="real-project",  # the project\n)\n' }],
    ['setup.py with a raw string name', pypi('real-project'), { 'setup.py': "from setuptools import setup\nsetup(name=r'real-project')\n" }],
  ];
  it.for(verified)('%s: verified', async ([label, claim, files], { task }) => {
    noteCases(task);
    expect((await link(claim, files)).verifiedBy, label).toBe('manifest');
  });
});
