/**
 * What a repository target distributes and what an MCP entry runs (the JSON's `distribution` and
 * `mcp`) are shown by the terminal and Markdown reports too, one line per package, image or
 * remote; and a source that left checks unknown is explained once in Markdown, as in the terminal.
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderTable } from '../../src/render/table.js';
import type { Report } from '../../src/report/schema.js';
import { loadReport } from './reports.js';

function mcpReport(): Report {
  const report = loadReport('chalk-5.3.0.json');
  const nested = { ...loadReport('chalk-5.3.0.json'), mcp: undefined };
  report.mcp = {
    server: 'io.github.acme/weather',
    version: '1.0.0',
    packages: [
      { registryType: 'npm', identifier: '@acme/weather-mcp', version: '1.0.0', target: 'npm:@acme/weather-mcp@1.0.0', notEvaluated: null, report: nested },
      { registryType: 'oci', identifier: 'docker.io/acme/weather:1.0.0', version: null, target: null, notEvaluated: 'oci packages are not evaluated yet', report: null },
    ],
    remotes: [{ type: 'streamable-http', url: 'https://weather.example/mcp' }],
  };
  return report;
}

function repositoryReport(): Report {
  const report = loadReport('chalk-5.3.0.json');
  report.distribution = {
    packages: [
      { ecosystem: 'npm', name: 'widget', status: 'verified', command: 'npm install -g widget', declared: true, linksTo: 'https://github.com/acme/widget', reason: '', check: 'npm:widget' },
      { ecosystem: 'pypi', name: 'widget-py', status: 'missing', command: 'pip install widget-py', declared: false, linksTo: null, reason: '', check: null },
    ],
    images: [{ name: 'ghcr.io/acme/widget:2', command: 'docker run ghcr.io/acme/widget:2' }],
    skipped: [],
  };
  return report;
}

describe('parts of a repository or an MCP entry in the terminal and Markdown', () => {
  it('an MCP entry: each package with its own result or why it was not evaluated, and its remote', () => {
    const report = mcpReport();
    const table = renderTable(report, { color: false, width: 80 });
    const section = table.slice(table.indexOf('What the MCP server runs'));
    expect(section).toMatch(/^ {2}npm:@acme\/weather-mcp@1\.0\.0 — score 75\.9 · grade B · YES$/m);
    expect(section).toMatch(/^ {2}docker\.io\/acme\/weather:1\.0\.0 — not evaluated: oci packages/m);
    expect(section).toMatch(/^ {2}https:\/\/weather\.example\/mcp — remote endpoint \(streamable-http\)/m);
    const markdown = renderMarkdown(report);
    expect(markdown).toContain('### What the MCP server runs\n\n- `npm:@acme/weather-mcp@1.0.0` — score 75.9 · grade B · YES\n- `docker.io/acme/weather:1.0.0` — not evaluated');
    expect(markdown).toContain('- `https://weather.example/mcp` — remote endpoint (streamable-http)');
  });

  it('a repository: each package it advertises with what its registry says, and its container images', () => {
    const report = repositoryReport();
    const table = renderTable(report, { color: false, width: 80 });
    expect(table).toMatch(/^Packages it distributes\n {2}npm:widget — links back to this repository · npm install -g widget\n {2}pypi:widget-py — not published/m);
    expect(table).toMatch(/^ {2}ghcr\.io\/acme\/widget:2 — container image, not evaluated/m);
    const markdown = renderMarkdown(report);
    expect(markdown).toContain('### Packages it distributes\n\n- `npm:widget` — links back to this repository');
    expect(markdown).toContain('- `pypi:widget-py` — not published');
  });

  it('no section for a package target', () => {
    const report = loadReport('chalk-5.3.0.json');
    expect(renderTable(report, { color: false })).not.toMatch(/What the MCP server runs|Packages it distributes/);
    expect(renderMarkdown(report)).not.toMatch(/What the MCP server runs|Packages it distributes/);
  });
});

describe('an unavailable source in Markdown', () => {
  it('is explained once, under Not checked; each check it left unknown names the source in a user word', () => {
    const report = loadReport('chalk-5.3.0.json');
    const source = report.sources.find((s) => s.status === 'unavailable');
    expect(source?.reason).toBeTruthy();
    const markdown = renderMarkdown(report);
    expect(markdown.split(source!.reason!).length - 1).toBe(1);
    expect(markdown).toMatch(/\| Weekly downloads \| — \| Unknown: Download counts unavailable \(see Not checked\) \|/i);
  });
});
