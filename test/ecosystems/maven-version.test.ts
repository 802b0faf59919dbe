import { describe, expect, it } from 'vitest';
import { compareMavenVersions } from '../../src/ecosystems/maven-version.js';

const cmp = (a: string, b: string) => compareMavenVersions(a, b);

/** Each version strictly below the next, both ways round. */
function ascending(versions: readonly string[]): void {
  for (let i = 0; i + 1 < versions.length; i += 1) {
    const [a, b] = [versions[i] as string, versions[i + 1] as string];
    expect(cmp(a, b), `${a} < ${b}`).toBe(-1);
    expect(cmp(b, a), `${b} > ${a}`).toBe(1);
  }
}

function equal(versions: readonly string[]): void {
  for (const a of versions) for (const b of versions) expect(cmp(a, b), `${a} = ${b}`).toBe(0);
}

describe("Maven version order (the version-order specification's examples)", () => {
  it('numbers pad with zeros; null tokens are trimmed', () => {
    ascending(['1', '1.1']);
    equal(['1.ga', '1-ga', '1-0', '1.0', '1', '1.0.0', '1.final', '1-release', '1.0-GA']);
  });
  it('qualifiers: alpha < beta < milestone < rc = cr < snapshot < release < sp < others', () => {
    ascending(['1-alpha', '1-beta', '1-milestone', '1-rc', '1-snapshot', '1', '1-sp', '1-abc', '1-foo']);
    equal(['1-rc', '1-cr', '1-RC']);
    equal(['1-a1', '1-alpha-1', '1alpha1']);
    equal(['1-b2', '1-beta-2']);
    equal(['1-m3', '1-milestone-3']);
  });
  it('qualifiers with numbers, and separators: .qualifier = -qualifier < -number < .number', () => {
    ascending(['1-foo2', '1-foo10']);
    equal(['1.foo', '1-foo']);
    ascending(['1-foo', '1-1', '1.1']);
    expect(cmp('1-sp', '1-ga')).toBe(1);
    expect(cmp('1-sp.1', '1-ga.1')).toBe(1);
    ascending(['1-sp-1', '1-ga-1']);
    equal(['1-ga-1', '1-1']);
  });
  it('real versions: jackson micro-patches, Netty .Final, release candidates, snapshots', () => {
    ascending(['2.9.10', '2.9.10.1', '2.9.10.8', '2.10.0.pr1', '2.10.0', '2.13.4', '2.13.4.2', '2.14.0-rc1', '2.14.0']);
    ascending(['4.1.99.Final', '4.1.100.Final', '4.2.0.Alpha1', '4.2.0.Beta1', '4.2.0.RC1', '4.2.0.Final', '4.2.16.Final']);
    ascending(['1.0-SNAPSHOT', '1.0', '1.0.1-SNAPSHOT', '1.0.1']);
    equal(['4.2.16.Final', '4.2.16']);
    expect(cmp('1.10', '1.9')).toBe(1);
    expect(cmp('01.2', '1.2')).toBe(0);
  });
  it('not a version: null, never a guess', () => {
    expect(cmp('', '1')).toBeNull();
    expect(cmp('1', 'x'.repeat(300))).toBeNull();
  });
});
