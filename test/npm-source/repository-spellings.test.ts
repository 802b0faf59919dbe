/**
 * Every spelling of a GitHub repository a real package's `repository` uses is read as that
 * repository (docs/scoring.md §9): a package whose repository nerq cannot read has its repository
 * checks unknown (§1), so an unread spelling costs the package. npm's own reading is
 * hosted-git-info's (normalize-package-data hands it `repository.url`); nerq follows it, and reads
 * besides git's scp-like remote without a user, `github.com:owner/repo` (as chrome-trace-event
 * declares it), which git itself reads as github.com.
 */
import { describe, expect, it } from 'vitest';
import { githubRepoOf } from '../../src/sources/github/source.js';
import { resolveEndpoints } from '../../src/sources/endpoints.js';
import { repositoryRef } from '../../src/sources/npm/facts.js';

const ENDPOINTS = resolveEndpoints({});
const read = (value: unknown) => githubRepoOf(repositoryRef(value), ENDPOINTS);
const repo = (owner: string, name: string) => ({ host: 'github.com', owner, name });

describe('a declared repository on github.com, however spelt, is read', () => {
  it.each([
    ['https://github.com/acme/widget', repo('acme', 'widget')],
    ['http://github.com/acme/widget', repo('acme', 'widget')],
    ['https://www.github.com/acme/widget', repo('acme', 'widget')],
    ['https://github.com/acme/widget.git', repo('acme', 'widget')],
    ['https://github.com/acme/widget/', repo('acme', 'widget')],
    ['git+https://github.com/acme/widget.git', repo('acme', 'widget')],
    ['git://github.com/acme/widget.git', repo('acme', 'widget')],
    ['git+ssh://git@github.com/acme/widget.git', repo('acme', 'widget')],
    ['ssh://git@github.com/acme/widget.git', repo('acme', 'widget')],
    ['git@github.com:acme/widget.git', repo('acme', 'widget')],
    ['https://github.com/acme/widget/tree/main/packages/x', repo('acme', 'widget')],
    ['https://github.com/acme/widget#readme', repo('acme', 'widget')],
    ['git+https://github.com/acme/widget.git#v1.2.0', repo('acme', 'widget')],
    ['github:acme/widget', repo('acme', 'widget')],
    ['acme/widget', repo('acme', 'widget')],
    ['HTTPS://GITHUB.COM/acme/widget', repo('acme', 'widget')],
    ['https://GitHub.com/Acme/Widget', repo('Acme', 'Widget')],
    // git's scp-like form without the user: what hosted-git-info (and npm) does not read.
    ['github.com:samccone/chrome-trace-event', repo('samccone', 'chrome-trace-event')],
    ['github.com:acme/widget.git', repo('acme', 'widget')],
    ['GitHub.com:acme/widget', repo('acme', 'widget')],
  ])('%s', (value, expected) => {
    expect(read(value)).toEqual(expected);
    expect(read({ type: 'git', url: value })).toEqual(expected);
  });

  it('the object form keeps its directory beside the repository', () => {
    const ref = repositoryRef({ type: 'git', url: 'github.com:acme/widget', directory: 'packages/x' });
    expect(ref).toMatchObject({ raw: 'github.com:acme/widget', host: 'github', slug: 'acme/widget', url: 'https://github.com/acme/widget', directory: 'packages/x' });
  });
});

describe('what is no repository on github.com stays unread', () => {
  it.each([
    'https://gitlab.com/acme/widget',
    'git://git.example.test/acme/widget.git',
    'https://github.com/acme',
    'github.com:acme',
    'github.com:acme/widget/extra',
    'github.com:/acme/widget',
    'gitlab.com:acme/widget',
  ])('%s', (value) => {
    expect(read(value)).toBeNull();
  });
});
