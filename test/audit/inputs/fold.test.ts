import { describe, expect, it } from 'vitest';
import { foldDependencies, keptBy, subjectKey } from '../../../src/audit/fold.js';
import type { DeclaredDependency, InputFile } from '../../../src/audit/types.js';
import { readFixture } from './helpers.js';

function dep(overrides: Partial<DeclaredDependency> & Pick<DeclaredDependency, 'name'>): DeclaredDependency {
  return {
    ecosystem: 'npm',
    version: '1.0.0',
    spec: null,
    direct: false,
    dev: false,
    file: 'package-lock.json',
    line: 1,
    workspace: null,
    resolved: null,
    ...overrides,
  };
}

const input = (file: string, dependencies: DeclaredDependency[]): InputFile => ({ file, format: 'test', dependencies });
const ALL = { direct: false, omitDev: false };

describe('foldDependencies', () => {
  it('makes one subject per ecosystem, name and version, listing every place (first first)', () => {
    const subjects = foldDependencies(
      [
        input('a', [
          dep({ name: 'x', direct: false, dev: true, file: 'a', line: 3 }),
          dep({ name: 'x', direct: true, dev: true, file: 'packages/web/package.json', line: 7, workspace: 'packages/web', resolved: 'https://r.example.test/x.tgz' }),
        ]),
        input('b', [dep({ name: 'x', dev: false, file: 'b', line: 9 }), dep({ name: 'x', file: 'b', line: 9 })]),
        input('c', [dep({ name: 'x', ecosystem: 'pypi', file: 'c', line: 1 })]),
      ],
      ALL,
    );
    expect(subjects).toHaveLength(2);
    expect(subjects[0]).toEqual({
      ecosystem: 'npm',
      name: 'x',
      version: '1.0.0',
      spec: null,
      direct: true,
      dev: false,
      declaredIn: [
        { file: 'a', line: 3, workspace: null },
        { file: 'packages/web/package.json', line: 7, workspace: 'packages/web' },
        { file: 'b', line: 9, workspace: null },
      ],
      resolved: 'https://r.example.test/x.tgz',
      // Declared directly somewhere: no path to show.
      via: [],
    });
    expect(subjects[1]?.ecosystem).toBe('pypi');
  });

  it('keeps the shortest path from a direct dependency; null when no input says', () => {
    const [folded] = foldDependencies(
      [input('a', [dep({ name: 'x', via: ['webpack', 'terser'] }), dep({ name: 'x', line: 2, via: ['eslint'] }), dep({ name: 'x', line: 3 })])],
      ALL,
    );
    expect(folded?.via).toEqual(['eslint']);
    const [unknown] = foldDependencies([input('a', [dep({ name: 'y' })])], ALL);
    expect(unknown?.via).toBeNull();
  });

  it('is dev only when every place says dev', () => {
    const [both] = foldDependencies([input('a', [dep({ name: 'x', dev: true }), dep({ name: 'x', dev: true, line: 2 })])], ALL);
    expect(both?.dev).toBe(true);
    const [mixed] = foldDependencies([input('a', [dep({ name: 'x', dev: true }), dep({ name: 'x', dev: false, line: 2 })])], ALL);
    expect(mixed?.dev).toBe(false);
  });

  it('keeps unpinned declarations apart by specifier', () => {
    const subjects = foldDependencies(
      [input('package.json', [dep({ name: 'x', version: null, spec: '^1.0.0' }), dep({ name: 'x', version: null, spec: '^2.0.0', line: 2 }), dep({ name: 'x', version: null, spec: '^1.0.0', line: 3 })])],
      ALL,
    );
    expect(subjects.map((s) => [s.spec, s.declaredIn.length])).toEqual([
      ['^1.0.0', 2],
      ['^2.0.0', 1],
    ]);
  });

  it('filters direct-only and dev after folding', () => {
    const inputs = [
      input('a', [
        dep({ name: 'transitive' }),
        dep({ name: 'direct-dev', direct: true, dev: true }),
        dep({ name: 'direct-prod', direct: true }),
        dep({ name: 'dev-here-prod-there', dev: true }),
        dep({ name: 'dev-here-prod-there', dev: false, direct: true, line: 2 }),
      ]),
    ];
    const names = (options: { direct: boolean; omitDev: boolean }) => foldDependencies(inputs, options).map((s) => s.name);
    expect(names(ALL)).toEqual(['dev-here-prod-there', 'direct-dev', 'direct-prod', 'transitive']);
    expect(names({ direct: true, omitDev: false })).toEqual(['dev-here-prod-there', 'direct-dev', 'direct-prod']);
    expect(names({ direct: false, omitDev: true })).toEqual(['dev-here-prod-there', 'direct-prod', 'transitive']);
    expect(names({ direct: true, omitDev: true })).toEqual(['dev-here-prod-there', 'direct-prod']);
  });

  it('sorts by ecosystem, name, then version in the ecosystem’s order, unpinned last', () => {
    const subjects = foldDependencies(
      [
        input('a', [
          dep({ name: 'b', version: '1.10.0' }),
          dep({ name: 'b', version: null, spec: '^1' }),
          dep({ name: 'b', version: '1.9.0' }),
          dep({ name: 'a', version: '2.0.0' }),
          dep({ name: 'a', version: '2.0.0a1', ecosystem: 'pypi' }),
          dep({ name: 'a', version: '1.10', ecosystem: 'pypi' }),
          dep({ name: 'a', version: '1.9', ecosystem: 'pypi' }),
        ]),
      ],
      ALL,
    );
    expect(subjects.map((s) => `${s.ecosystem}:${s.name}@${s.version ?? s.spec}`)).toEqual([
      'npm:a@2.0.0',
      'npm:b@1.9.0',
      'npm:b@1.10.0',
      'npm:b@^1',
      'pypi:a@1.9',
      'pypi:a@1.10',
      'pypi:a@2.0.0a1',
    ]);
  });

  it('folds a workspace lockfile to one subject per package version', () => {
    const parsed = readFixture('npm-workspaces', 'package-lock.json', ['package.json', 'packages/app/package.json', 'packages/lib/package.json']);
    const subjects = foldDependencies([parsed], ALL);
    const chalk = subjects.find((s) => s.name === 'chalk');
    expect(chalk?.declaredIn.map((p) => p.workspace)).toEqual(['packages/app', 'packages/lib']);
    expect(subjects.filter((s) => s.name === 'ms').map((s) => s.version)).toEqual(['2.0.0', '2.1.2']);
    expect(new Set(subjects.map(subjectKey)).size).toBe(subjects.length);
  });
});

describe('keptBy: the one filter of --direct and --omit dev', () => {
  const standings = [{ direct: true, dev: false }, { direct: false, dev: false }, { direct: true, dev: true }, { direct: false, dev: true }, { dev: true }, { direct: false }, {}];
  it.each([
    [{ direct: false, omitDev: false }, [true, true, true, true, true, true, true]],
    [{ direct: true, omitDev: false }, [true, false, true, false, true, false, true]],
    [{ direct: false, omitDev: true }, [true, true, false, false, false, true, true]],
    [{ direct: true, omitDev: true }, [true, false, false, false, false, false, true]],
  ])('%o: leaves out only what is known transitive or dev-only (an absent flag keeps the entry)', (options, kept) => {
    expect(standings.map(keptBy(options))).toEqual(kept);
  });
});
