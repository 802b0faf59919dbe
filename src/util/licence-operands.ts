/**
 * Correcting a licence declaration without dropping a licence it names.
 *
 * spdx-correct reads any text as one licence and silently drops what it cannot read:
 * `MIT AND Commercial` becomes `MIT`, `Apache 2.0 / GPL` becomes `Apache-2.0`, `MIT OR (` and
 * `MIT AND` become `MIT`. A declaration read that way is a made-up licence — a permissive one
 * for a package whose terms are commercial or copyleft (docs/security.md, "Odd field types").
 * So a declaration is corrected operand by operand: it is split at SPDX's own operators
 * (`AND`, `OR`, `WITH`, any case) and parentheses, each licence operand is corrected on its own
 * (by the caller's rule), and the structure is kept. An operand that names more than one
 * licence some other way — `/`, `,`, `;`, `&`, `|`, a `+` between words, "except", "dual",
 * two known SPDX ids side by side — cannot be read without guessing how they combine, and
 * neither can an operand with words that make it another licence (`Commercial`, `custom`,
 * `-like`), a known id beside words other than "the", "license" or "version", or an operand the
 * rule does not correct: the declaration then has no correction. One list is read: known ids,
 * each written as an id, between `/`, `,`, `;`, `&` or `|` (`MIT/X11`, an old npm spelling) are
 * all of them — `(MIT AND X11)`, the reading whose terms are the strictest, as PyPI's licence
 * classifiers are read (checks/lib/spdx.ts).
 * Whether the result parses is the caller's check.
 */
import licenseIds from 'spdx-license-ids/index.json' with { type: 'json' };
import deprecatedIds from 'spdx-license-ids/deprecated.json' with { type: 'json' };

/** Lower-case id → the id as SPDX spells it. */
const KNOWN_IDS = new Map([...licenseIds, ...deprecatedIds].map((id) => [id.toLowerCase(), id] as const));

/** The operand as SPDX spells it when it is a known licence id in another case (`mit`, `gpl-3.0+`); null otherwise. */
function knownIdOf(operand: string): string | null {
  const plus = operand.endsWith('+') ? '+' : '';
  const id = KNOWN_IDS.get((plus ? operand.slice(0, -1) : operand).toLowerCase());
  return id === undefined ? null : id + plus;
}

/** SPDX's operators and parentheses, kept as pieces of their own (the GNU phrase "or later" is no operator). */
const STRUCTURE = /(\(|\)|(?<![\w.+-])(?:AND|WITH|OR(?!\s+(?:any\s+)?(?:later|newer|greater)\b))(?![\w.+-]))/i;
/** Ways of naming several licences in one operand that SPDX does not define. */
const SEVERAL = /[/,;&|]|(?:^|\s)\+|\+\S|\b(?:except|dual|plus)\b/i;
/**
 * Words that make a text another licence than the one it names (`Commercial MIT`, `MIT-like`,
 * `custom BSD`, `All rights reserved`): no correction reads past them.
 */
const OTHER_TERMS = /\b(?:commercial|non-?commercial|proprietary|custom|private|restricted|confidential|internal|reserved|modified|like|based|style|variant|similar|inspired|own)\b/i;
/** Words that may stand beside a known id without naming anything else (`The MIT License`, `Apache-2.0 licensed`). */
const FILLER = /^(?:the|licen[cs]e[ds]?|version|v)$/i;
/** A comma that introduces the licence's version (`Apache License, Version 2.0`), not another licence. */
const VERSION_COMMA = /,\s*(?:version|v\.?)\s*(?=\d)/gi;

/** The known SPDX ids the operand's words name (lower case, without a trailing `+`). */
function idsNamed(operand: string): string[] {
  return (operand.match(/[A-Za-z0-9.+-]+/g) ?? []).map((word) => word.replace(/\+$/, '').toLowerCase()).filter((word) => KNOWN_IDS.has(word));
}

