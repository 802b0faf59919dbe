/**
 * XML (CycloneDX XML SBOMs) with line numbers, through `fast-xml-parser`. The audited tree is
 * untrusted (docs/security.md, "XML SBOMs"): a document type declaration — where entities,
 * internal (a billion laughs) or external (a file of this machine, a URL), would be defined — is
 * refused before anything is parsed, so no entity is ever defined, expanded or fetched. The
 * parser's own entity processing is off: the five entities XML predefines and character
 * references are decoded here, in one pass, in the values a reader asks for (`textOf`), and any
 * other entity reference is refused. Well-formedness is checked first (a one-line error at the
 * line of the fault), nesting deeper than MAX_NESTING elements is refused, and an element or
 * attribute named twice where one is expected is the reader's shape error, never a choice of one.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { LockfileError } from '../audit/types.js';
import { firstLine, LineIndex, quote } from './text.js';

/** The deepest element nesting read (a CycloneDX document's nested components stay far below). */
const MAX_NESTING = 256;

/** The key under which the parser keeps an element's text, and its CDATA sections. */
const TEXT = '#text';
const CDATA = '#cdata';

export interface ParsedXml {
  /** The root element's name (without a namespace prefix) and content: attributes by name, child elements by name, `#text`. */
  root: { name: string; value: Record<string, unknown> };
  /** The line of the element at `path` below the root (its start tag), or of its nearest ancestor. */
  lineOf(path: readonly PropertyKey[]): number;
}

/** Parse `text`, throwing a `LockfileError` for a document that is not well formed or declares a document type. */
export function parseXml(text: string, file: string, isList: (path: string) => boolean): ParsedXml {
  const lines = new LineIndex(text);
  const declaration = markupDeclaration(text);
  if (declaration !== -1) {
    throw new LockfileError(file, lines.lineAt(declaration), 'a document type or entity declaration: not read (an SBOM needs none, and its entities could expand without end or name files)');
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new LockfileError(file, valid.err.line, `invalid XML: ${firstLine(valid.err.msg)}`);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: false,
    htmlEntities: false,
    cdataPropName: CDATA,
    alwaysCreateTextNode: true,
    captureMetaData: true,
    maxNestedTags: MAX_NESTING,
    ignoreDeclaration: true,
    ignorePiTags: true,
    // A namespace prefix (`<cdx:component>`) is not part of the name a reader looks for.
    transformTagName: (name) => name.slice(name.indexOf(':') + 1),
    // The elements that may repeat are lists wherever they occur, once or more (the parser's path: names joined with dots).
    isArray: (_name, path, _leaf, isAttribute) => isAttribute !== true && typeof path === 'string' && isList(path),
  });
  let parsed: Record<string, unknown>;
  try {
    parsed = parser.parse(text) as Record<string, unknown>;
  } catch (error) {
    const message = firstLine(error instanceof Error ? error.message : String(error));
    throw new LockfileError(file, null, /nested tags/i.test(message) ? `nested more than ${MAX_NESTING} elements deep: not read` : `invalid XML: ${message}`);
  }
  const names = Object.keys(parsed);
  const name = names[0];
  const value = name === undefined ? undefined : parsed[name];
  if (names.length !== 1 || name === undefined || typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new LockfileError(file, null, 'invalid XML: not one root element');
  }
  const meta = XMLParser.getMetaDataSymbol() as unknown as symbol;
  const lineOfNode = (node: unknown): number | null => {
    // An element given more than once: where it is first.
    if (Array.isArray(node)) return lineOfNode(node[0]);
    if (typeof node !== 'object' || node === null) return null;
    const start = (node as Record<symbol, { startIndex?: unknown } | undefined>)[meta]?.startIndex;
    return typeof start === 'number' ? lines.lineAt(start) : null;
  };
  return {
    root: { name, value: value as Record<string, unknown> },
    lineOf(path) {
      let node: unknown = value;
      let line = lineOfNode(node) ?? 1;
      for (const key of path) {
        if (typeof node !== 'object' || node === null) break;
        node = (node as Record<PropertyKey, unknown>)[key];
        line = lineOfNode(node) ?? line;
      }
      return line;
    },
  };
}

/**
 * The offset of the first markup declaration (`<!DOCTYPE`, `<!ENTITY`, …: a `<!` that opens
 * neither a comment nor a CDATA section), or -1. Comments and CDATA sections are skipped, so
 * their text may say anything; one pass.
 */
function markupDeclaration(text: string): number {
  for (let at = text.indexOf('<!'); at !== -1; at = text.indexOf('<!', at + 2)) {
    if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at + 4);
      if (end === -1) return -1;
      at = end + 1;
    } else if (text.startsWith('<![CDATA[', at)) {
      const end = text.indexOf(']]>', at + 9);
      if (end === -1) return -1;
      at = end + 1;
    } else return at;
  }
  return -1;
}

/** The entities XML predefines. */
const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

/**
 * The text of an element (or an attribute's value) as the document means it: entity and
 * character references decoded, CDATA sections as written; undefined for none. An element's text
 * and CDATA together (rare, and in no field a reader asks for) are joined, text first. Throws a
 * `LockfileError` at `line` for an entity XML does not predefine (none can be declared: see above).
 */
export function textOf(node: unknown, file: string, line: number): string | undefined {
  if (typeof node === 'string') return decode(node, file, line);
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
  const record = node as Record<string, unknown>;
  const text = typeof record[TEXT] === 'string' ? decode(record[TEXT], file, line) : '';
  const sections = record[CDATA] === undefined ? [] : Array.isArray(record[CDATA]) ? record[CDATA] : [record[CDATA]];
  const cdata = sections.map((section) => {
    const raw = (section as Record<string, unknown> | null)?.[TEXT];
    return typeof raw === 'string' ? raw : '';
  });
  return text + cdata.join('');
}

function decode(raw: string, file: string, line: number): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&([^;&\s]{0,32});?/g, (whole, name: string) => {
    if (whole.endsWith(';')) {
      const predefined = PREDEFINED[name];
      if (predefined !== undefined) return predefined;
      const code = /^#x([0-9a-f]{1,6})$/i.exec(name)?.[1] ?? /^#([0-9]{1,7})$/.exec(name)?.[1];
      if (code !== undefined) {
        const point = name.startsWith('#x') || name.startsWith('#X') ? Number.parseInt(code, 16) : Number(code);
        if (point > 0 && point <= 0x10ffff && !(point >= 0xd800 && point <= 0xdfff)) return String.fromCodePoint(point);
      }
    }
    throw new LockfileError(file, line, `an entity reference XML does not define: ${quote(whole)}`);
  });
}
