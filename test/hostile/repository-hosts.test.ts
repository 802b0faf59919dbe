/**
 * Hostile world: a package's `repository` naming a host that only looks like github.com. nerq
 * reads a declared repository as GitHub's (its checks, its stars) only on github.com itself
 * (docs/scoring.md §9): a look-alike domain, a subdomain of another host, or github.com as the
 * user part of another host's URL stays off GitHub, its repository checks unknown.
 */
import { describe, expect, it } from 'vitest';
import { githubRepoOf } from '../../src/sources/github/source.js';
import { resolveEndpoints } from '../../src/sources/endpoints.js';
import { repositoryRef } from '../../src/sources/npm/facts.js';
import { noteCases } from './support/metrics.js';

const ENDPOINTS = resolveEndpoints({});

const LOOKALIKES: [label: string, value: string][] = [
  ['github.com as a subdomain of another host', 'https://github.com.evil.io/acme/widget'],
  ['a host ending in github.com', 'https://evilgithub.com/acme/widget'],
  ['github.com as the user of another host', 'https://github.com@evil.io/acme/widget'],
  ['github.com and a port as the user of another host', 'https://github.com:443@evil.io/acme/widget'],
  ['an scp-like remote on a github.com subdomain', 'github.com.evil.io:acme/widget'],
  ['an scp-like remote on a host ending in github.com', 'evilgithub.com:acme/widget'],
  ['an scp-like remote whose path names another host', 'github.com:acme/widget@evil.io'],
  ['an scp-like remote with the user github.com', 'github.com@evil.io:acme/widget'],
  ['an scp-like remote whose port-like path names another host', 'github.com:443@evil.io/acme/widget'],
  ['an scp-like remote whose owner names another host', 'github.com:evil.io/acme/widget'],
  ['a git+ssh URL to a github.com subdomain', 'git+ssh://git@github.com.evil.io/acme/widget.git'],
  ['a Cyrillic o homoglyph', 'https://githuб.com/acme/widget'],
  ['a punycode look-alike', 'https://xn--gthub-cta.com/acme/widget'],
];

describe('a repository on a host that looks like github.com', () => {
  for (const [label, value] of LOOKALIKES) {
    it(`${label} (${value}): not GitHub`, ({ task }) => {
      expect(githubRepoOf(repositoryRef(value), ENDPOINTS)).toBeNull();
      expect(githubRepoOf(repositoryRef({ type: 'git', url: value }), ENDPOINTS)).toBeNull();
      noteCases(task);
    });
  }
});
