import { describe, expect, it } from 'vitest';
import { reasonOf } from '../../src/model/reason.js';
import { renderMarkdown, renderMarkdownMany } from '../../src/render/markdown.js';
import { hostileReport, loadReport, SAMPLE_FILES } from './reports.js';

/** `|` not preceded by a backslash: the cell separators of a GFM table row. */
const separators = (line: string) => (line.match(/(?<!\\)\|/g) ?? []).length;

/** The text outside code spans and `<code>` elements (inside them nothing is Markdown or HTML). */
const outsideCode = (md: string) => md.replace(/(`+)(?!`)[^\n]*?(?<!`)\1(?!`)/g, ' ').replace(/<code>[^<]*<\/code>/g, ' ');

/** Every table row has as many separators as its header: no cell can break out. */
function expectIntactTables(md: string): void {
  let expected: number | null = null;
  for (const line of md.split('\n')) {
    if (!line.startsWith('|')) {
      expected = null;
      continue;
    }
    expected ??= separators(line);
    expect(separators(line), line).toBe(expected);
  }
}

describe('renderMarkdown', () => {
  it.each(SAMPLE_FILES)('%s matches its snapshot', (file) => {
    const md = renderMarkdown(loadReport(file));
    expect(md).toMatchSnapshot();
    expect(md.endsWith('\n')).toBe(true);
    expectIntactTables(md);
  });

  it.each([
    ['chalk-5.3.0.json', '✅ **YES**'],
    ['request-deprecated.json', '❌ **NO — USE WITH CAUTION**'],
    ['crossenv-placeholder.json', '❌ **NO — DO NOT USE**'],
    ['not-found.json', '❔ **NOT EVALUATED**'],
  ] as const)('%s summary shows %s', (file, text) => {
    expect(renderMarkdown(loadReport(file))).toContain(text);
  });

  it('shows ⚠️ for CAUTION', () => {
    const report = loadReport('chalk-5.3.0.json');
    report.verdictCode = 'caution';
    report.verdict = 'CAUTION';
    expect(renderMarkdown(report)).toContain('· ⚠️ **CAUTION** ·');
  });

  it('has a row per dimension and per check, and the sections the report needs', () => {
    const report = loadReport('request-deprecated.json');
    const md = renderMarkdown(report);
    for (const d of report.dimensions) expect(md).toMatch(new RegExp(`^\\| ${d.title} \\|`, 'm'));
    const checkRows = md.split('\n').filter((l) => /^\| (?:✅|⚠️|❌|❔) /.test(l));
    expect(checkRows).toHaveLength(report.checks.length);
    expect(md).toContain('### Alerts\n\n- ❌ Score capped at 49.9: version is deprecated');
    expect(md).toContain('[GHSA-p8p7-x288-28g6](https://osv.dev/vulnerability/GHSA-p8p7-x288-28g6) (CVE-2023-28155)');
    expect(md).toContain('**Gate:** FAIL (min score 50, min coverage 50%)');
    expect(md).not.toContain('Not checked');
  });

  it('puts the outcome, alerts and gate first, the dimension and check tables in <details>', () => {
    const md = renderMarkdown(loadReport('request-deprecated.json'));
    expect(md.startsWith('## nerq · `request@2.88.2`\n\n❌ **FAIL** · **49.9/100** · grade **D**')).toBe(true);
    const details = md.indexOf('<details>');
    expect(details).toBeGreaterThan(md.indexOf('**Gate:**'));
    expect(md.indexOf('| Dimension |')).toBeGreaterThan(details);
    expect(md.indexOf('### Checks')).toBeGreaterThan(details);
    expect(md).toContain('<summary>Dimensions and 11 checks</summary>');
    expect(md.trimEnd().endsWith('</details>')).toBe(true);
  });

  it('names packages in code spans, so GitHub makes no mailto: link and a scoped name copies as it is', () => {
    const report = loadReport('chalk-5.3.0.json');
    report.target.name = '@scope/pkg';
    const md = renderMarkdown(report);
    expect(md).toMatch(/^## nerq · `@scope\/pkg@5\.3\.0`$/m);
    expect(md).not.toContain('&#8203;');
    expect(renderMarkdownMany([report])).toContain('<summary>✅ <code>@scope/pkg@5.3.0</code> · ');
    // A check message's `name` marks are code spans too, never escaped backticks.
    report.checks[0]!.message = 'The name can be mistaken for the popular `express` (one character differs)';
    expect(renderMarkdown(report)).toContain('| The name can be mistaken for the popular `express` (one character differs) |');
  });

  it('the summary names the category as the table does: the rule that decided it and every other category that applies', () => {
    const report = loadReport('chalk-5.3.0.json');
    report.category = { id: 'code-execution', reason: 'MCP server whose description says "runs code"', matches: [{ id: 'code-execution', reason: 'x' }, { id: 'mcp-server', reason: 'an MCP Registry entry' }] };
    expect(renderMarkdown(report)).toMatch(/ · category code-execution \(MCP server whose description says "runs code"; also mcp-server\)$/m);
  });

  it('lists each unavailable source once, with the checks it left unknown', () => {
    expect(renderMarkdown(loadReport('chalk-5.3.0.json'))).toContain(
      '### Not checked\n\n- **Download counts** unavailable: connect ECONNREFUSED 127.0.0.1:9 — unknown: Weekly downloads',
    );
  });

  it('neutralises hostile strings', () => {
    const whole = renderMarkdown(hostileReport());
    // Code spans hold the text literally (no link, HTML or mention there); everything else is escaped.
    const md = outsideCode(whole);
    expect(whole).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f]/);
    expect(md).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f]/);
    expect(md).not.toContain('http://evil');
    expect(md).not.toMatch(/(?<!\\)\]\(javascript:/);
    expect(md).not.toMatch(/(?<!\\)\[x/);
    expect(md).not.toMatch(/(?<!\\)<img/);
    expect(md).not.toMatch(/(?<!@&#8203;)octocat/);
    expect(md).toContain('\\[x\\](javascript:alert(1))');
    expectIntactTables(whole);
  });

  it('writes the names a reason holds as code spans (a dimension by its title), the rest escaped; the plain text stays as it was', () => {
    const report = loadReport('chalk-5.3.0.json');
    const link = reasonOf('link-unverified', { repository: 'example/ex_ample', detail: 'package.json at main names "x*y"' });
    const capped = reasonOf('dimension-capped', { cap: 'repository-archived', dimension: 'maintenance', limit: 10, reason: 'archived' });
    report.verdictReasonDetails = [link, capped];
    report.verdictReasons = [link.text, capped.text];
    const floor = reasonOf('below-floor', { dimension: 'security', score: 55, floor: 60 });
    report.gate.reasonDetails = [floor];
    report.gate.reasons = [floor.text];
    const md = renderMarkdown(report);
    expect(md).toContain('- ⚠️ Repository `example/ex_ample` is not verified as this package\'s (package.json at main names "x\\*y"): its popularity and activity are not credited');
    expect(md).toContain('- ⚠️ Maintenance capped at 10: archived');
    expect(md).toContain('- Security 55.0 is below its floor 60');
    expect(link.text).toBe('repository example/ex_ample is not verified as this package\'s (package.json at main names "x*y"): its popularity and activity are not credited');
  });

  it('escapes a name that is not made of identifier characters instead of fencing it', () => {
    const report = loadReport('chalk-5.3.0.json');
    const reason = reasonOf('link-unverified', { repository: 'a`b <img>', detail: 'd' });
    report.verdictReasonDetails = [reason];
    report.verdictReasons = [reason.text];
    expect(renderMarkdown(report)).toContain('- ⚠️ Repository a\\`b \\<img\\> is not verified');
  });

  it("an advisory's package is written as its ecosystem pins it, in a code span one can copy into an install (npm, PyPI, a Go module)", () => {
    const report = loadReport('request-deprecated.json');
    const advisory = report.advisories[0]!;
    const cellOf = (a: typeof advisory) => {
      report.advisories = [a];
      const row = renderMarkdown(report).split('\n').find((l) => l.startsWith('|') && l.includes('GHSA-p8p7-x288-28g6')) ?? '';
      return row.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim())[2];
    };
    expect(cellOf(advisory)).toBe('`request@2.88.2`');
    expect(cellOf({ ...advisory, package: 'urllib3', version: '1.26.0', ecosystem: 'pypi' })).toMatch(/^`urllib3==1\.26\.0`/);
    expect(cellOf({ ...advisory, package: 'golang.org/x/net', version: 'v0.38.0', ecosystem: 'go' })).toMatch(/^`golang\.org\/x\/net@v0\.38\.0`/);
    // Saved before advisories named their ecosystem: the name and version as they are.
    expect(cellOf({ ...advisory, package: 'other', ecosystem: null })).toBe('`other 2.88.2`');
  });

  it('links only https advisory URLs, percent-encoding what Markdown reads', () => {
    const report = loadReport('request-deprecated.json');
    const advisory = report.advisories[0]!;
    const cases: [string | null, string | null][] = [
      ['https://osv.dev/vulnerability/A', 'https://osv.dev/vulnerability/A'],
      ['https://example.test/a)b(c|d', 'https://example.test/a%29b%28c%7Cd'],
      ['https://user:pw@example.test/', null],
      ['http://example.test/', null],
      ['javascript:alert(1)', null],
      ['not a url', null],
      [null, null],
    ];
    for (const [url, link] of cases) {
      report.advisories = [{ ...advisory, url }];
      const md = renderMarkdown(report);
      if (link === null) expect(md, String(url)).toContain('| GHSA-p8p7-x288-28g6 (CVE-2023-28155) |');
      else expect(md, url ?? '').toContain(`[GHSA-p8p7-x288-28g6](${link})`);
    }
  });
});

