/**
 * Names a script hides from a reader, made plain before js-code.ts reads it (docs/checks.md,
 * `install-scripts`). Malicious install code rarely calls a process or `os.hostname()` by its
 * plain name: it writes `require('child' + '_process')`, `os['host' + 'name']()`,
 * `process[Buffer.from('c3Bhd24=', 'base64').toString()]`, `Reflect.get(os, 'hostname')` or
 * `os[Object.keys(os).find((k) => k === 'hostname')]` so that a text search misses the call.
 * The literal pieces are folded into the string they spell, bracket lookups by a plain name
 * become `.name`, and each reflective lookup of a sensitive name is written out again as the
 * plain call, so the shapes js-code.ts knows are seen through the disguise. Hiding a sensitive
 * name — a process, network or host-data call, a module that starts processes — is itself
 * recorded: installers call these plainly.
 *
 * Pure text rewriting, never executed; every pattern is bounded (no unbounded repetition
 * between two anchors), so the whole is linear in the text.
 */

/** Names whose hiding is a finding: modules that reach the machine, and the members that start processes, read the host or send. */
const SENSITIVE = new Set([
  'child_process',
  'os',
  'net',
  'dns',
  'http',
  'https',
  'http2',
  'tls',
  'dgram',
  'vm',
  'fs',
  'worker_threads',
  'spawn',
  'spawnSync',
  'exec',
  'execSync',
  'execFile',
  'execFileSync',
  'fork',
  'hostname',
  'userInfo',
  'networkInterfaces',
  'homedir',
  'request',
  'eval',
  'Function',
  'binding',
  'mainModule',
  'createConnection',
  'getServers',
  'env',
  'readFileSync',
  'writeFileSync',
]);

/**
 * Names that, put in a variable and used as a lookup key (`m = 'spawn'; cp[m](…)`), are hiding: a
 * narrower set than SENSITIVE, since code keys tables by words like `request` or `env` honestly.
 */
const HIDDEN_BY_VARIABLE = new Set(['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork', 'hostname', 'userInfo', 'networkInterfaces', 'child_process', 'eval', 'binding', 'mainModule']);

/** What a reader sees once the names are plain, and the sensitive names that were hidden. */
export interface RevealedCode {
  text: string;
  hidden: string[];
}

/** A string literal's content this long at most is folded (names are short). */
const PIECE = 64;
/** Rounds of folding: each halves a chain of concatenations, so 6 rounds fold 64 pieces. */
const ROUNDS = 6;
const IDENTIFIER = /^[A-Za-z_$][\w$]{0,63}$/;
/** A module or member name as the hidden pieces may spell it (`child_process`, `node:os`). */
const NAME_LIKE = /^[\w$:./-]{1,64}$/;
const QUOTED = String.raw`(['"])([^'"\\\n]{0,${PIECE}})`;

const isSensitive = (name: string): boolean => SENSITIVE.has(name.replace(/^node:/, ''));

/** A literal's text once its escapes are read (`\x73`, `\u0073`, `\u{73}`), or null when it has others. */
function unescape(body: string): string | null {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== '\\') {
      out += body[i];
      continue;
    }
    const hex = body[i + 1] === 'x' ? /^[0-9a-fA-F]{2}/.exec(body.slice(i + 2, i + 4)) : null;
    const unicode = body[i + 1] === 'u' ? /^(?:[0-9a-fA-F]{4}|\{[0-9a-fA-F]{1,6}\})/.exec(body.slice(i + 2, i + 10)) : null;
    const digits = hex?.[0] ?? unicode?.[0];
    if (digits === undefined) return null;
    const code = Number.parseInt(digits.replace(/[{}]/g, ''), 16);
    if (code > 0x10ffff) return null;
    out += String.fromCodePoint(code);
    i += 1 + digits.length;
  }
  return out;
}

/** A number literal as JavaScript reads it in a character list (`115`, `0x73`). */
const charCode = (literal: string): number => (/^0x/i.test(literal) ? Number.parseInt(literal.slice(2), 16) : Number(literal));
const NUMBER = '(?:0[xX][0-9a-fA-F]{1,4}|\\d{1,5})';
const NUMBERS = `${NUMBER}(?:\\s{0,4},\\s{0,4}${NUMBER}){0,63}`;
const fromCodes = (list: string): string => String.fromCharCode(...list.split(',').map((n) => charCode(n.trim())));

