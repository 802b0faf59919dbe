/**
 * YAML (pnpm-lock.yaml, YAML MCP client configurations) with line numbers, through the `yaml`
 * package. Everything is read with the failsafe schema (all scalars are strings, so `1.10` stays
 * `1.10`), and aliases are capped by the library's default against expansion bombs. A mapping
 * that names a key twice is refused, as pnpm (js-yaml's `load`) and Goose (serde_yaml) refuse
 * it: keeping either value would let the file's author choose what nerq reads
 * (docs/security.md, "Keys named twice"). The library's own check (`uniqueKeys`) compares every
 * key with every other, quadratic on big lockfiles; one pass with a set per mapping does it here.
 * A text holds one document: a second one (after a `---` marker) is refused, as js-yaml's `load`
 * and serde_yaml refuse it — the library drops it without a word when its log level is silent,
 * which would leave what follows the marker unread (docs/security.md, "YAML documents").
 * Mappings and sequences nested deeper than MAX_YAML_DEPTH are refused (flow brackets, compact
 * `- - -` sequences and indentation alike): no lockfile or configuration comes near, and the
 * library composes and converts documents recursively, so absurd nesting would end in a stack
 * overflow (the library's own catch of it, or a RangeError) rather than a reader's error.
 */
import { isMap, isPair, isScalar, isSeq, parseAllDocuments, parseDocument } from 'yaml';
import type { Document, Node, Pair } from 'yaml';
import { LockfileError } from '../audit/types.js';
import { firstLine, LineIndex, parserMessage, quote, TOO_DEEP } from './text.js';

/** The deepest nesting of mappings and sequences read (a pnpm lockfile nests five levels). */
export const MAX_YAML_DEPTH = 128;

const TOO_DEEP_DETAIL = `invalid YAML: ${TOO_DEEP} (more than ${MAX_YAML_DEPTH} levels are not read)`;

export interface ParsedYaml {
  value: unknown;
  /** The line of every key of the mapping at `path` (empty when there is none). */
  keyLines(path: readonly string[]): Map<string, number>;
  /** The line of the value at `path` (its key's line), or of its nearest ancestor. */
  lineOf(path: readonly PropertyKey[]): number;
  /**
   * The line of every key of the mappings under the root's `key`, down to `depth` levels, by its
   * path below `key` (segments joined with NUL), in one pass: a lookup per key (lineOf) would
   * rescan each mapping for every key it holds.
   */
  keyLinesUnder(key: string, depth: number): Map<string, number>;
  /** The line of each item of the sequence under the root's `key`, in one pass (empty when it is not a sequence). */
  itemLines(key: string): number[];
}

