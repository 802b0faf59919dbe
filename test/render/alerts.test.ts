import { describe, expect, it } from 'vitest';
import { reasonOf } from '../../src/model/reason.js';
import { alertsOf } from '../../src/render/alerts.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderTable } from '../../src/render/table.js';
import { loadReport } from './reports.js';

/** request as a mirror serves it: no deprecation field, the README's title holding the verdict. */
function heldByReadme() {
  const report = loadReport('request-deprecated.json');
  const held = reasonOf('verdict-held', {
    check: 'deprecation',
    title: 'Not deprecated',
    detail: 'the README\'s title declares the package deprecated or unmaintained ("Deprecated!"); a README that no longer says so would lift this',
  });
  report.verdictReasons = [held.text];
  report.verdictReasonDetails = [held];
  report.caps = [];
  return { report, held };
}

describe('alertsOf: a held verdict', () => {
  it('is said by its finding, without the title that names what passing means', () => {
    const { report, held } = heldByReadme();
    const alerts = alertsOf(report);
    const detail = String(held.args.detail);
    const alert = alerts.find((a) => a.text.toLowerCase() === detail.toLowerCase());
    expect(alert?.level).toBe('warning');
    expect(alerts.some((a) => a.text.startsWith(String(held.args.title)))).toBe(false);
  });

  it('the terminal and Markdown alerts carry no "<title>:" prefix either', () => {
    const { report, held } = heldByReadme();
    const title = String(held.args.title);
    const table = renderTable(report, { color: false, width: 200 });
    const alertsBlock = table.split('\n\n').find((b) => b.startsWith('Alerts')) ?? '';
    expect(alertsBlock).not.toBe('');
    expect(alertsBlock).not.toContain(`${title}:`);
    const markdown = renderMarkdown(report);
    expect(markdown).not.toContain(`${title}:`);
  });

  it("a likely typosquat is said once: the hold's sentence already holds the check's message, code spans aside (cloudflared)", () => {
    const report = loadReport('request-deprecated.json');
    const message = 'The name can be mistaken for the popular `cloudflare` (one character differs): check that you meant cloudflare';
    const held = reasonOf('verdict-held', {
      check: 'typosquat',
      title: 'Not a typosquat',
      detail: 'the name can be mistaken for the popular cloudflare (one character differs): check that you meant cloudflare; the hold lifts once the package is established (5 releases over 730 days) or widely used',
    });
    report.verdictReasons = [held.text];
    report.verdictReasonDetails = [held];
    report.caps = [];
    const others = report.checks.filter((c) => c.id !== 'typosquat');
    report.checks = [...others, { ...others[0]!, id: 'typosquat', title: 'Not a typosquat', score: 15, status: 'fail', messageId: 'likely-typosquat', message }];
    const said = alertsOf(report).filter((a) => a.text.replaceAll('`', '').includes('mistaken for the popular cloudflare'));
    expect(said.map((a) => a.level)).toEqual(['warning']);
  });

  it('install scripts that run are an alert with what to do: read what they run, or skip them (oracledb 26.0.0, snyk 1.1307.4)', () => {
    const report = loadReport('request-deprecated.json');
    report.verdictReasons = [];
    report.verdictReasonDetails = [];
    report.caps = [];
    const others = report.checks.filter((c) => c.id !== 'install-scripts');
    const message = 'Runs install scripts: install: node package/install.js';
    report.checks = [...others, { ...others[0]!, id: 'install-scripts', title: 'Install scripts', score: 30, status: 'fail', messageId: 'scripts', message }];
    const alert = alertsOf(report).find((a) => a.text === message);
    expect(alert?.level).toBe('danger');
    expect(alert?.action).toContain('--ignore-scripts');
    expect(alert?.action).toContain('--evidence');
    const table = renderTable(report, { color: false, width: 80 });
    expect(table).toContain('--ignore-scripts');
  });

  it('other coded reasons keep their code for the medium', () => {
    const report = loadReport('request-deprecated.json');
    const provisional = reasonOf('provisional', { coverage: 0.3, minCoverage: 0.5 });
    report.verdictReasons = [provisional.text];
    report.verdictReasonDetails = [provisional];
    report.caps = [];
    expect(alertsOf(report).find((a) => a.reason !== undefined)?.reason?.code).toBe('provisional');
  });
});

