/**
 * Hostile world: a README's install written in HTML. GitHub shows a `<pre>` or `<code>` element
 * in a README as code, and READMEs use them (a centred `<p align="center"><code>npx -y x</code></p>`
 * under the logo, `<pre lang="sh">`, `<code>` inside a list item or a sentence): it is an
 * instruction people copy, as a fenced block is. Read only as Markdown, such a README advertised
 * nothing, so a package name nobody published (the typosquat's shape the README arranges itself)
 * or one another repository publishes escaped `advertised-packages` (docs/scoring.md §9, "What it
 * distributes"). An HTML comment is not shown, and a sentence that warns against its code does
 * not advertise it, as for Markdown code.
 */
import { describe, expect, it } from 'vitest';
import { advertisedInstalls, codeSnippets } from '../../src/sources/github/readme-installs.js';
import { noteCases } from './support/metrics.js';

const names = (markdown: string): string[] => advertisedInstalls(markdown).map((i) => `${i.ecosystem}:${i.name}`);

describe('hostile: README installs in HTML code GitHub shows', () => {
  const SHOWN: [label: string, markdown: string, advertised: string[]][] = [
    ['a centred <code> under the logo', '<p align="center">\n  <img src="logo.svg" width="120">\n  <br><code>npx -y html-payload-a</code>\n</p>\n', ['npm:html-payload-a']],
    ['a <pre lang="sh"> block', '# Tool\n\n<pre lang="sh">\nnpm install -g html-payload-b\n</pre>\n', ['npm:html-payload-b']],
    ['<pre><code> with a span inside (syntax colouring)', '<pre><code><span class="p">$</span> pip install html-payload-c</code></pre>\n', ['pypi:html-payload-c']],
    ['an inline <code> in a sentence', 'Install it with <code>uvx html-payload-d</code> and go.\n', ['pypi:html-payload-d']],
    ['an inline <code> in a list item', '- Run <code>pnpm add html-payload-e</code>\n- Done\n', ['npm:html-payload-e']],
    ['entities as GitHub decodes them', '<pre>npx -y html-payload-f &amp;&amp; npx -y html-payload-g</pre>\n', ['npm:html-payload-f', 'npm:html-payload-g']],
    ['upper-case tags', '<PRE>bunx html-payload-h</PRE>\n', ['npm:html-payload-h']],
    ['in a <details> block', '<details><summary>Install</summary><pre>npm i html-payload-i</pre></details>\n', ['npm:html-payload-i']],
  ];
  it.for(SHOWN)('%s: advertised', ([, markdown, advertised], { task }) => {
    noteCases(task);
    expect(names(markdown)).toEqual(advertised);
  });

  const NOT_SHOWN: [label: string, markdown: string][] = [
    ['an HTML comment', '<!-- <pre>npm i html-hidden-a</pre> -->\n\n<!-- npm i html-hidden-b -->\n'],
    ['a sentence that warns against it', 'Do not run <code>npx html-hidden-c</code>: it is unrelated.\n'],
    ['an HTML paragraph that warns against it', '<p>Never install <code>npm i html-hidden-f</code> instead of this.</p>\n'],
    ['an attribute, not text', '<a title="npm i html-hidden-d" href="#">link</a>\n'],
    ['an element that is no code', '<p>npm i html-hidden-e</p>\n'],
  ];
  it.for(NOT_SHOWN)('%s: not advertised', ([, markdown], { task }) => {
    noteCases(task);
    expect(names(markdown)).toEqual([]);
  });

  it('an element left open runs to the end of its HTML (as a browser closes it); a tag never finished opens nothing', () => {
    expect(codeSnippets('<pre>npm i html-open\n')).toEqual(['npm i html-open\n']);
    expect(names('<code')).toEqual([]);
    expect(names('<code class="x" npm i html-unfinished')).toEqual([]);
  });
});