/** `startLine`: the line of the file `text` starts on, when it is a part of the file (a pnpm lockfile's second document). */
export function parseYaml(text: string, file: string, startLine = 1): ParsedYaml {
  // Lines are counted as every other reader counts them, at each `\n`: the YAML lexer also
  // breaks lines at a lone `\r`, which would name a line past the file's last.
  const lines = new LineIndex(text);
  const lineAt = (offset: number) => lines.lineAt(offset) + startLine - 1;
  // logLevel silent: a hostile file must not make the library write warnings to stderr.
  const options = { uniqueKeys: false, schema: 'failsafe', logLevel: 'silent' } as const;
  const parse = () => {
    const all = parseAllDocuments(text, options);
    return { all, doc: Array.isArray(all) && all[0] !== undefined ? all[0] : parseDocument(text, options) };
  };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (cause) {
    // A stack overflow the library did not catch itself.
    if (cause instanceof RangeError) throw new LockfileError(file, null, TOO_DEEP_DETAIL);
    throw cause;
  }
  const { all, doc } = parsed;
  // The library catches a stack overflow while composing a collection and reports it so.
  const exhausted = doc.errors.find((e) => e.code === 'RESOURCE_EXHAUSTION');
  if (exhausted !== undefined) throw new LockfileError(file, Number.isInteger(exhausted.pos[0]) ? lineAt(exhausted.pos[0]) : null, TOO_DEEP_DETAIL);
  const error = doc.errors[0];
  if (error !== undefined) {
    const line = Number.isInteger(error.pos[0]) ? lineAt(error.pos[0]) : null;
    const detail = firstLine(error.message).replace(/ at line \d+, column \d+:?$/, '');
    throw new LockfileError(file, line, `invalid YAML: ${detail}`);
  }
  const second = Array.isArray(all) ? all[1] : undefined;
  if (second !== undefined) throw new LockfileError(file, lineAt(second.range[0]), 'invalid YAML: more than one document');
  const deep = tooDeep(doc.contents);
  if (deep !== null) throw new LockfileError(file, Array.isArray(deep.range) ? lineAt(deep.range[0]) : null, TOO_DEEP_DETAIL);
  const duplicate = firstDuplicateKey(doc.contents);
  if (duplicate !== null) {
    const line = Array.isArray(duplicate.range) ? lineAt(duplicate.range[0]) : null;
    throw new LockfileError(file, line, `invalid YAML: duplicate key ${quote(duplicate.text)}`);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    throw new LockfileError(file, null, cause instanceof RangeError ? TOO_DEEP_DETAIL : `invalid YAML: ${parserMessage(cause)}`);
  }
  const keyLine = (pair: Pair<unknown, unknown>): number | null => {
    const range = (pair.key as Node | null)?.range;
    return range ? lineAt(range[0]) : null;
  };
  return {
    value,
    keyLines(path) {
      const node = (doc as Document).getIn(path, true);
      const lines = new Map<string, number>();
      if (!isMap(node)) return lines;
      for (const pair of node.items) {
        const line = keyLine(pair);
        if (line !== null) lines.set(keyText(pair.key), line);
      }
      return lines;
    },
    keyLinesUnder(key, depth) {
      const lines = new Map<string, number>();
      const walk = (node: unknown, prefix: string, level: number) => {
        if (!isMap(node) || level > depth) return;
        for (const pair of node.items) {
          const path = prefix === '' ? keyText(pair.key) : `${prefix}\u0000${keyText(pair.key)}`;
          const line = keyLine(pair);
          if (line !== null && !lines.has(path)) lines.set(path, line);
          walk(pair.value, path, level + 1);
        }
      };
      if (isMap(doc.contents)) {
        const top = doc.contents.items.find((p) => keyText(p.key) === key);
        if (top !== undefined) walk(top.value, '', 1);
      }
      return lines;
    },
    itemLines(key) {
      const top = isMap(doc.contents) ? doc.contents.items.find((p) => keyText(p.key) === key) : undefined;
      if (top === undefined || !isSeq(top.value)) return [];
      const fallback = keyLine(top) ?? 1;
      return top.value.items.map((item) => {
        const range = (item as Node | null)?.range;
        return range ? lineAt(range[0]) : fallback;
      });
    },
    lineOf(path) {
      let node: unknown = doc.contents;
      let line = 1;
      for (const key of path) {
        if (isMap(node)) {
          const pair = node.items.find((p) => isPair(p) && keyText(p.key) === String(key));
          if (pair === undefined) break;
          line = keyLine(pair) ?? line;
          node = pair.value;
        } else if (isSeq(node)) {
          const item = node.items[Number(key)] as Node | undefined;
          if (item?.range === undefined || item.range === null) break;
          line = lineAt(item.range[0]);
          node = item;
        } else break;
      }
      return line;
    },
  };
}

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

/** The first mapping or sequence nested deeper than MAX_YAML_DEPTH (the root's own at depth 1), in one pass without recursion; null when none is. */
function tooDeep(root: unknown): { range?: readonly number[] | null } | null {
  const pending: Array<[unknown, number]> = [[root, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth > MAX_YAML_DEPTH) return node;
    for (const item of node.items) {
      if (isPair(item)) pending.push([item.key, depth + 1], [item.value, depth + 1]);
      else pending.push([item, depth + 1]);
    }
  }
  return null;
}

/**
 * The second key of the first mapping that names one twice (scalar keys, compared by their
 * value: `a` and `'a'` are one key), in one pass over the document. Aliases are not followed:
 * what they name is walked where it is defined.
 */
function firstDuplicateKey(root: unknown): { text: string; range: readonly number[] | null | undefined } | null {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        if (isScalar(pair.key)) {
          const text = String(pair.key.value);
          if (seen.has(text)) return { text, range: pair.key.range };
          seen.add(text);
        }
        pending.push(pair.key, pair.value);
      }
    } else if (isSeq(node)) {
      pending.push(...node.items);
    }
  }
  return null;
}
