/**
 * How a view reads each package ecosystem's registry facts (define-view.ts `fromRegistrySources`):
 * one entry per package ecosystem, each reading a source of its own registry, the first source
 * that exists for the target deciding. The `@ts-expect-error` lines are checked by `tsc`: a table
 * without an ecosystem's entry, or reading another registry's source, does not compile.
 */
import { describe, expect, it } from 'vitest';
import { fromRegistrySources, type RegistryReaders } from '../../../src/checks/views/define-view.js';
import { evidence, notApplicable, unavailable } from '../../support/evidence-builder.js';

/** Which reader answered, and with what it was given. */
const READERS: RegistryReaders<string> = {
  npm: {
    source: 'tarball',
    derive: (tarball, ev) => `npm:${tarball.declarationFiles}:${ev.target.name}`,
    whenUnavailable: (ev) => (ev.sources.registry.status === 'ok' ? `npm-fallback:${ev.sources.registry.facts.name}` : null),
  },
  pypi: { source: 'pypi', derive: (pypi) => `pypi:${pypi.name}` },
};

describe('fromRegistrySources', () => {
  it('reads the first package ecosystem whose source exists for the target, in the registry order', () => {
    expect(fromRegistrySources(evidence({ tarball: { declarationFiles: 3 } }), READERS)).toEqual({ status: 'ok', facts: 'npm:3:example' });
    expect(fromRegistrySources(evidence({ tarball: notApplicable('not an npm package'), pypi: { name: 'flask' } }), READERS)).toEqual({
      status: 'ok',
      facts: 'pypi:flask',
    });
  });

  it('is not applicable with the first source’s reason when none exists', () => {
    const ev = evidence({ tarball: notApplicable('not an npm package'), pypi: notApplicable('not a PyPI project') });
    expect(fromRegistrySources(ev, READERS)).toEqual({ status: 'not-applicable', reason: 'not an npm package' });
  });

  it('takes what the reader’s fallback gives when its source is unavailable, else the source’s reason and id', () => {
    expect(fromRegistrySources(evidence({ tarball: unavailable('too big') }), READERS)).toEqual({ status: 'ok', facts: 'npm-fallback:example' });
    const bare = evidence({ registry: unavailable('timeout'), tarball: unavailable('too big') });
    expect(fromRegistrySources(bare, READERS)).toEqual({ status: 'unavailable', reason: 'too big', source: 'tarball' });
    const pypiDown = evidence({ tarball: notApplicable('not an npm package'), pypi: unavailable('HTTP 503') });
    expect(fromRegistrySources(pypiDown, READERS)).toEqual({ status: 'unavailable', reason: 'HTTP 503', source: 'pypi' });
  });

  it('needs an entry per package ecosystem, each reading its own registry’s source (checked by tsc)', () => {
    // @ts-expect-error PyPI's entry is missing
    const missing: RegistryReaders<number> = { npm: { source: 'registry', derive: () => 1 } };
    const foreign: RegistryReaders<number> = {
      // @ts-expect-error npm's entry reads PyPI's source
      npm: { source: 'pypi', derive: () => 1 },
      pypi: { source: 'pypi', derive: () => 2 },
    };
    const shared: RegistryReaders<number> = {
      npm: { source: 'registry', derive: () => 1 },
      // @ts-expect-error PyPI's entry reads a source every ecosystem shares, not its registry's own
      pypi: { source: 'downloads', derive: () => 2 },
    };
    expect([missing, foreign, shared].map((table) => Object.keys(table).length)).toEqual([1, 2, 2]);
  });
});
