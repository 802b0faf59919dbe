/**
 * The build files of a release pip can only build from source: its sdist (`.tar.gz`) streamed
 * as it downloads, as the npm tarball reader does (npm/tarball.ts: gunzip into node-tar's
 * `Parser`, caps on compressed and decompressed bytes and entries, nothing written to disk or
 * run), keeping only the top-level `setup.py`, `pyproject.toml` and `setup.cfg`, each capped.
 * A `.zip` sdist (old releases) is not read, and says so. Never rejects: a failure is
 * `unavailable` with a reason (docs/checks.md, `wheels-published`).
 */
import { Readable, type TransformOptions } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, type ZlibOptions } from 'node:zlib';
import type { ReadEntry } from 'tar';
import type { PypiFile, PypiSdistBuild } from '../../evidence/schema.js';
import { formatBytes } from '../http/client.js';
import type { HttpClient } from '../http/types.js';
import { streamBody } from '../http/stream.js';
import { oneLine } from '../http/one-line.js';
import { fileUrlFor } from './wheel-hooks.js';

const MiB = 1024 * 1024;

export const SDIST_CAPS = {
  compressedBytes: 20 * MiB,
  decompressedBytes: 100 * MiB,
  entries: 20_000,
  /** Characters of each build file kept (and scanned). */
  fileChars: 64 * 1024,
};

export type SdistCaps = typeof SDIST_CAPS;

/** The build files read, by their name at the sdist's top level. */
export const BUILD_FILES = ['setup.py', 'pyproject.toml', 'setup.cfg'] as const;

const GUNZIP_OPTIONS: ZlibOptions & TransformOptions = { writableHighWaterMark: 16 * 1024 };

class StopReading extends Error {}

/** The release's sdist, when pip can only build from it (no wheel it could install instead). */
function sdistOf(files: readonly PypiFile[], releaseYanked: boolean): PypiFile | undefined {
  return files.find((f) => f.packagetype === 'sdist' && (!f.yanked || releaseYanked));
}

/** Read the build files of the release's sdist. Only asked for an sdist-only release. */
export async function readSdistBuild(
  http: HttpClient,
  endpoints: { pypi: string; pypiFiles?: string },
  files: readonly PypiFile[],
  releaseYanked: boolean,
  caps: SdistCaps = SDIST_CAPS,
): Promise<PypiSdistBuild> {
  const sdist = sdistOf(files, releaseYanked);
  if (sdist === undefined) return { sdist: null, unavailable: null, files: [] };
  const unavailable = (reason: string): PypiSdistBuild => ({ sdist: sdist.filename, unavailable: reason, files: [] });
  if (!/\.tar\.gz$/i.test(sdist.filename)) return unavailable('only .tar.gz sdists are read (this one is another archive format)');
  const url = sdist.url == null ? undefined : fileUrlFor(sdist.url, endpoints);
  if (url === undefined) return unavailable(sdist.url == null ? 'PyPI gave no URL for the sdist' : 'the sdist is served from a host that is neither PyPI\'s file host nor the index');
  try {
    const res = await streamBody(http, { url, maxBytes: caps.compressedBytes }, (body) => readBuildFiles(body, caps));
    if (!res.ok) return unavailable(res.kind === 'too-large' ? `the sdist exceeds ${formatBytes(caps.compressedBytes)} compressed` : `the sdist could not be read: ${oneLine(res.reason)}`);
    if (typeof res.value === 'string') return unavailable(res.value);
    return { sdist: sdist.filename, unavailable: null, files: res.value };
  } catch (error) {
    return unavailable(`the sdist could not be read: ${oneLine(error)}`);
  }
}

type BuildFile = PypiSdistBuild['files'][number];

/** The top-level build files of a gzipped tar stream, or why it could not be read. */
export async function readBuildFiles(body: AsyncIterable<Buffer>, caps: SdistCaps): Promise<BuildFile[] | string> {
  const found: BuildFile[] = [];
  let entries = 0;
  let parseError: Error | null = null;
  const { Parser } = await import('tar');
  const parser = new Parser({
    strict: true,
    zstd: false,
    onReadEntry: (entry: ReadEntry) => {
      entries += 1;
      if (entries > caps.entries) {
        parseError ??= new StopReading(`the sdist has more than ${caps.entries} entries`);
        entry.resume();
        return;
      }
      // `<name>-<version>/setup.py`: one folder, then the file.
      const parts = entry.path.split('/').filter((p) => p !== '' && p !== '.');
      const name = parts[1];
      if (entry.type !== 'File' || parts.length !== 2 || name === undefined || !(BUILD_FILES as readonly string[]).includes(name) || found.some((f) => f.path === name)) {
        entry.resume();
        return;
      }
      const chunks: Buffer[] = [];
      let kept = 0;
      let truncated = false;
      entry.on('data', (chunk: Buffer) => {
        if (kept >= caps.fileChars * 4) {
          truncated = true;
          return;
        }
        chunks.push(chunk);
        kept += chunk.length;
      });
      entry.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        found.push({ path: name, text: text.slice(0, caps.fileChars), truncated: truncated || text.length > caps.fileChars });
      });
    },
  });
  parser.on('error', (error: Error) => {
    parseError ??= error;
  });
  const done = new Promise<void>((resolve) => {
    parser.on('end', () => resolve());
    parser.on('error', () => resolve());
  });
  let decompressed = 0;
  try {
    await pipeline(Readable.from(body, { highWaterMark: 1 }), createGunzip(GUNZIP_OPTIONS), async (inflated: AsyncIterable<Buffer>) => {
      for await (const chunk of inflated) {
        decompressed += chunk.length;
        if (decompressed > caps.decompressedBytes) throw new StopReading(`the sdist exceeds ${formatBytes(caps.decompressedBytes)} decompressed`);
        parser.write(chunk);
        if (parseError) throw parseError;
      }
    });
    parser.end();
    await done;
    if (parseError) throw parseError;
  } catch (error) {
    return error instanceof StopReading ? error.message : `the sdist is not a readable .tar.gz: ${oneLine(error)}`;
  }
  return BUILD_FILES.flatMap((name) => found.filter((f) => f.path === name));
}