/**
 * `text` with each licence operand replaced by `correctOne(operand)` (an exception after `WITH`
 * is kept as written), operators upper-cased; null when an operand names several licences or
 * `correctOne` gives null for one.
 */
export function correctEachLicence(text: string, correctOne: (operand: string) => string | null): string | null {
  const pieces = text
    .split(STRUCTURE)
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '');
  const out: string[] = [];
  for (const piece of pieces) {
    const upper = piece.toUpperCase();
    if (piece === '(' || piece === ')' || upper === 'AND' || upper === 'OR' || upper === 'WITH') {
      out.push(piece === '(' || piece === ')' ? piece : upper);
      continue;
    }
    if (out[out.length - 1] === 'WITH') {
      out.push(piece);
      continue;
    }
    // Known ids written as ids and listed with `/`, `,`, `;`, `&` or `|` (`MIT/X11`): all of them, the
    // conservative reading (AND takes the worst branch, checks/lib/license-class.ts), never one dropped.
    const listed = listedIds(piece);
    if (listed !== null) {
      out.push(listed.length === 1 ? (listed[0] as string) : `(${listed.join(' AND ')})`);
      continue;
    }
    // One licence at most; a known id it names must be the one the correction gives (`AGPL MIT` is not AGPL-3.0).
    const named = idsNamed(piece);
    if (SEVERAL.test(piece.replace(VERSION_COMMA, ' version ')) || OTHER_TERMS.test(piece) || named.length > 1) return null;
    // Beside a known id, only words that name nothing else.
    if (named.length === 1 && piece.split(/\s+/).some((word) => !FILLER.test(word) && !KNOWN_IDS.has(word.replace(/\+$/, '').toLowerCase()))) return null;
    const corrected = knownIdOf(piece) ?? correctOne(piece);
    if (corrected === null || corrected.trim() === '') return null;
    if (named[0] !== undefined && !corrected.toLowerCase().startsWith(named[0])) return null;
    out.push(corrected);
  }
  if (out.length === 0) return null;
  return out.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')');
}

/** The separators of a plain list of licence ids. */
const LIST_SEPARATOR = /\s*[/,;&|]\s*/;

/**
 * The ids of an operand that lists two or more known SPDX ids, each written as an id (any case,
 * `+` allowed) and nothing else, with `/`, `,`, `;`, `&` or `|` between them; null otherwise
 * (`Apache 2.0 / GPL` names no id as written: still unreadable).
 */
function listedIds(operand: string): string[] | null {
  if (!LIST_SEPARATOR.test(operand)) return null;
  const ids = operand.split(LIST_SEPARATOR).map((part) => knownIdOf(part.trim()));
  if (ids.length < 2 || ids.some((id) => id === null)) return null;
  return [...new Set(ids as string[])];
}

/** Where an unreadable declaration may divide one licence from another. */
const ANY_SEPARATOR = /[()/,;&|]|\s\+\s|\+(?=\S)|\b(?:and|or|with|except|dual)\b/i;

/**
 * Every licence an unreadable declaration may mean, for a deny list (which must not miss one):
 * the known ids it names, and the correction guessed for the whole text and for each part
 * between separators (`/`, `,`, `+`, `AND`, "except"…). It over-reads on purpose: `AGPL MIT`
 * may mean AGPL-3.0-or-later and MIT.
 */
export function licencesPossiblyMeant(text: string, correctOne: (text: string) => string | null): string[] {
  const found = new Set<string>();
  for (const id of idsNamed(text)) found.add(KNOWN_IDS.get(id) ?? id);
  for (const piece of [text, ...text.split(ANY_SEPARATOR)]) {
    const trimmed = piece.trim();
    if (trimmed === '') continue;
    const corrected = knownIdOf(trimmed) ?? correctOne(trimmed);
    if (corrected !== null && corrected.trim() !== '') found.add(corrected);
  }
  return [...found];
}
