/**
 * docs/checks.md, generated from the check metadata: per dimension a table of its checks
 * (id, title, weight, sources), then each check's description and message templates, then
 * the finished-package rule. Pure string building; test/docs/checks-doc.test.ts keeps the
 * checked-in file current.
 */
import type { AnyCheck, Dimension } from '../checks/define.js';
import { DIMENSIONS } from '../checks/define.js';
import { FINISHED_CRITERIA, FINISHED_FLOOR, FINISHED_RULE } from '../checks/lib/finished.js';

const DIMENSION_HEADINGS: Readonly<Record<Dimension, string>> = {
  security: 'Security',
  maintenance: 'Maintenance',
  documentation: 'Documentation',
  compliance: 'Compliance',
  community: 'Community',
};

/** Text for a Markdown table cell: no line breaks, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

const code = (text: string): string => `\`${text}\``;
const list = (items: readonly string[]): string => (items.length === 0 ? '—' : items.join(', '));

function dimensionSection(dimension: Dimension, checks: readonly AnyCheck[]): string[] {
  const lines = [`## ${DIMENSION_HEADINGS[dimension]}`, ''];
  if (checks.length === 0) return [...lines, 'No checks yet.', ''];
  const total = checks.reduce((sum, c) => sum + c.weight, 0);
  lines.push(
    `${checks.length} checks, total weight ${total}.`,
    '',
    '| Check | Title | Weight | Needs | Uses when available |',
    '| --- | --- | ---: | --- | --- |',
  );
  for (const check of checks) {
    const needs = list(check.needs as readonly string[]);
    const optional = list((check.optional ?? []) as readonly string[]);
    lines.push(`| [${code(check.id)}](#${check.id}) | ${cell(check.title)} | ${check.weight} | ${needs} | ${optional} |`);
  }
  lines.push('');
  for (const check of checks) {
    lines.push(`### ${check.id}`, '', `**${check.title}** — weight ${check.weight}.`, '', check.description.trim(), '');
    if (check.guardsDanger === true) {
      lines.push('While this check is unknown it guards danger: the verdict is at most CAUTION.', '');
    }
    lines.push('Messages:', '');
    for (const [id, template] of Object.entries(check.messages as Record<string, string>)) {
      lines.push(`- ${code(id)}: ${template}`);
    }
    lines.push('');
  }
  return lines;
}

function finishedSection(): string[] {
  return [
    '## Finished-package rule',
    '',
    'A small, stable package is not punished for releasing rarely. A package is *finished* when all of these hold:',
    '',
    ...FINISHED_CRITERIA.map((id) => `- ${code(id)}: ${FINISHED_RULE[id]}`),
    '',
    `For a finished package \`release-recency\`, \`release-cadence\` and \`commit-activity\` score at least ${FINISHED_FLOOR} (message \`finished\`); when a package misses the rule, those checks list the unmet criteria in their evidence (\`unmetFinishedCriteria\`).`,
    '',
  ];
}

export function renderChecksDoc(checks: readonly AnyCheck[]): string {
  const lines = [
    '# Checks',
    '',
    '<!-- Generated from the check metadata (src/docs/checks-doc.ts). Do not edit by hand:',
    '     run `UPDATE_GENERATED=1 npx vitest run test/docs/checks-doc.test.ts`. -->',
    '',
    `nerq runs ${checks.length} checks in ${DIMENSIONS.length} dimensions. Each check answers a score from 0 to 100, ` +
      'or *unknown* when a source it needs could not answer (unknown checks are left out of their dimension\'s mean ' +
      'and lower its coverage instead). Status follows from the score: 70 or more is pass, 40 or more warn, below 40 fail. ' +
      'Weights are relative inside a dimension; how dimensions combine into the overall score is described in [scoring.md](scoring.md).',
    '',
    'Messages are templates: `{name}` is replaced by the evidence value of that name, which the JSON report also carries.',
    '',
  ];
  for (const dimension of DIMENSIONS) {
    lines.push(...dimensionSection(dimension, checks.filter((c) => c.dimension === dimension)));
  }
  lines.push(...finishedSection());
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