describe('alertsOf: an advisory that caps the score', () => {
  /** A critical advisory caps both the overall score and the Security dimension (two caps, one id). */
  function capped() {
    const report = loadReport('chalk-5.3.0.json');
    const reason = 'GHSA-crit-0000-0001 (critical) affects 5.3.0';
    report.advisories = [
      { id: 'GHSA-crit-0000-0001', aliases: [], summary: 'Prototype pollution', severity: 'critical', cvss: 9.8, package: 'chalk', ecosystem: 'npm', version: '5.3.0', affectsResolved: true, fixed: '5.3.1', published: null, url: null, malicious: false },
    ];
    report.caps = [
      { id: 'vulnerable-version', limit: 49.9, reason, args: {}, dimension: null },
      { id: 'vulnerable-version', limit: 49.9, reason, args: {}, dimension: 'security' },
    ];
    return report;
  }

  it('says the cap once, with the advisory and its fix (the dimension cap shows in its bar)', () => {
    const alerts = alertsOf(capped());
    const advisory = alerts.filter((a) => a.text.includes('GHSA-crit-0000-0001'));
    expect(advisory).toHaveLength(1);
    expect(advisory[0]?.level).toBe('danger');
    expect(advisory[0]?.action).toBe('fix: upgrade to 5.3.1');
    expect((advisory[0]?.text ?? '').split('caps the score').length - 1).toBe(1);
  });
});

