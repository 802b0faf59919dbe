/**
 * Each ecosystem's target syntax (src/ecosystems/<id>/target-syntax.ts, read through its rules):
 * the parser dispatches `<id>:` and `pkg:<id>/…` to it, and what it parses is a target of that
 * ecosystem, whose package URL reads back to the same name.
 */
import { describe, expect, it } from 'vitest';
import { ECOSYSTEM_RULES } from '../../src/ecosystems/rules.js';
import { parseTarget } from '../../src/target/parse.js';
import { purlOf, splitPurl } from '../../src/target/purl.js';
import { TargetError, type Ecosystem } from '../../src/target/types.js';

/** One name per ecosystem, as its prefix takes it (a new ecosystem does not compile without one). */
const SAMPLES: Record<Ecosystem, string> = { npm: '@scope/left-pad', pypi: 'requests', github: 'owner/repo', mcp: 'io.github.owner/server' };

describe('the target syntax of each ecosystem', () => {
  it.each(Object.keys(ECOSYSTEM_RULES) as Ecosystem[])('%s: its prefix parses to a target of its own', (id) => {
    const target = parseTarget(`${id}:${SAMPLES[id]}`);
    expect(target).toEqual({ input: `${id}:${SAMPLES[id]}`, ecosystem: id, name: SAMPLES[id] });
    expect(ECOSYSTEM_RULES[id].syntax.prefixed('x', SAMPLES[id])).toEqual({ input: 'x', ecosystem: id, name: SAMPLES[id] });
  });

  it.each(Object.keys(ECOSYSTEM_RULES) as Ecosystem[])('%s: its package URL, when it has a type, reads back to the same target', (id) => {
    const purl = purlOf(id, SAMPLES[id], '1.0.0');
    const parse = ECOSYSTEM_RULES[id].syntax.purl;
    if (parse === null) {
      expect(() => parseTarget(purl)).toThrow(TargetError);
      return;
    }
    const parts = splitPurl(purl);
    if ('error' in parts) throw new Error(parts.error);
    expect(parts.type).toBe(id);
    expect(parseTarget(purl)).toMatchObject({ ecosystem: id, name: SAMPLES[id], spec: id === 'pypi' ? '==1.0.0' : '1.0.0' });
  });
});
