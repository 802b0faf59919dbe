/**
 * The validity set on disk: `fixtures/validity/index.json` (what each packument is, when it was
 * recorded, from where, and its group) and `fixtures/validity/packuments.jsonl.br` (the trimmed
 * packuments, one JSON document a line, in index order, brotli-compressed).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import type { Group } from './groups.js';

export const SET_DIR = fileURLToPath(new URL('../../fixtures/validity/', import.meta.url));
export const INDEX_FILE = `${SET_DIR}index.json`;
export const PACKUMENTS_FILE = `${SET_DIR}packuments.jsonl.br`;

export interface SetEntry {
  name: string;
  /** `dist-tags.latest` at the recording date: the version judged. */
  version: string;
  /** When the packument was recorded (the author date of the commit that last wrote the file). */
  recordedAt: string;
  group: Group;
  /** The fixture file in the source repository, the commit that recorded it and its blob. */
  path: string;
  commit: string;
  blob: string;
}

export interface SetIndex {
  description: string;
  source: { repository: string; commit: string; directory: string; licence: string };
  packages: SetEntry[];
  /** Fixture files of the source left out, with why. */
  excluded: { path: string; reason: string }[];
}

export function readIndex(): SetIndex {
  return JSON.parse(readFileSync(INDEX_FILE, 'utf8')) as SetIndex;
}

/** The trimmed packuments, in index order. */
export function readPackuments(): Record<string, unknown>[] {
  const text = zlib.brotliDecompressSync(readFileSync(PACKUMENTS_FILE)).toString('utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
