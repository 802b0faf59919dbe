import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BEGIN, END, renderScoringTables } from '../../src/docs/scoring-tables.js';
import { DEPENDENCY_RULES } from '../../src/scoring/category.js';

const file = new URL('../../docs/scoring.md', import.meta.url);

describe('docs/scoring.md', () => {
  it('prints the profile, category and grade tables as the code defines them', () => {
    const text = readFileSync(file, 'utf8');
    const start = text.indexOf(BEGIN);
    const end = text.indexOf(END);
    const current = start >= 0 && end > start ? text.slice(start, end + END.length) : '{tables}';
    const fresh = renderScoringTables();
    if (process.env.UPDATE_GENERATED === '1' && current !== fresh) {
      writeFileSync(file, text.replace(current, fresh));
      return;
    }
    expect(current, 'docs/scoring.md is stale: run `npm run generate`').toBe(fresh);
  });

  it('names every package whose dependency decides a category (no name decides one unsaid)', () => {
    const text = readFileSync(file, 'utf8').replace(/\s+/g, ' ');
    for (const rule of DEPENDENCY_RULES) for (const name of [...rule.names, ...(rule.commandOnly ?? [])]) expect(text, name).toContain(`\`${name}\``);
  });
});
