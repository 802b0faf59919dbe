/**
 * The model against the validity set (docs/scoring.md §6b): every target
 * `npm run validity` prints holds. A change to the model that breaks one fails here first.
 */
import { describe, expect, it } from 'vitest';
import { scoreSet, summarise } from '../../scripts/validity/run.js';

describe('the validity set', () => {
  const rows = scoreSet();
  const summary = summarise(rows);

  it('scores every packument of the index, each in the group its rules give', () => {
    expect(rows.length).toBeGreaterThan(1_200);
    for (const group of ['deprecated', 'flagship', 'abandoned', 'dormant', 'finished-small'] as const) {
      expect(summary.figures[group].n).toBeGreaterThan(15);
    }
  });

  it.each(summary.targets.map((t) => [t.text, t] as const))('%s', (_text, target) => {
    expect(target.value, target.shown).not.toBeNull();
    expect(target.holds, `${target.text}: ${target.shown}`).toBe(true);
  });
});
