import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pipedInstalls } from '../../src/sources/github/readme-pipe-installs.js';
import { judgeScript, registrableDomain } from '../../src/checks/lib/piped-scripts.js';

const readme = (name: string): string => readFileSync(new URL(`../../fixtures/readmes/${name}`, import.meta.url), 'utf8');
const urls = (md: string): string[] => pipedInstalls(md).map((p) => p.url);
const fence = (...lines: string[]): string => ['```sh', ...lines, '```'].join('\n');

describe('pipedInstalls', () => {
  it('reads the recorded uv README: curl | sh and irm | iex', () => {
    expect(pipedInstalls(readme('uv-26a9dd4-README.md')).map((p) => [p.url, p.host, p.https])).toEqual([
      ['https://astral.sh/uv/install.sh', 'astral.sh', true],
      ['https://astral.sh/uv/install.ps1', 'astral.sh', true],
    ]);
  });

  it('reads the recorded ollama README once per URL, and not its `curl http://localhost… -d` request', () => {
    expect(urls(readme('ollama-fb30760-README.md'))).toEqual(['https://ollama.com/install.sh', 'https://ollama.com/install.ps1']);
  });

  it.each([
    ['curl | bash', 'curl -fsSL https://get.example.dev/i.sh | bash', 'https://get.example.dev/i.sh'],
    ['wget -qO- | sh', 'wget -qO- https://get.example.dev/i.sh | sh', 'https://get.example.dev/i.sh'],
    ['sudo bash', 'curl -sL https://get.example.dev/i.sh | sudo -E bash -', 'https://get.example.dev/i.sh'],
    ['bash <(curl …)', 'bash <(curl -s https://get.example.dev/i.sh)', 'https://get.example.dev/i.sh'],
    ['sh -c "$(curl …)"', 'sh -c "$(curl -fsSL https://get.example.dev/i.sh)"', 'https://get.example.dev/i.sh'],
    ['iwr | iex', 'iwr -useb https://get.example.dev/i.ps1 | iex', 'https://get.example.dev/i.ps1'],
    ['Invoke-Expression DownloadString', "Invoke-Expression ((New-Object System.Net.WebClient).DownloadString('https://get.example.dev/i.ps1'))", 'https://get.example.dev/i.ps1'],
    ['prompt and python', '$ curl -sSL https://get.example.dev/i.py | python3 -', 'https://get.example.dev/i.py'],
    ['scheme-less: curl guesses http', 'curl -L get.example.dev | bash', 'http://get.example.dev/'],
  ])('%s', (_label, line, url) => {
    expect(urls(fence(line))).toEqual([url]);
  });

  it.each([
    ['curl -o without a pipe', 'curl -fsSL -o install.sh https://get.example.dev/i.sh'],
    ['checksum-verified download', 'curl -O https://get.example.dev/tool.tgz; sha256sum -c tool.tgz.sha256'],
    ['a pipe into another program', 'curl -s https://api.example.dev/v1 | jq .'],
    ['a shell comment', '# curl https://get.example.dev/i.sh | sh'],
    ['a variable from curl', 'VERSION=$(curl -s https://api.example.dev/latest)'],
  ])('not a pipe into a shell: %s', (_label, line) => {
    expect(urls(fence(line))).toEqual([]);
  });

  it('counts code only: not prose, not HTML comments, not a warning', () => {
    const md = [
      'Run curl https://prose.example.dev/i.sh | sh to install.',
      '<!-- <pre>curl https://comment.example.dev/i.sh | sh</pre> -->',
      'Never run `curl https://warned.example.dev/i.sh | sh`.',
      '<pre>curl -fsSL https://html.example.dev/i.sh | sh</pre>',
      'Or inline: `curl -fsSL https://inline.example.dev/i.sh | sh`',
    ].join('\n\n');
    expect(urls(md)).toEqual(['https://html.example.dev/i.sh', 'https://inline.example.dev/i.sh']);
  });
});

describe('judgeScript', () => {
  const judge = (url: string, homepage: string | null = null, fullName = 'acme/tool'): string => {
    const [line] = pipedInstalls(fence(`curl -fsSL ${url} | sh`));
    if (line === undefined) throw new Error(`no pipe read from ${url}`);
    return judgeScript(line, fullName, homepage).kind;
  };

  it.each([
    ['the homepage domain', 'https://astral.sh/uv/install.sh', 'https://docs.astral.sh/uv', 'own'],
    ['the owner on github.com', 'https://github.com/acme/tool/releases/latest/download/i.sh', null, 'own'],
    ['the owner on raw.githubusercontent.com', 'https://raw.githubusercontent.com/Acme/tool/main/i.sh', null, 'own'],
    ['the owner’s Pages', 'https://acme.github.io/i.sh', null, 'own'],
    ['another GitHub account', 'https://raw.githubusercontent.com/mallory/tool/main/i.sh', null, 'unrelated'],
    ['an unrelated host', 'https://get.example.dev/i.sh', 'https://acme.dev', 'unrelated'],
    ['a look-alike of the homepage', 'https://acme.dev.example.net/i.sh', 'https://acme.dev', 'unrelated'],
    ['plain http, even from the homepage', 'http://acme.dev/i.sh', 'https://acme.dev', 'unsafe'],
    ['an IP address', 'https://203.0.113.7/i.sh', null, 'unsafe'],
    ['a URL shortener', 'https://bit.ly/3xyz', null, 'unsafe'],
    ['credentials', 'https://user:secret@acme.dev/i.sh', 'https://acme.dev', 'unsafe'],
  ])('%s', (_label, url, homepage, kind) => {
    expect(judge(url, homepage)).toBe(kind);
  });

  it('keeps the registrable domain of a country-code second level', () => {
    expect(registrableDomain('get.tool.co.uk')).toBe('tool.co.uk');
    expect(registrableDomain('docs.astral.sh')).toBe('astral.sh');
  });

  it('gives a project on a shared host its own name there, not the whole host', () => {
    expect(registrableDomain('tool.github.io')).toBe('tool.github.io');
    expect(registrableDomain('x.tool.vercel.app')).toBe('tool.vercel.app');
    expect(judge('https://evil.github.io/install.sh', 'https://tool.github.io')).toBe('unrelated');
    expect(judge('https://get.tool.github.io/install.sh', 'https://tool.github.io/docs')).toBe('own');
  });

  it("takes a domain named after the project under another suffix as the project's own", () => {
    expect(judge('https://deno.land/install.sh', 'https://deno.com', 'denoland/deno')).toBe('own');
    expect(judge('https://bun.sh/install', null, 'oven-sh/bun')).toBe('own');
    expect(judge('https://sh.rustup.rs', 'https://rust-lang.org', 'rust-lang/rustup')).toBe('own');
    expect(judge('https://get.acme.io/i.sh', null, 'acme/tool')).toBe('own');
    // A name of two letters names no project; another name is still unrelated.
    expect(judge('https://go.dev/install.sh', null, 'go/x')).toBe('unrelated');
    expect(judge('https://evil.example/install.sh', 'https://deno.com', 'denoland/deno')).toBe('unrelated');
  });
});