/** Cells of a table line: split on pipes that are not escaped. */
const cellsOf = (line: string) => line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());

describe('renderMarkdownMany', () => {
  it('a provisional score says so in the summary table and in its <summary>, as the single report does', () => {
    const thin = loadReport('chalk-5.3.0.json');
    thin.provisional = true;
    const md = renderMarkdownMany([thin, loadReport('request-deprecated.json')]);
    const row = md.split('\n').find((l) => l.startsWith('| `chalk@5.3.0`')) ?? '';
    expect(cellsOf(row)[1]).toBe('75.9 (provisional)');
    expect(md).toContain('<code>chalk@5.3.0</code> · 75.9/100 (provisional) · B ·');
    const other = md.split('\n').find((l) => l.startsWith('| `request@')) ?? '';
    expect(cellsOf(other)[1]).not.toContain('provisional');
  });

  it('puts a summary table first, then each report in a details block', () => {
    const reports = SAMPLE_FILES.map(loadReport);
    const md = renderMarkdownMany(reports);
    expect(md).toMatchSnapshot();
    expectIntactTables(md);
    expect(md.startsWith('## nerq trust report · 4 targets\n\n| Target |')).toBe(true);
    // One block per report, and one inside it for the tables of each evaluated report.
    const evaluated = reports.filter((r) => r.error === null).length;
    expect(md.split('<details>')).toHaveLength(reports.length + evaluated + 1);
    expect(md.split('</details>')).toHaveLength(reports.length + evaluated + 1);
    expect(md.indexOf('| Target |')).toBeLessThan(md.indexOf('<details>'));
    expect(md).toContain('<summary>✅ <code>chalk@5.3.0</code> · 75.9/100 · B · YES</summary>');
    expect(md).toContain('| `nerq-no-such-package` | — | — | ❔ not evaluated | — | ❔ NOT EVALUATED |');
    expect(md).toContain('### nerq · `chalk@5.3.0`');
    expect(md).toContain('#### Checks');
  });

  it('escapes hostile text in the summary table and in <summary> as HTML', () => {
    const md = renderMarkdownMany([hostileReport(), loadReport('chalk-5.3.0.json')]);
    const summary = md.split('\n').find((l) => l.startsWith('<summary>')) ?? '';
    expect(summary).toContain('&lt;img');
    expect(summary).not.toMatch(/<img|[\u0000-\u001f\u202e]/);
    expect(summary.endsWith('</summary>')).toBe(true);
    expectIntactTables(md);
  });
});
