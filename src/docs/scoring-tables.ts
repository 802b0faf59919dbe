/**
 * The tables of docs/scoring.md that come from code (profiles, grade bands, category rules,
 * reason codes, source codes),
 * so the document cannot drift from the engine. A test compares the generated block.
 */
import { DIMENSIONS } from '../checks/define.js';
import { REASON_CODES } from '../model/reason.js';
import { SOURCE_UNAVAILABLE_CODES, SOURCE_UNAVAILABLE_MEANINGS } from '../model/source-codes.js';
import { CATEGORY_RULES } from '../scoring/category.js';
import { GRADE_BANDS } from '../scoring/grade.js';
import { CATEGORIES, DIMENSION_TITLES, PROFILES } from '../scoring/profiles.js';

export const BEGIN = '<!-- generated:scoring-tables:begin -->';
export const END = '<!-- generated:scoring-tables:end -->';

export function renderScoringTables(): string {
  const lines: string[] = [];
  lines.push('### Category profiles (weight of each dimension in the overall score)', '');
  lines.push(`| category | ${DIMENSIONS.map((d) => DIMENSION_TITLES[d]).join(' | ')} |`);
  lines.push(`| --- | ${DIMENSIONS.map(() => '---:').join(' | ')} |`);
  for (const category of CATEGORIES) {
    lines.push(`| ${category} | ${DIMENSIONS.map((d) => `${Math.round(PROFILES[category][d] * 100)}%`).join(' | ')} |`);
  }
  lines.push('', '### Category rules (every rule that fires is listed; the strictest category governs; `--category` overrides)', '');
  lines.push('| category | keywords | description matches |', '| --- | --- | --- |');
  for (const rule of CATEGORY_RULES) {
    // A pattern's `|` is escaped: unescaped, it splits the table's row.
    const pattern = (p: RegExp) => `\`${p.source.replaceAll('\\b', '').replaceAll('|', '\\|')}\``;
    const phrases = rule.phrases.map(pattern).join(', ');
    const code = (words: readonly string[]) => words.map((k) => `\`${k}\``).join(', ');
    const ambiguous = rule.ambiguous === undefined ? '' : `; ${code(rule.ambiguous.keywords)} only beside one of ${code(rule.ambiguous.beside)}`;
    const commandOnly =
      rule.commandOnly === undefined
        ? ''
        : `; for a package that ships a command (or a PyPI project or a repository without a manifest read, §4) also ${rule.commandOnly.phrases.map(pattern).join(', ')} and, but in an npm package, keywords ${code(rule.commandOnly.keywords)}`;
    lines.push(`| ${rule.id} | ${code(rule.keywords)}${ambiguous} | ${phrases}${commandOnly} |`);
  }
  lines.push(
    "| cli | — (the package ships a `bin`; a `github:` target: a manifest's `bin`, or a Go `main.go` / `cmd/<name>/main.go` or Rust `main.rs` / `src/bin/<name>.rs` its listing holds) | — (an npm package whose description opens by calling it a `library`, `sdk`, `parser`, `serializer`, `encoder` or `decoder`, and says no `cli`, `command`, `command-line`, `tool` or `generate`, or whose README's first code naming it imports it, is a library though it ships a `bin`, §4) |",
    '| library | — (default) | — |',
  );
  lines.push('', '### Grade bands (on the score rounded half up to one decimal)', '');
  lines.push('| grade | score |', '| --- | --- |');
  GRADE_BANDS.forEach((band, i) => {
    const upper = i === 0 ? 100 : GRADE_BANDS[i - 1]!.min;
    lines.push(`| ${band.grade} | ${i === 0 ? `≥ ${band.min}` : `${band.min} – < ${upper}`} |`);
  });
  lines.push('', '### Reason codes (`verdictReasonDetails`, `gate.reasonDetails`)', '');
  lines.push('| code | in | meaning |', '| --- | --- | --- |');
  for (const reason of REASON_CODES) lines.push(`| \`${reason.code}\` | ${reason.appearsIn} | ${reason.meaning} |`);
  lines.push('', '### Source codes (`sources[].code` of an unavailable source)', '');
  lines.push('| code | meaning |', '| --- | --- |');
  for (const code of SOURCE_UNAVAILABLE_CODES) lines.push(`| \`${code}\` | ${SOURCE_UNAVAILABLE_MEANINGS[code]} |`);
  return `${BEGIN}\n${lines.join('\n')}\n${END}`;
}