describe('alertsOf: an advisory that holds the verdict', () => {
  it('is said once, by the advisory alert with its fix, not again as the hold that names the same advisory', () => {
    const report = loadReport('chalk-5.3.0.json');
    report.advisories = [
      { id: 'GHSA-mod1-0000-0002', aliases: [], summary: 'Moderate issue', severity: 'moderate', cvss: 4.2, package: 'chalk', ecosystem: 'npm', version: '5.3.0', affectsResolved: true, fixed: '5.3.1', published: null, url: null, malicious: false },
    ];
    report.caps = [];
    const held = reasonOf('verdict-held', { check: 'known-vulnerabilities', title: 'Known vulnerabilities', detail: 'GHSA-mod1-0000-0002 affects 5.3.0; upgrading to 5.3.1 would lift this' });
    report.verdictReasons = [held.text];
    report.verdictReasonDetails = [held];
    const alerts = alertsOf(report).filter((a) => a.text.includes('GHSA-mod1-0000-0002'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.action).toBe('fix: upgrade to 5.3.1');
  });
});

describe('alertsOf: a held MCP entry under its weakest package’s ceiling', () => {
  it('says why the verdict is held first; the ceiling (a bound, no finding) comes after', () => {
    const report = loadReport('chalk-5.3.0.json');
    const held = reasonOf('verdict-held', {
      check: 'mcp-packages',
      title: 'Packages of the MCP server',
      detail: 'package npm:@playwright/mcp@0.0.79 is rated CAUTION, not YES; the MCP server runs it, so the entry is held until that package is YES',
    });
    report.verdictCode = 'caution';
    report.verdictReasons = [held.text];
    report.verdictReasonDetails = [held];
    report.caps = [{ id: 'mcp-package-weakest', limit: 88.7, reason: 'an MCP server scores no higher than its weakest package (npm:@playwright/mcp@0.0.79: 88.7)', args: {}, dimension: null, ceiling: true }];
    const alerts = alertsOf(report);
    expect(alerts.map((a) => a.text.slice(0, 20))).toEqual(['Package npm:@playwri', 'Score capped at 88.7']);
    expect(alerts.map((a) => a.level)).toEqual(['warning', 'warning']);
  });
});

describe('alertsOf: the findings that fail come before the warnings', () => {
  /** crossenv as the registry serves it: a do-not-use placeholder, OSV not answering, and a name one may mistake for cross-env. */
  function crossenv() {
    const report = loadReport('crossenv-placeholder.json');
    const others = report.checks.filter((c) => c.id !== 'typosquat');
    const message = 'The name can be mistaken for the popular `cross-env` (one character missing): check that you meant cross-env';
    report.checks = [...others, { ...others[0]!, id: 'typosquat', title: 'Not a typosquat', score: 0, status: 'fail', messageId: 'likely-typosquat', message }];
    return report;
  }

  it('crossenv: do not use, the typosquat finding, then what could not be checked', () => {
    const alerts = alertsOf(crossenv());
    expect(alerts.map((a) => [a.level, a.kind, a.check ?? null])).toEqual([
      ['danger', 'do-not-use', null],
      ['danger', 'finding', 'typosquat'],
      ['warning', 'not-checked', null],
    ]);
  });

  it('the terminal, --quiet and Markdown alerts list the fail marks before the warning marks', () => {
    const report = crossenv();
    for (const quiet of [false, true]) {
      const table = renderTable(report, { color: false, width: 200, quiet });
      const block = table.split('\n\n').find((b) => b.startsWith('Alerts')) ?? '';
      const marks = block.split('\n').slice(1).map((l) => l.trim().charAt(0)).filter((m) => m === '✖' || m === '▲');
      expect(marks).toEqual(['✖', '✖', '▲']);
    }
    const markdown = renderMarkdown(report);
    const marks = markdown.split('\n').filter((l) => l.startsWith('- ❌') || l.startsWith('- ⚠️')).map((l) => (l.startsWith('- ❌') ? 'x' : '!'));
    expect(marks).toEqual(['x', 'x', '!']);
  });

  it('install scripts that fail come before the warnings that hold the verdict, cap a dimension or say what was not checked', () => {
    const report = loadReport('crossenv-placeholder.json');
    report.verdictCode = 'caution';
    const held = reasonOf('verdict-held', { check: 'deprecation', title: 'Not deprecated', detail: 'the README declares the package unmaintained' });
    report.verdictReasons = [held.text];
    report.verdictReasonDetails = [held];
    report.caps = [{ id: 'no-license', limit: 60, reason: 'no licence declared', args: {}, dimension: 'compliance' }];
    const others = report.checks.filter((c) => c.id !== 'install-scripts');
    report.checks = [...others, { ...others[0]!, id: 'install-scripts', title: 'Install scripts', score: 30, status: 'fail', messageId: 'scripts', message: 'Runs install scripts: postinstall: node setup.js' }];
    const alerts = alertsOf(report);
    expect(alerts.map((a) => [a.level, a.kind, a.check ?? null])).toEqual([
      ['danger', 'finding', 'install-scripts'],
      ['warning', 'cap', null],
      ['warning', 'not-checked', null],
      ['warning', 'held', 'deprecation'],
    ]);
  });

  it.each([
    ['npm has held this name (0.0.2-security)', 'npm has held this name (0.0.2-security)'],
    ['npmjs-mirror says so', 'Npmjs-mirror says so'],
    ['the README declares it', 'The README declares it'],
  ])('a held reason %j starts its alert as %j: npm stays lower case', (detail, expected) => {
    const report = loadReport('crossenv-placeholder.json');
    report.verdictCode = 'caution';
    report.caps = [];
    const held = reasonOf('verdict-held', { check: 'security-placeholder', title: 'Not a security placeholder', detail });
    report.verdictReasons = [held.text];
    report.verdictReasonDetails = [held];
    const alert = alertsOf(report).find((a) => a.kind === 'held');
    expect(alert?.text.startsWith(expected)).toBe(true);
  });
});
