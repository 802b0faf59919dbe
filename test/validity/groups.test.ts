import { describe, expect, it } from 'vitest';
import { groupFacts, groupOf, type Group } from '../../scripts/validity/groups.js';

const RECORDED = new Date('2020-10-16T00:00:00.000Z');
const DAY_MS = 86_400_000;
const ago = (days: number) => new Date(RECORDED.getTime() - days * DAY_MS).toISOString();

interface Shape {
  latest?: string;
  /** [version, days before the recording date] */
  versions: readonly (readonly [string, number])[];
  maintainers?: number;
  deprecated?: unknown;
  fileCount?: number;
  dependencies?: number;
}

function packument(shape: Shape): Record<string, unknown> {
  const latest = shape.latest ?? (shape.versions.at(-1)?.[0] as string);
  const versions: Record<string, unknown> = {};
  const time: Record<string, string> = { created: ago(5000), modified: ago(0) };
  for (const [version, days] of shape.versions) {
    versions[version] = { name: 'p', version, dist: {} };
    time[version] = ago(days);
  }
  const manifest = versions[latest] as Record<string, unknown>;
  if (shape.deprecated !== undefined) manifest.deprecated = shape.deprecated;
  if (shape.fileCount !== undefined) manifest.dist = { fileCount: shape.fileCount };
  manifest.dependencies = Object.fromEntries(Array.from({ length: shape.dependencies ?? 0 }, (_, i) => [`d${i}`, '^1.0.0']));
  return {
    name: 'p',
    'dist-tags': { latest },
    versions,
    time,
    maintainers: Array.from({ length: shape.maintainers ?? 1 }, (_, i) => ({ name: `m${i}` })),
  };
}

/** Many versions, the newest `days` before the recording date. */
const many = (count: number, days: number): [string, number][] =>
  Array.from({ length: count }, (_, i) => [`1.${i}.0`, days + (count - 1 - i) * 10]);

const cases: { name: string; shape: Shape; group: Group }[] = [
  { name: 'deprecated latest, even when it looks like a flagship', shape: { versions: many(40, 10), maintainers: 5, deprecated: 'use q' }, group: 'deprecated' },
  { name: 'an empty deprecation message is no deprecation', shape: { versions: [['1.0.0', 2000]], deprecated: '' }, group: 'abandoned' },
  { name: 'flagship at the bounds (3 maintainers, 30 versions, 180 days)', shape: { versions: many(30, 180), maintainers: 3 }, group: 'flagship' },
  { name: 'not flagship at 181 days', shape: { versions: many(30, 181), maintainers: 3 }, group: 'other' },
  { name: 'not flagship with 29 versions', shape: { versions: many(29, 10), maintainers: 3 }, group: 'other' },
  { name: 'not flagship with 2 maintainers', shape: { versions: many(30, 10), maintainers: 2 }, group: 'other' },
  { name: 'abandoned past 1,095 days', shape: { versions: [['1.0.0', 1096]] }, group: 'abandoned' },
  { name: 'dormant at 1,095 days', shape: { versions: [['1.0.0', 1095]] }, group: 'dormant' },
  { name: 'dormant past 730 days', shape: { versions: [['0.3.0', 731]] }, group: 'dormant' },
  { name: 'a newer pre-release does not make it fresh', shape: { versions: [['1.0.0', 1200], ['2.0.0-beta.1', 10]], latest: '1.0.0' }, group: 'abandoned' },
  { name: 'finished-small at the bounds (10 files, 2 deps, 366 days)', shape: { versions: [['1.0.0', 366]], fileCount: 10, dependencies: 2 }, group: 'finished-small' },
  { name: 'not finished-small at 365 days', shape: { versions: [['1.0.0', 365]], fileCount: 10 }, group: 'other' },
  { name: 'not finished-small with 11 files', shape: { versions: [['1.0.0', 400]], fileCount: 11 }, group: 'other' },
  { name: 'not finished-small with 3 dependencies', shape: { versions: [['1.0.0', 400]], fileCount: 3, dependencies: 3 }, group: 'other' },
  { name: 'not finished-small at 0.x', shape: { versions: [['0.9.0', 400]], fileCount: 3 }, group: 'other' },
  { name: 'not finished-small without a file count', shape: { versions: [['1.0.0', 400]] }, group: 'other' },
];

describe('validity groups', () => {
  it.each(cases)('$name → $group', ({ shape, group }) => {
    const facts = groupFacts(packument(shape), RECORDED);
    expect(facts).not.toBeNull();
    expect(groupOf(facts!)).toBe(group);
  });

  it('ignores versions published after the recording date', () => {
    const doc = packument({ versions: [['1.0.0', 2000]] });
    (doc.versions as Record<string, unknown>)['1.1.0'] = { name: 'p', version: '1.1.0' };
    (doc.time as Record<string, string>)['1.1.0'] = ago(-5);
    const facts = groupFacts(doc, RECORDED)!;
    expect(facts.daysSinceStable).toBe(2000);
    expect(groupOf(facts)).toBe('abandoned');
  });

  it('has nothing to judge without a dated latest', () => {
    const doc = packument({ versions: [['1.0.0', 10]] });
    delete (doc.time as Record<string, string>)['1.0.0'];
    expect(groupFacts(doc, RECORDED)).toBeNull();
    expect(groupFacts({ name: 'x' }, RECORDED)).toBeNull();
  });
});
