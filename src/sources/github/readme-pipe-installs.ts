/**
 * The install lines of a README that pipe a download into a shell (pure): `curl … | sh`,
 * `wget -qO- … | bash`, `bash <(curl …)`, `sh -c "$(curl …)"`, PowerShell's `irm … | iex`,
 * `iwr … | iex` and `iex (… DownloadString(…))`. Read from the same code snippets as the package
 * installs (readme-installs.ts `codeSnippets`: code blocks, inline code, `<pre>`/`<code>`, never
 * prose or HTML comments), never executed. A download saved to a file (`curl -o x`, `curl -O …;
 * sha256sum -c`) is no pipe into a shell and is not listed. Format characters (zero-width, bidi)
 * are removed before a line is read, so one placed inside `| sh` does not hide it. Credentials in
 * a URL are never kept: the URL and the command line are stored without them, and `credentials`
 * says they were there. Every expression is linear in the line (docs/security.md).
 * docs/scoring.md §9.
 */
import { codeSnippets } from './readme-installs.js';
import { oneLine } from './request.js';

export interface PipedInstall {
  /** The URL downloaded, without credentials. */
  url: string;
  /** Its host, lower case (an IPv6 address in brackets). */
  host: string;
  https: boolean;
  /** The URL carried a user name or password (removed from `url` and `command`). */
  credentials: boolean;
  /** The line as the README writes it (one line, capped, credentials removed). */
  command: string;
}

const MAX_PIPED = 20;
const MAX_COMMAND = 160;

/** Unicode format characters (zero-width, bidi controls, BOM). */
const FORMAT_CHARS = /\p{Cf}/gu;
/** A download command, at the start of a word (or `.DownloadString(`). */
const DOWNLOADER = /(?:^|[\s;&|(`$<{."'])(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring)(?![\w-])/i;
/** A pipe into a shell or interpreter (`| sh`, `| sudo -E bash`, `| iex`). */
const PIPE_SINK = /\|\s*(?:sudo\s+(?:-[\w-]+\s+)*)?(?:env\s+)?(?:\/usr\/bin\/|\/bin\/)?(?:sh|bash|zsh|dash|ksh|fish|iex|invoke-expression|python3?|pwsh|powershell)(?![\w-])/i;
/** A shell running a download's output: `bash <(curl …)`, `sh -c "$(wget …)"`. */
const SUBSTITUTION = /(?:^|[\s;&|])(?:sh|bash|zsh|dash|ksh)\s+(?:-[\w-]+\s+)*["']?(?:<\(|\$\(|`)\s*(?:curl|wget)(?![\w-])/i;
/** PowerShell's `iex (…)` / `Invoke-Expression (…)` around a download. */
const PS_EVAL = /(?:^|[\s;&|(.{"'])(?:iex|invoke-expression)(?![\w-])/i;
/** URLs (the characters a shell word or a PowerShell string ends at end one). */
const URL = /\b(https?):\/\/[^\s'"`<>|(){};]+/gi;
/** A scheme-less first operand of curl or wget (`curl -sSL get.x.io | bash`): curl guesses http. */
const BARE = /(?:^|[\s;&|(`$<])(?:curl|wget)\s+(?:-[\w-]+\s+)*([a-z0-9][a-z0-9.-]*\.[a-z]{2,}(?:\/[^\s'"`<>|(){};]*)?)/i;

/** Whether `line` (URLs already replaced) runs a download's output as code. */
function pipesToShell(line: string): boolean {
  const download = DOWNLOADER.exec(line);
  if (download === null) return false;
  const sink = PIPE_SINK.exec(line.slice(download.index));
  if (sink !== null) return true;
  if (SUBSTITUTION.test(line)) return true;
  return PS_EVAL.test(line);
}

/** `raw` parsed, without credentials; null when it is no URL. */
function urlOf(raw: string): Omit<PipedInstall, 'command'> | null {
  let parsed: globalThis.URL;
  try {
    parsed = new globalThis.URL(raw);
  } catch {
    return null;
  }
  const credentials = parsed.username !== '' || parsed.password !== '';
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.href, host: parsed.hostname.toLowerCase(), https: parsed.protocol === 'https:', credentials };
}

/** `line` with the user name and password of every URL removed. */
function withoutCredentials(line: string): string {
  return line.replace(/(\b[a-z][a-z0-9+.-]{0,20}:\/\/)[^/\s@'"`]*@/gi, '$1');
}

/** The download URLs of one line that pipes into a shell. */
function downloadsOf(line: string): Omit<PipedInstall, 'command'>[] {
  const urls = [...line.matchAll(URL)].map((m) => urlOf(m[0])).filter((u) => u !== null);
  if (urls.length > 0) return urls;
  const bare = BARE.exec(line)?.[1];
  const guessed = bare === undefined ? null : urlOf(`http://${bare}`);
  return guessed === null ? [] : [guessed];
}

/** Every distinct line of the README's code that pipes a download into a shell, in document order (at most MAX_PIPED). */
export function pipedInstalls(markdown: string): PipedInstall[] {
  const seen = new Map<string, PipedInstall>();
  for (const snippet of codeSnippets(markdown)) {
    for (const raw of snippet.replace(/\\\r?\n/g, ' ').split(/\r?\n/)) {
      const line = raw.replace(FORMAT_CHARS, '').replace(/^\s*(?:\$|>|PS[^>]{0,40}>)\s+/, '').trim();
      if (line === '' || line.startsWith('#')) continue;
      if (!pipesToShell(line.replace(URL, 'URL'))) continue;
      for (const download of downloadsOf(line)) {
        if (seen.has(download.url)) continue;
        seen.set(download.url, { ...download, command: oneLine(withoutCredentials(line), MAX_COMMAND) });
        if (seen.size >= MAX_PIPED) return [...seen.values()];
      }
    }
  }
  return [...seen.values()];
}
