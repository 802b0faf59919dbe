/**
 * YAML (pnpm-lock.yaml) with line numbers, through the `yaml` package. Everything is read with
 * the failsafe schema (all scalars are strings, so `1.10` stays `1.10`), duplicate keys are
 * not searched for (that check is quadratic on big lockfiles), and aliases are capped by the
 * library's default against expansion bombs.
 */
import { isMap, isPair, isScalar, isSeq, parseDocument } from 'yaml';
import type { Document, Node, Pair } from 'yaml';
import { LockfileError } from '../audit/types.js';
import { firstLine, LineIndex } from './text.js';

export interface ParsedYaml {
  value: unknown;
  /** The line of every key of the mapping at `path` (empty when there is none). */
  keyLines(path: readonly string[]): Map<string, number>;
  /** The line of the value at `path` (its key's line), or of its nearest ancestor. */
  lineOf(path: readonly PropertyKey[]): number;
}

export function parseYaml(text: string, file: string): ParsedYaml {
  // Lines are counted as every other reader counts them, at each `\n`: the YAML lexer also
  // breaks lines at a lone `\r`, which would name a line past the file's last.
  const lines = new LineIndex(text);
  const lineAt = (offset: number) => lines.lineAt(offset);
  // logLevel silent: a hostile file must not make the library write warnings to stderr.
  const doc = parseDocument(text, { uniqueKeys: false, schema: 'failsafe', logLevel: 'silent' });
  const error = doc.errors[0];
  if (error !== undefined) {
    const line = Number.isInteger(error.pos[0]) ? lineAt(error.pos[0]) : null;
    const detail = firstLine(error.message).replace(/ at line \d+, column \d+:?$/, '');
    throw new LockfileError(file, line, `invalid YAML: ${detail}`);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    throw new LockfileError(file, null, `invalid YAML: ${firstLine(cause instanceof Error ? cause.message : String(cause))}`);
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
