/**
 * The calls that read from the network, and those that save a download to a file, in one
 * Python module (import-code.ts, saved-downloads.ts): the library calls by their usual names,
 * the same calls under the names the module's imports give them (`import requests as r`,
 * `from urllib.request import urlretrieve as get`, `from wget import download`), `open` with its
 * mode in a name, the module's own functions that return downloaded data (`def dl(u):
 * return urlopen(u).read()`), and their parameters that calls give downloaded data. Pure text reading, never executed (docs/checks.md, `import-time-code`).
 */
import { codeOf, traced, TRACE_DEPTH, type FlowText } from './python-flow.js';
import { argumentFor, callSitesOf, enclosingFunction, functionsOf, type CallSite, type PythonFunction } from './python-functions.js';

/** A read from the network by an HTTP library… */
const LIBRARY_DOWNLOAD =
  /\burlopen\s*\(|\brequests\.(?:get|post|request|Session)\s*\(|\bhttpx\.(?:get|post|request|Client)\s*\(|\burlretrieve\s*\(|\bwget\.download\s*\(|\.iter_content\s*\(|\.getresponse\s*\(|\burllib3\.(?:PoolManager|request)\s*\(/;
/** …or any read from the network: a socket's `recv` too (which also reads pipes and queues: a function returning it is no download helper). */
const DOWNLOADED = new RegExp(String.raw`${LIBRARY_DOWNLOAD.source}|\.recv\s*\(`);
/** Writing bytes to a file, or downloading straight to one. */
export const WRITES_FILE = /\bopen\s*\([^)]{0,200}?['"]wb\+?['"]|\burlretrieve\s*\(/;
/** …and the other ways a download is saved: the other binary write modes, `Path.write_bytes` / `write_text`, `wget.download` (read for the data flow only)… */
const SAVES_FILE = String.raw`${WRITES_FILE.source}|\bopen\s*\([^)]{0,200}?['"](?:[xa]b|b[wxa]|[wxa]\+b)\+?['"]|\.write_(?:bytes|text)\s*\(|\bwget\.download\s*\(`;
/** …and `open` given its mode in a name, looked for only in a text that spells a binary write mode somewhere. */
const MODE_IN_NAME = String.raw`\bopen\s*\([^)\n]{0,200}?,\s*(?:mode\s*=\s*)?[A-Za-z_]\w*\s*[,)]`;
const WRITE_MODE_LITERAL = /['"](?:[wxa]b|b[wxa]|[wxa]\+b)\+?['"]/;

/** The network libraries' download calls, by module, and which of them save to a file (`retrieve`: urlretrieve's arguments, `wget`: wget.download's). */
const NETWORK_MODULES: Record<string, { calls: string[]; retrieve?: string; wget?: string }> = {
  requests: { calls: ['get', 'post', 'request', 'Session'] },
  httpx: { calls: ['get', 'post', 'request', 'Client', 'stream'] },
  urllib3: { calls: ['PoolManager', 'request'] },
  'urllib.request': { calls: ['urlopen', 'urlretrieve'], retrieve: 'urlretrieve' },
  urllib: { calls: ['urlopen', 'urlretrieve'], retrieve: 'urlretrieve' },
  urllib2: { calls: ['urlopen'] },
  wget: { calls: ['download'], wget: 'download' },
};
/** Names imported from network modules, and helper functions, followed at most per module. */
const MAX_NAMES = 32;

export type SaveKind = 'retrieve' | 'wget' | 'method' | 'open';

export interface DownloadCalls {
  /** A read from the network in this module (not global: for `.test`), read on first use. */
  downloaded(): RegExp;
  /** Each call that may save a download (global: for `matchAll`). */
  saves: RegExp;
  /** How a `saves` match saves: urlretrieve's arguments, wget.download's, a `write_bytes` method, or an `open` handle. */
  kindOf(match: string): SaveKind;
  /** The module's functions (python-functions.ts), read on first use. */
  functions(): PythonFunction[];
  /** The calls of one of them (python-functions.ts, callSitesOf). */
  callsOf(name: string): CallSite[];
  /**
   * Whether `code` (traced at `line`) names a parameter of the function around that line that a
   * call of the function gives downloaded data (`def run(c): exec(c)` … `run(urlopen(u).read())`).
   */
  viaParameters(code: string, line: number): boolean;
}

interface Aliases {
  /** Call patterns that download. */
  calls: string[];
  retrieve: string[];
  wget: string[];
}

/** The names the module's `import X as Y` / `from X import a as b` statements give network calls. */
function networkAliases(text: string): Aliases {
  const found: Aliases = { calls: [], retrieve: [], wget: [] };
  // One quick scan for the modules' names before the import statements are read.
  if (!/\b(?:requests|httpx|urllib[23]?|wget)\b/.test(text)) return found;
  const add = (list: string[], pattern: string): void => {
    if (found.calls.length < MAX_NAMES && !list.includes(pattern)) list.push(pattern);
  };
  for (const m of text.matchAll(/^[ \t]*import[ \t]+([^\n#;]{1,400})/gm)) {
    for (const part of (m[1] as string).split(',')) {
      const one = /^\s*([\w.]+)\s+as\s+([A-Za-z_]\w*)\s*$/.exec(part);
      const module = one === null || !Object.hasOwn(NETWORK_MODULES, one[1] as string) ? undefined : NETWORK_MODULES[one[1] as string];
      if (one === null || module === undefined) continue;
      const call = String.raw`(?<![\w.])${one[2]}\.(?:${module.calls.join('|')})\s*\(`;
      add(found.calls, call);
      if (module.wget !== undefined) add(found.wget, String.raw`(?<![\w.])${one[2]}\.${module.wget}\s*\(`);
    }
  }
  for (const m of text.matchAll(/^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]{0,2000}\)|[^\n#;]{1,400})/gm)) {
    // An own property only: `from constructor import get` names no network module.
    const module = Object.hasOwn(NETWORK_MODULES, m[1] as string) ? NETWORK_MODULES[m[1] as string] : undefined;
    if (module === undefined) continue;
    for (const part of (m[2] as string).replace(/[()\\]/g, ' ').split(',')) {
      const one = /^\s*([A-Za-z_]\w*)(?:\s+as\s+([A-Za-z_]\w*))?\s*$/.exec(part);
      if (one === null || !module.calls.includes(one[1] as string)) continue;
      const call = String.raw`(?<![\w.])${one[2] ?? one[1]}\s*\(`;
      add(found.calls, call);
      if (one[1] === module.retrieve) add(found.retrieve, call);
      if (one[1] === module.wget) add(found.wget, call);
    }
  }
  return found;
}

const alternation = (patterns: string[]): RegExp | null => (patterns.length === 0 ? null : new RegExp(`^(?:${patterns.join('|')})`));

/** The module's download and save calls (see the module comment). */
export function downloadCalls(flow: FlowText): DownloadCalls {
  const aliases = networkAliases(flow.text);
  let functions: PythonFunction[] | undefined;
  const functionsRead = (): PythonFunction[] => (functions ??= functionsOf(flow));
  let sites: ((name: string) => CallSite[]) | undefined;
  const calls = [DOWNLOADED.source, ...aliases.calls];
  let library = new RegExp([LIBRARY_DOWNLOAD.source, ...aliases.calls].join('|'));
  let downloaded: RegExp | undefined;
  let anyDownload = false;
  /** The download calls with the helpers found; read on first use (a module with no process, exec or save call never needs them). */
  const resolve = (): RegExp => {
    if (downloaded !== undefined) return downloaded;
    downloaded = new RegExp(calls.join('|'));
    // Functions that return downloaded data, and those that return what they return, a few steps deep.
    const helpers = new Set<string>();
    // A module with no library download has no helpers and no parameters given downloads (its functions are not read then).
    anyDownload = library.test(flow.text);
    for (let round = 0; anyDownload && round < TRACE_DEPTH && helpers.size < MAX_NAMES; round += 1) {
      const before = helpers.size;
      // Each return statement read once a round, however many functions it is nested in.
      const returnsDownload = new Map<{ line: number; value: string }, boolean>();
      const downloads = (r: { line: number; value: string }): boolean => {
        let known = returnsDownload.get(r);
        if (known === undefined) {
          known = library.test(traced(r.value, r.line, flow.named));
          returnsDownload.set(r, known);
        }
        return known;
      };
      for (const f of functionsRead()) {
        if (helpers.size === MAX_NAMES) break;
        if (!helpers.has(f.name) && f.returns.some(downloads)) helpers.add(f.name);
      }
      if (helpers.size === before) break;
      const helper = String.raw`(?<![\w.])(?:self\.|cls\.)?(?:${[...helpers].join('|')})\s*\(`;
      library = new RegExp([LIBRARY_DOWNLOAD.source, ...aliases.calls, helper].join('|'));
      downloaded = new RegExp([...calls, helper].join('|'));
    }
    return downloaded;
  };
  const callsOf = (name: string): CallSite[] => (sites ??= callSitesOf(flow, functionsRead()))(name);
  // Each parameter's calls read once: whether one of them passes it downloaded data.
  const given = new Map<PythonFunction, Map<string, boolean>>();
  const viaParameters = (code: string, line: number): boolean => {
    const download = resolve();
    if (!anyDownload) return false;
    const f = enclosingFunction(functionsRead(), line);
    if (f === undefined) return false;
    const used = new Set(codeOf(code).match(/(?<![\w.])[A-Za-z_]\w*/g) ?? []);
    const known = given.get(f) ?? new Map<string, boolean>();
    given.set(f, known);
    return f.params.some((p) => {
      if (!used.has(p)) return false;
      let passed = known.get(p);
      if (passed === undefined) {
        passed = callsOf(f.name).some((site) => {
          const argument = site.line >= f.line && site.line <= f.end ? undefined : argumentFor(f, p, site);
          return argument !== undefined && download.test(traced(argument, site.line, flow.named));
        });
        known.set(p, passed);
      }
      return passed;
    });
  };
  const retrieve = alternation(aliases.retrieve);
  const wget = alternation(aliases.wget);
  return {
    downloaded: resolve,
    saves: new RegExp([SAVES_FILE, ...(WRITE_MODE_LITERAL.test(flow.text) ? [MODE_IN_NAME] : []), ...aliases.retrieve, ...aliases.wget].join('|'), 'g'),
    kindOf: (match) => {
      if (match.startsWith('urlretrieve') || retrieve?.test(match) === true) return 'retrieve';
      if (match.startsWith('wget') || wget?.test(match) === true) return 'wget';
      return match.startsWith('.') ? 'method' : 'open';
    },
    functions: functionsRead,
    callsOf,
    viaParameters,
  };
}