function decodeBase64(text: string): string | null {
  if (!/^[A-Za-z0-9+/_-]{2,88}={0,2}$/.test(text)) return null;
  return Buffer.from(text, 'base64').toString('latin1');
}

function decodeHex(text: string): string | null {
  return /^(?:[0-9a-fA-F]{2}){1,44}$/.test(text) ? Buffer.from(text, 'hex').toString('latin1') : null;
}

/** `'…'` for a decoded name, or null when what it decodes to is not a name (then the text stays). */
function literal(value: string | null, hidden: Set<string>): string | null {
  if (value === null || !NAME_LIKE.test(value)) return null;
  if (isSensitive(value)) hidden.add(value.replace(/^node:/, ''));
  return `'${value}'`;
}

/** Replace each match by what `fold` returns, or leave it when it returns null. */
function rewrite(text: string, pattern: RegExp, fold: (...groups: string[]) => string | null): string {
  return text.replace(pattern, (match: string, ...rest: unknown[]) => {
    // The groups come first, then the match's offset (a number) and the whole text.
    const groups = rest.slice(0, rest.findIndex((value) => typeof value === 'number')).map((g) => (typeof g === 'string' ? g : ''));
    return fold(...groups) ?? match;
  });
}

/** String literals spelled by pieces, escapes or character codes, made plain. */
function foldLiterals(source: string, hidden: Set<string>): string {
  let text = source;
  // '\x73\x70\x61\x77\x6e', "\u0073pawn"
  text = rewrite(text, /(['"])((?:[^'"\\\n]|\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\u\{[0-9a-fA-F]{1,6}\}){1,64})\1/g, (_q, body) =>
    body.includes('\\') ? literal(unescape(body), hidden) : null,
  );
  // String.fromCharCode(0x73, 112, …) and Buffer.from([0x73, …]).toString()
  text = rewrite(text, new RegExp(String.raw`\bString\.fromCharCode\s{0,4}\(\s{0,4}(${NUMBERS})\s{0,4}\)`, 'g'), (list) => literal(fromCodes(list), hidden));
  text = rewrite(
    text,
    new RegExp(String.raw`\bBuffer\.from\s{0,4}\(\s{0,4}\[\s{0,4}(${NUMBERS})\s{0,4}\]\s{0,4}\)(?:\s{0,4}\.toString\s{0,4}\(\s{0,4}(?:['"][\w-]{0,8}['"])?\s{0,4}\))?`, 'g'),
    (list) => literal(fromCodes(list), hidden),
  );
  // Buffer.from('c3Bhd24=', 'base64').toString(), atob('c3Bhd24='), Buffer.from('7370…', 'hex')
  text = rewrite(
    text,
    /\bBuffer\.from\s{0,4}\(\s{0,4}(['"])([\w+/=-]{2,88})\1\s{0,4},\s{0,4}(['"])(base64|base64url|hex)\3\s{0,4}\)(?:\s{0,4}\.toString\s{0,4}\(\s{0,4}(?:['"][\w-]{0,8}['"])?\s{0,4}\))?/g,
    (_q, body, _q2, encoding) => literal(encoding === 'hex' ? decodeHex(body) : decodeBase64(body), hidden),
  );
  text = rewrite(text, /\batob\s{0,4}\(\s{0,4}(['"])([\w+/=-]{2,88})\1\s{0,4}\)/g, (_q, body) => literal(decodeBase64(body), hidden));
  // 'nwaps'.split('').reverse().join('')
  text = rewrite(
    text,
    new RegExp(String.raw`${QUOTED}\1\s{0,4}\.split\(\s{0,4}(['"])\3\s{0,4}\)\s{0,4}\.reverse\(\s{0,4}\)\s{0,4}\.join\(\s{0,4}(['"])\4\s{0,4}\)`, 'g'),
    (_q, body) => literal([...body].reverse().join(''), hidden),
  );
  // ['child', 'process'].join('_')
  text = rewrite(
    text,
    new RegExp(String.raw`\[\s{0,4}((?:['"][^'"\\\n]{0,32}['"]\s{0,4},\s{0,4}){1,8}['"][^'"\\\n]{0,32}['"])\s{0,4},?\s{0,4}\]\s{0,4}\.join\(\s{0,4}(?:(['"])([^'"\\\n]{0,4})\2)?\s{0,4}\)`, 'g'),
    (items, quote, separator) => literal([...items.matchAll(/['"]([^'"\\\n]{0,32})['"]/g)].map((m) => m[1]).join(quote === '' ? ',' : separator), hidden),
  );
  // 'sp' + 'awn' (+ …): each round joins neighbouring pairs
  const pair = new RegExp(String.raw`${QUOTED}\1\s{0,8}\+\s{0,8}(['"])([^'"\\\n]{0,${PIECE}})\3`, 'g');
  for (let round = 0; round < ROUNDS; round++) {
    let folded = false;
    text = text.replace(pair, (match, _q: string, a: string, _q2: string, b: string) => {
      const joined = a + b;
      if (joined.length > PIECE || !NAME_LIKE.test(joined)) return match;
      folded = true;
      if (isSensitive(joined)) hidden.add(joined.replace(/^node:/, ''));
      return `'${joined}'`;
    });
    if (!folded) break;
  }
  return text;
}

/** Reflective lookups of a sensitive member written out again as the plain member (`os.hostname`). */
function plainMembers(source: string, hidden: Set<string>): string {
  const extra: string[] = [];
  const note = (target: string, name: string, reflective: boolean): void => {
    if (!IDENTIFIER.test(name)) return;
    if (reflective && isSensitive(name)) {
      hidden.add(name);
      extra.push(`${target}.${name}();`);
    }
  };
  // x['name'] → x.name (a member access: after a name, `)` or `]`, not an array literal)
  let text = source.replace(/([\w$)\]])\s{0,4}\[\s{0,4}(['"])([A-Za-z_$][\w$]{0,63})\2\s{0,4}\]/g, (_m, before: string, _q: string, name: string) => `${before}.${name}`);
  // Reflect.get(x, 'name'), Object.getOwnPropertyDescriptor(x, 'name').value
  text = text.replace(/\bReflect\.get\s{0,4}\(\s{0,4}([\w$.]{1,64})\s{0,4},\s{0,4}(['"])([\w$]{1,64})\2\s{0,4}\)/g, (match, target: string, _q: string, name: string) => {
    note(target, name, true);
    return IDENTIFIER.test(name) ? `${target}.${name}` : match;
  });
  text = text.replace(
    /\bObject\.getOwnPropertyDescriptor\s{0,4}\(\s{0,4}([\w$.]{1,64})\s{0,4},\s{0,4}(['"])([\w$]{1,64})\2\s{0,4}\)\s{0,4}\.value\b/g,
    (match, target: string, _q: string, name: string) => {
      note(target, name, true);
      return IDENTIFIER.test(name) ? `${target}.${name}` : match;
    },
  );
  // Object.keys(x).find((k) => k === 'name'), getOwnPropertyNames / entries, find / filter
  for (const match of text.matchAll(
    /\bObject\.(?:keys|getOwnPropertyNames|entries)\s{0,4}\(\s{0,4}([\w$.]{1,64})\s{0,4}\)\s{0,4}\.(?:find|filter|findIndex)\s{0,4}\(([^;\n]{0,120}?)(['"])([\w$]{1,64})\3/g,
  )) {
    if (/===?/.test(match[2] ?? '')) note(match[1] ?? '', match[4] ?? '', true);
  }
  // name = 'spawn'; … x[name](…)
  const assigned = new Map<string, string>();
  for (const match of text.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]{0,40})\s{0,4}=\s{0,4}(['"])([\w$]{1,64})\2/g)) {
    if (HIDDEN_BY_VARIABLE.has(match[3] ?? '')) assigned.set(match[1] ?? '', match[3] ?? '');
  }
  if (assigned.size > 0) {
    for (const match of text.matchAll(/([\w$.]{0,64}[\w$)\]])\[\s{0,4}([A-Za-z_$][\w$]{0,40})\s{0,4}\]/g)) {
      const name = assigned.get(match[2] ?? '');
      // The lookup's target as written when it is a name (`cp`), else a stand-in (`require('…')[m]`).
      if (name !== undefined) note(/^[\w$.]+$/.test(match[1] ?? '') ? (match[1] ?? '') : 'target', name, true);
    }
  }
  return extra.length === 0 ? text : `${text}\n${extra.join('\n')}`;
}

/**
 * The text with its hidden names made plain, and the sensitive names it hid. A plain bracket
 * lookup (`process['env']`, which bundlers write to avoid their own replacement) is made plain
 * but not counted as hiding; folded pieces, decoded literals and reflective lookups are.
 */
export function revealNames(source: string): RevealedCode {
  const hidden = new Set<string>();
  const folded = foldLiterals(source, hidden);
  const text = plainMembers(folded, hidden);
  return { text, hidden: [...hidden] };
}
