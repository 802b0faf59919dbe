/**
 * Read a package tarball (.tgz) as it is downloaded, and collect TarballFacts.
 *
 * The body is never held whole (docs/security.md, "Memory"): each chunk is hashed for the
 * registry's integrity and passed on to the reader, and dropped. Nothing is written to disk and
 * nothing is executed. gunzip (node:zlib) feeds node-tar's
 * `Parser`; only the few files the facts need (README, licences) are kept, each up to a
 * per-file cap. Caps on compressed bytes, decompressed bytes and entries stop reading at
 * once (a gzip bomb is never fully inflated) and make the result `unavailable` with a
 * reason naming the cap. Corrupt gzip or tar data is `unavailable` too, never a throw.
 */
import { createHash, type Hash } from 'node:crypto';
import { once } from 'node:events';
import { PassThrough, Readable, type TransformOptions } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { win32 } from 'node:path';
import { createGunzip, type ZlibOptions } from 'node:zlib';
import type { ReadEntry } from 'tar';
import { TarballFactsSchema, type TarballFacts, type TarballManifest } from '../../evidence/schema.js';
import { licenseFileFacts } from './license-text.js';
import { CHANGELOG_RE, CONTRIBUTING_RE, isLicenseFileName, README_RE, SECURITY_RE } from '../../util/file-names.js';
import { tarballManifest } from './facts.js';
import { repeatedKeys } from './packument-scan.js';
import type { FolderManifest } from '../../checks/lib/install-targets.js';
import type { HttpClient } from '../http/types.js';
import { streamBody } from '../http/stream.js';
import { oneLine } from '../http/one-line.js';
import { httpFailureCode, type SourceUnavailableCode } from '../../model/source-codes.js';
import { InstallCodeCollector, type CodeHolder } from './install-code.js';
import { ObfuscationScan } from './obfuscation-scan.js';
import { bundledInstallCommands, INSTALL_HOOKS } from '../../checks/lib/install-hooks.js';
import { fileLookup, missingEntryPoints, offersImport } from '../../checks/lib/entry-points.js';

const MiB = 1024 * 1024;

export interface TarballCaps {
  /** Compressed bytes read (the download cap, counted here too). */
  compressedBytes: number;
  /** Bytes after gunzip: the tar stream itself. */
  decompressedBytes: number;
  /** Tar entries of any type (files, directories, links). */
  entries: number;
  /** Bytes of one file kept in memory (licence texts; of a README, README_TEXT_BYTES at most); longer files are truncated. */
  perFileBytes: number;
}

/**
 * Large enough that real packages are read to their end — a tarball nerq stops reading holds
 * the verdict (docs/security.md), and npm extracts all of it: onnxruntime-node is 108 MiB
 * compressed and 287 MiB unpacked, @iconify/json 99 and 463 MiB, @mui/icons-material 43,010
 * entries. Memory does not grow with them (only capped files are kept); the decompressed cap
 * bounds the time, and the entries with it (each takes a 512-byte header at least).
 */
export const DEFAULT_TARBALL_CAPS: TarballCaps = {
  compressedBytes: 128 * MiB,
  decompressedBytes: 512 * MiB,
  entries: 1_048_576,
  perFileBytes: 1 * MiB,
};

// The README text in the facts is capped at README_TEXT_BYTES (file-names.ts); the rest is read as it streams past.
import { README_TEXT_BYTES } from '../../util/file-names.js';
import { ReadmeTailScanner } from '../../util/readme-tail.js';
import { linkedCommands } from './commands.js';

/** The archive's package.json is read up to this many bytes; a larger one is not read at all. */
export const MANIFEST_BYTES = 1024 * 1024;
/** Names besides package.json that npm may read as it, at most this many kept (the rest are unread, which is a finding). */
const MAX_MANIFEST_ALIASES = 8;

/**
 * Bundled package.json files read at most (`node_modules/…/package.json`), and the bytes they
 * may hold together; the rest are counted as unread. npm itself bundles a few hundred packages
 * of a few KiB each.
 */
export const MAX_BUNDLED_MANIFESTS = 1000;
const BUNDLED_MANIFESTS_TOTAL_BYTES = 8 * MiB;
/** A bundled package.json is read up to this many bytes; a larger one is not read. */
export const BUNDLED_MANIFEST_BYTES = 128 * 1024;
/**
 * Paths of the archive's files listed at most, and their characters together, to look up the
 * entry points its package.json names (entry-points.ts): @mui/icons-material ships 43,010 files.
 * Past either, a target not found is not known to be missing.
 */
export const MAX_LISTED_PATHS = 200_000;
const LISTED_PATH_CHARS = 16 * MiB;
/** Bundled folders recorded at most (a binding.gyp without a package.json counts too). */
const MAX_BUNDLED_FOLDERS = 2000;

/**
 * The package folder a path under the archive's `node_modules/` is in, and the file's path
 * inside it: `node_modules/a/node_modules/@s/b/package.json` → [`node_modules/a/node_modules/@s/b`,
 * `package.json`]; null when the path is not inside a package folder there.
 */
export function bundledPlace(rel: readonly string[]): { folder: string; top: string; file: string } | null {
  if (rel[0] !== 'node_modules') return null;
  let i = 0;
  let folderEnd = -1;
  let top: string | null = null;
  while (rel[i] === 'node_modules') {
    const first = rel[i + 1];
    if (first === undefined) return null;
    const width = first.startsWith('@') ? 2 : 1;
    if (rel[i + width] === undefined || (width === 2 && rel[i + 2] === undefined)) return null;
    top ??= rel.slice(i + 1, i + 1 + width).join('/');
    folderEnd = i + 1 + width;
    if (rel[folderEnd] !== 'node_modules' || rel[folderEnd + 1] === undefined) break;
    i = folderEnd;
  }
  const file = rel.slice(folderEnd).join('/');
  if (top === null || file === '') return null;
  return { folder: rel.slice(0, folderEnd).join('/'), top, file };
}

/**
 * A name, other than `package.json`, that some file system reads as `package.json` once the
 * archive is extracted there: another case (macOS and Windows ignore case, and the later entry
 * replaces the file npm reads), trailing dots or spaces (Windows drops them), an 8.3 short
 * name (`PACKAG~1.JSO`, Windows).
 */
function readsAsManifest(name: string): boolean {
  if (name === 'package.json') return false;
  return name.replace(/[. ]+$/, '').toLowerCase() === 'package.json' || /^packag~\d+\.jso$/i.test(name);
}

/**
 * Licence files whose text is kept to identify the licence; later ones are listed with an
 * unknown SPDX id. Without it, hundreds of root `LICENSE-*` files of a hostile package would
 * each keep up to `perFileBytes` (190 × 1 MiB peaked over 600 MB).
 */
export const MAX_LICENSE_TEXTS = 16;

/** `unread`: stopped at a cap, with the rest of the archive (which npm extracts) not read. */
/**
 * `reread`: files the install scripts run that streamed past before the reader knew of them
 * (install-code.ts): a second reading with them as `wantedPaths` reads them; `rereadBundled`, the
 * same for bundled packages' install scripts (`wantedBundledPaths`); `rereadLoad`, the same for the
 * entry modules a `require` of the package runs and the modules they load (`wantedLoadPaths`: an
 * archive whose package.json comes late, after more code than the reader pools, as webpack's and
 * next's do). Not evidence.
 */
export type TarballResult = { status: 'ok'; facts: TarballFacts; reread?: string[]; rereadBundled?: string[]; rereadLoad?: string[] } | { status: 'unavailable'; reason: string; code: SourceUnavailableCode; unread?: true };

/**
 * The `Authorization` header value for a URL, as npm's configuration gives it for that
 * origin; undefined for none. (The HTTP client may also add auth itself; this is for
 * callers that hold npm's per-registry credentials outside the client.)
 */
export interface FetchTarballOptions {
  /** The registry's `dist.integrity` (SRI): the bytes must match it or nothing is read. */
  integrity?: string | null;
  caps?: Partial<TarballCaps>;
  /** The install commands the registry's manifest gives: the files they run are kept (install-code.ts). */
  installCommands?: readonly string[];
  /** Files to keep from the start, as files a command names (a first reading's `reread`). */
  wantedPaths?: readonly string[];
  /** The same for files bundled packages' commands name (a first reading's `rereadBundled`). */
  wantedBundledPaths?: readonly string[];
  /** The same for the entry modules a `require` runs and the modules they load (a first reading's `rereadLoad`). */
  wantedLoadPaths?: readonly string[];
}

/**
 * Download a tarball (auth, if any, is attached by the HTTP client for the URL's own origin)
 * and read it as it streams in. A download that does not match the registry's integrity hash
 * gives no facts: they would describe bytes nobody installs.
 */
export async function fetchTarballFacts(
  http: HttpClient,
  url: string,
  options: FetchTarballOptions = {},
): Promise<TarballResult> {
  const limits = { ...DEFAULT_TARBALL_CAPS, ...options.caps };
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return { status: 'unavailable', reason: 'tarball: invalid URL', code: 'not-asked' };
  }
  if (protocol !== 'https:' && protocol !== 'http:') {
    return { status: 'unavailable', reason: `tarball: unsupported URL scheme ${protocol}`, code: 'not-asked' };
  }
  const res = await streamBody(http, { url, maxBytes: limits.compressedBytes }, (body) =>
    readVerifiedTarball(body, options.integrity, limits, options.installCommands, options.wantedPaths, options.wantedBundledPaths, options.wantedLoadPaths),
  );
  if (!res.ok) {
    if (res.kind === 'too-large') {
      return { status: 'unavailable', reason: `tarball exceeds ${formatBytes(limits.compressedBytes)} compressed`, code: 'too-large', unread: true };
    }
    return { status: 'unavailable', reason: `tarball: ${oneLine(res.reason)}`, code: httpFailureCode(res) };
  }
  return res.value;
}

/**
 * Read a tarball from its body as it arrives, hashing every byte for `integrity`: the facts only
 * when the whole body matches. A reader that stops early (a cap, corrupt data) leaves the rest
 * of the body to the hash alone, so that a body that is not the registry's still says so (it
 * is bounded by the download cap). Rejects only with what the body's iteration throws (the
 * transfer's failure, for the HTTP client to report).
 */
export async function readVerifiedTarball(
  body: AsyncIterable<Buffer>,
  integrity: string | null | undefined,
  caps?: Partial<TarballCaps>,
  installCommands: readonly string[] = [],
  wantedPaths: readonly string[] = [],
  wantedBundledPaths: readonly string[] = [],
  wantedLoadPaths: readonly string[] = [],
): Promise<TarballResult> {
  const expected = expectedHashes(integrity);
  const hash: Hash | null = expected === null ? null : createHash(expected.algorithm);
  // A small queue between the download and the reader: the download waits while it is full.
  const feed = new PassThrough({ highWaterMark: 64 * 1024 });
  let reading = true;
  const read = readTarball(feed, caps, installCommands, wantedPaths, wantedBundledPaths, wantedLoadPaths).finally(() => {
    reading = false;
  });
  try {
    for await (const chunk of body) {
      hash?.update(chunk);
      if (reading && !feed.destroyed) {
        if (!feed.write(chunk)) {
          const drained = new AbortController();
          await Promise.race([once(feed, 'drain', { signal: drained.signal }).catch(() => undefined), read]);
          drained.abort();
        }
      } else if (hash === null) {
        break;
      }
    }
    if (!feed.destroyed) feed.end();
  } catch (error) {
    feed.destroy();
    await read;
    throw error;
  }
  const result = await read;
  if (hash !== null && expected !== null && !expected.digests.includes(hash.digest('base64'))) {
    return { status: 'unavailable', reason: mismatchReason(expected.algorithm), code: 'integrity-mismatch' };
  }
  return result;
}

const SRI_ALGORITHMS = ['sha512', 'sha384', 'sha256', 'sha1'] as const;

/**
 * Check bytes against an SRI string (`sha512-<base64>`, possibly several, space-separated):
 * the strongest algorithm present must match. Returns a reason on mismatch, null when the
 * bytes match or there is no usable hash to compare (nothing to verify is not a failure).
 */
export function integrityMismatch(body: Buffer, integrity: string | null | undefined): string | null {
  const expected = expectedHashes(integrity);
  if (expected === null) return null;
  const actual = createHash(expected.algorithm).update(body).digest('base64');
  return expected.digests.includes(actual) ? null : mismatchReason(expected.algorithm);
}

/** The strongest algorithm of an SRI string and its digests; null when there is none to compare. */
function expectedHashes(integrity: string | null | undefined): { algorithm: (typeof SRI_ALGORITHMS)[number]; digests: string[] } | null {
  if (!integrity) return null;
  const hashes = new Map<string, string[]>();
  for (const token of integrity.trim().split(/\s+/)) {
    const match = /^(sha512|sha384|sha256|sha1)-([A-Za-z0-9+/]+={0,2})(\?.*)?$/.exec(token);
    if (match) hashes.set(match[1]!, [...(hashes.get(match[1]!) ?? []), match[2]!]);
  }
  const algorithm = SRI_ALGORITHMS.find((a) => hashes.has(a));
  return algorithm === undefined ? null : { algorithm, digests: hashes.get(algorithm)! };
}

function mismatchReason(algorithm: string): string {
  return `tarball does not match the registry's ${algorithm} integrity hash: not read`;
}

/**
 * zlib streams accept the stream options too (not in @types/node's ZlibOptions): a small
 * input buffer, so that little compressed data is queued once a cap has been hit.
 */
const GUNZIP_OPTIONS: ZlibOptions & TransformOptions = { writableHighWaterMark: 16 * 1024 };

/** Thrown inside the pipeline to stop reading; turned into `unavailable` below. */
class StopReading extends Error {}
/** A cap reached: the archive is fine, only larger than nerq reads (`unread`: npm extracts the rest). */
class CapReached extends StopReading {}

interface Kept {
  path: string;
  size: number;
  chunks: Buffer[];
  kept: number;
  /** A licence file past MAX_LICENSE_TEXTS: listed, its text not kept. */
  unread?: boolean;
}

/** The install commands of a manifest read from the archive. */
function installCommandsOf(manifest: TarballManifest | null | undefined): string[] {
  if (manifest == null) return [];
  return INSTALL_HOOKS.flatMap((name) => (Object.hasOwn(manifest.installScripts, name) ? [manifest.installScripts[name]!] : []));
}

/** Read a .tgz from a buffer or a stream of chunks. Never throws, never rejects. */
export async function readTarball(
  data: AsyncIterable<Buffer> | Buffer,
  caps?: Partial<TarballCaps>,
  installCommands: readonly string[] = [],
  wantedPaths: readonly string[] = [],
  wantedBundledPaths: readonly string[] = [],
  wantedLoadPaths: readonly string[] = [],
): Promise<TarballResult> {
  const limits = { ...DEFAULT_TARBALL_CAPS, ...caps };
  const collector = new Collector(limits.perFileBytes, installCommands, wantedPaths, wantedBundledPaths, wantedLoadPaths);
  let parseError: Error | null = null;
  let entries = 0;
  // Loaded here, not at start-up: only a run that reads a tarball (not a warm one) needs tar.
  const { Parser } = await import('tar');

  // Read as npm's extraction reads (node-tar's Unpack, not strict): an entry whose header is
  // invalid is skipped and reading goes on — a package.json after it is the one npm installs —,
  // while a bad archive (truncated, or no valid entry at all) ends it, as it ends extraction.
  // zstd: false — only gzip is accepted, and that is done (and counted) here.
  const parser = new Parser({
    strict: false,
    zstd: false,
    onwarn: (code: string, message: string | Error) => {
      if (code === 'TAR_BAD_ARCHIVE' || code === 'TAR_ABORT') parseError ??= Object.assign(new Error(`${code}: ${oneLine(message instanceof Error ? message.message : message)}`), { tarCode: code });
    },
    onReadEntry: (entry: ReadEntry) => {
      entries += 1;
      if (entries > limits.entries) {
        parseError ??= new CapReached(`tarball has more than ${limits.entries} entries`);
        entry.resume();
        return;
      }
      collector.entry(entry);
    },
  });
  parser.on('error', (error: Error) => {
    parseError ??= error;
  });
  const parserDone = new Promise<void>((resolve) => {
    parser.on('end', () => resolve());
    parser.on('error', () => resolve());
  });

  let compressed = 0;
  let decompressed = 0;
  async function* counted(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of source) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      compressed += buf.length;
      if (compressed > limits.compressedBytes) {
        throw new CapReached(`tarball exceeds ${formatBytes(limits.compressedBytes)} compressed`);
      }
      yield buf;
    }
  }

  try {
    // The first bytes of the tar stream, held back until they can be checked.
    let head: Buffer | null = Buffer.alloc(0);
    await pipeline(
      // Small buffers between the stages: stop pulling input soon after a cap is hit.
      Readable.from(counted(Buffer.isBuffer(data) ? slices(data) : data), { highWaterMark: 1 }),
      createGunzip(GUNZIP_OPTIONS),
      async (inflated: AsyncIterable<Buffer>) => {
        for await (let chunk of inflated) {
          decompressed += chunk.length;
          if (decompressed > limits.decompressedBytes) {
            throw new CapReached(`tarball exceeds ${formatBytes(limits.decompressedBytes)} decompressed`);
          }
          if (head !== null) {
            head = Buffer.concat([head, chunk]);
            if (head.length < MAGIC_BYTES) continue;
            // A compressed stream inside the gzip would be inflated by the tar parser,
            // past our decompressed count: refuse it.
            if (isCompressed(head)) throw new StopReading('corrupt tar: nested compression');
            chunk = head;
            head = null;
          }
          parser.write(chunk);
          if (parseError) throw parseError;
        }
      },
    );
    if (head !== null && head.length > 0) parser.write(head);
    parser.end();
    await parserDone;
    if (parseError) throw parseError;
  } catch (error) {
    collector.close();
    return { status: 'unavailable', reason: failureReason(error), ...(error instanceof CapReached ? { code: 'too-large' as const, unread: true as const } : { code: failureCode(error) }) };
  }

  const facts = collector.facts();
  const checked = TarballFactsSchema.safeParse(facts);
  if (!checked.success) return { status: 'unavailable', reason: 'tarball: facts failed validation', code: 'bad-answer' };
  const reread = collector.reread();
  const rereadBundled = collector.rereadBundled();
  const rereadLoad = collector.rereadLoad();
  return {
    status: 'ok',
    facts: checked.data,
    ...(reread.length === 0 ? {} : { reread }),
    ...(rereadBundled.length === 0 ? {} : { rereadBundled }),
    ...(rereadLoad.length === 0 ? {} : { rereadLoad }),
  };
}

/** The code of what `failureReason` says: the deadline or a lost connection, else a body nerq could not read. */
function failureCode(error: unknown): SourceUnavailableCode {
  if (error instanceof StopReading) return 'bad-answer';
  const err = error as { name?: unknown; code?: unknown; tarCode?: unknown } | null;
  if (err?.name === 'AbortError' || err?.name === 'TimeoutError') return 'timeout';
  if (typeof err?.tarCode !== 'string' && typeof err?.code === 'string' && /^(?:E[A-Z]|UND_ERR)/.test(err.code)) return 'network-error';
  return 'bad-answer';
}

function failureReason(error: unknown): string {
  if (error instanceof StopReading) return error.message;
  const err = error as { code?: unknown; message?: unknown; tarCode?: unknown } | null;
  const message = oneLine(err?.message ?? error);
  if (typeof err?.tarCode === 'string') return `corrupt tar: ${message}`;
  if (typeof err?.code === 'string' && err.code.startsWith('Z_')) return `corrupt gzip: ${message}`;
  return `tarball unreadable: ${message}`;
}

const MAGIC_BYTES = 4;

/** gzip (1f 8b) or zstd (28 b5 2f fd) magic at the start of the tar stream. */
function isCompressed(head: Buffer): boolean {
  return (head[0] === 0x1f && head[1] === 0x8b) || head.subarray(0, 4).equals(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]));
}

/** Feed a whole buffer in 64 KiB slices, so the compressed count advances like a stream's. */
async function* slices(buf: Buffer): AsyncGenerator<Buffer> {
  for (let i = 0; i < buf.length; i += 64 * 1024) yield buf.subarray(i, i + 64 * 1024);
}

// ── what the facts are made of ────────────────────────────────────────────────────────

const DECLARATION_RE = /\.d\.[cm]?ts$/i;
const NATIVE_RE = /\.(?:c|cc|cpp|cxx|h|hpp|node)$/i;
const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);
/** Folders GitHub also looks in for community files. */
const COMMUNITY_DIRS = new Set(['.github', 'docs']);

/**
 * Split an entry path into components; null for path tricks (absolute paths, drive
 * letters, `..` components, backslashes, NUL) — such entries are counted, never matched.
 */
export function safeComponents(path: string): string[] | null {
  if (path.startsWith('/') || /^[a-z]:/i.test(path) || path.includes('\\') || path.includes('\0')) return null;
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.includes('..')) return null;
  return parts;
}

/**
 * Where npm's extraction puts an entry, as components under the package's folder; null when it
 * skips the entry. pacote extracts with node-tar's `strip: 1`, which drops the first component
 * whatever it is (`./package.json` and `/package.json` land as `package.json`), then strips any
 * absolute root the rest still has (`/`, `\\`, `C:`, `\\?\C:\`: Windows roots on every
 * platform), refuses `..`, and resolves `.` and empty components. `windows` reads backslashes
 * as separators first, as extraction on Windows does.
 */
export function installedComponents(entryPath: string, windows = false): string[] | null {
  const raw = windows ? entryPath.replaceAll('\\', '/') : entryPath;
  if (raw.includes('\0')) return null;
  const [, stripped] = stripAbsoluteRoot(raw.split('/').slice(1).join('/'));
  const parts = stripped.split('/');
  if (stripped.replaceAll('\\', '/').split('/').includes('..')) return null;
  const kept = parts.filter((p) => p !== '' && p !== '.');
  return kept.length === 0 ? null : kept;
}

/** node-tar's root stripping: every leading root a Windows path parse finds, `/` one at a time. */
function stripAbsoluteRoot(entryPath: string): [root: string, rest: string] {
  let rest = entryPath;
  let root = '';
  for (let parsed = win32.parse(rest); win32.isAbsolute(rest) || parsed.root !== ''; parsed = win32.parse(rest)) {
    const cut = rest.startsWith('/') && !rest.startsWith('//?/') ? '/' : parsed.root;
    rest = rest.slice(cut.length);
    root += cut;
  }
  return [root, rest];
}

class Collector {
  private root: string | null = null;
  private fileCount = 0;
  private unpackedSize = 0;
  private readme: Kept | null = null;
  /** Bytes of the README kept: its text in the facts. */
  private readonly readmeLimit: number;
  /** A README longer than that: the rest decoded and read for its headings and code blocks as it streams past, never held. */
  private readmeTail: { decoder: InstanceType<typeof TextDecoder>; scanner: ReadmeTailScanner; bytes: number } | null = null;
  private licenses: Kept[] = [];
  private securityFile: string | null = null;
  private contributingFile: string | null = null;
  private changelogFile: string | null = null;
  private declarationFiles = 0;
  private bindingGyp = false;
  private nativeFiles = 0;
  /** The last `<any folder>/package.json`: extraction strips the first component of every path, and a later entry overwrites an earlier one. */
  private manifest: Kept | null = null;
  /** Entries at depth one another file system reads as package.json (readsAsManifest). */
  private manifestAliases: Kept[] = [];
  /** Package folders under the archive's `node_modules/`, by folder: their package.json (kept up to the caps) and binding.gyp. */
  private bundled = new Map<string, { top: string; manifest: Kept | null; bindingGyp: boolean }>();
  private bundledManifests = 0;
  private bundledBytes = 0;
  private bundledUnread = 0;
  /** The files install scripts run (install-code.ts). */
  private readonly code: InstallCodeCollector;
  /** Obfuscator output in JavaScript files (obfuscation-scan.ts). */
  private readonly obfuscation = new ObfuscationScan();
  /** The entry modules a `require` or `import` of the package runs, and the local modules they load (docs/checks.md, `load-time-code`). */
  private readonly load: InstallCodeCollector;
  /** The commands that name those entry modules as a script would (`node .`, `node ./dist/index.js`), once the package.json is read. */
  private loadCommands: string[] = [];
  /** Where extraction puts each file, up to MAX_LISTED_PATHS: what the package.json's entry points are looked up in. */
  private readonly paths = new Set<string>();
  private pathChars = 0;
  private pathsListedAll = true;

  private readonly perFileBytes: number;
  private readonly registryCommands: readonly string[];

  constructor(
    perFileBytes: number,
    registryCommands: readonly string[],
    wantedPaths: readonly string[] = [],
    wantedBundledPaths: readonly string[] = [],
    wantedLoadPaths: readonly string[] = [],
  ) {
    this.perFileBytes = perFileBytes;
    this.registryCommands = registryCommands;
    this.readmeLimit = Math.min(README_TEXT_BYTES, perFileBytes);
    this.code = new InstallCodeCollector(registryCommands, undefined, wantedPaths, wantedBundledPaths);
    this.load = new InstallCodeCollector([], undefined, wantedLoadPaths, [], 'load');
  }

  /** After facts(): the install-code files a second reading should want from the start (install-code.ts). */
  reread(): string[] {
    return this.code.reread();
  }

  /** The same for bundled packages' install code. */
  rereadBundled(): string[] {
    return this.code.rereadBundled();
  }

  /** The same for the load-time code: entry modules (and modules they load) that streamed past unpooled before the package.json named them. */
  rereadLoad(): string[] {
    return this.load.reread();
  }

  /** Reading stopped: what the install code holds goes back to the process's budget (install-code.ts). */
  close(): void {
    this.code.close();
    this.load.close();
  }

  entry(entry: ReadEntry): void {
    const path = String(entry.path ?? '');
    const parts = safeComponents(path);
    const isFile = FILE_TYPES.has(entry.type);
    if (parts && this.root === null && (parts.length > 1 || entry.type === 'Directory')) {
      this.root = parts[0] ?? null;
    }
    if (!isFile) {
      entry.resume();
      return;
    }
    const size = Number.isSafeInteger(entry.size) && entry.size > 0 ? entry.size : 0;
    this.fileCount += 1;
    this.unpackedSize += size;
    const base = path.slice(path.lastIndexOf('/') + 1);
    if (DECLARATION_RE.test(base)) this.declarationFiles += 1;
    if (NATIVE_RE.test(base)) this.nativeFiles += 1;

    // Where npm's extraction puts the entry, computed once for every use below.
    const placed = installedComponents(path);
    // Files only: npm's extraction (pacote) skips links, so an entry point that is one is not installed.
    if (placed !== null) this.listPath(placed.join('/'));
    const scan = placed === null ? null : this.obfuscation.file(placed.join('/'));
    if (scan !== null) {
      entry.on('data', scan.data);
      entry.on('end', scan.end);
    }
    const keep: Kept | CodeHolder | null = this.installed(path, placed, size) ?? (parts ? this.classify(parts, size) : null) ?? this.codeFile(placed, size);
    // The package's own modules a require may load: kept by their own collector, beside whatever else keeps them.
    const loaded = placed === null || placed[0] === 'node_modules' ? null : this.load.file(placed.join('/'), size);
    if (loaded !== null) {
      entry.on('data', (chunk: Buffer) => {
        const room = loaded.cap - loaded.kept;
        if (room <= 0) return;
        const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
        loaded.chunks.push(Buffer.from(part));
        loaded.kept += part.length;
      });
    }
    if (!keep) {
      if (loaded === null) entry.resume();
      return;
    }
    if (keep === this.manifest) {
      // Its install commands name files that may come later in the archive: keep those too.
      const manifest = keep;
      entry.on('end', () => {
        if (this.manifest === manifest) {
          const read = readManifest(manifest);
          this.code.addCommands(installCommandsOf(read.manifest), '', read.runs);
          if (read.runs !== undefined) {
            this.loadCommands = loadCommandsOf(read.runs);
            this.load.addCommands(this.loadCommands, '', read.runs);
          }
        }
      });
    }
    const bundledFolder = placed === null ? null : this.bundledManifestFolder(keep, placed);
    if (bundledFolder !== null) {
      // A bundled package's install commands run in its folder (install-code.ts).
      const manifest = keep as Kept;
      entry.on('end', () => {
        const read = readManifest(manifest, BUNDLED_MANIFEST_BYTES);
        if (read.manifest !== null) this.code.addCommands(installCommandsOf(read.manifest), bundledFolder, read.runs);
      });
    }
    if ('cap' in keep && placed !== null) {
      const installedPath = placed.join('/');
      entry.on('end', () => this.code.ended(installedPath));
    }
    if (keep === this.readme && size > this.readmeLimit) this.scanReadmeTail(entry);
    const cap = 'cap' in keep ? keep.cap : keep === this.readme ? this.readmeLimit : this.perFileBytes;
    entry.on('data', (chunk: Buffer) => {
      const room = cap - keep.kept;
      if (room <= 0) return;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      keep.chunks.push(Buffer.from(part));
      keep.kept += part.length;
    });
  }

  /**
   * A README longer than the part kept: all of it decoded as it streams past (a character cut in
   * two by a chunk waits for its end in the decoder), the cut marked where the kept bytes end, and
   * only what the scanner holds kept (util/readme-tail.ts).
   */
  private scanReadmeTail(entry: ReadEntry): void {
    const tail = { decoder: new TextDecoder('utf-8'), scanner: new ReadmeTailScanner(), bytes: 0 };
    this.readmeTail = tail;
    entry.on('data', (chunk: Buffer) => {
      const before = this.readmeLimit - tail.bytes;
      tail.bytes += chunk.length;
      if (before > 0 && chunk.length >= before) {
        tail.scanner.write(tail.decoder.decode(chunk.subarray(0, before), { stream: true })).markCut();
        tail.scanner.write(tail.decoder.decode(chunk.subarray(before), { stream: true }));
      } else {
        tail.scanner.write(tail.decoder.decode(chunk, { stream: true }));
      }
    });
    entry.on('end', () => tail.scanner.write(tail.decoder.decode()));
  }

  /** Note where extraction puts a file (installedComponents, joined), within the caps on paths listed. */
  private listPath(path: string): void {
    if (this.paths.has(path)) return;
    if (this.paths.size >= MAX_LISTED_PATHS || this.pathChars + path.length > LISTED_PATH_CHARS) {
      this.pathsListedAll = false;
      return;
    }
    this.paths.add(path);
    this.pathChars += path.length;
  }

  /**
   * What npm installs from this entry where extraction puts it (installedComponents: the first
   * path component is stripped whatever it is called): the package.json it reads scripts and
   * bins from, the binding.gyp that makes it run node-gyp, bundled packages' files. A name only
   * Windows reads as package.json (through backslashes) is one more alias. A holder when the
   * text is kept. `parts`: installedComponents(entryPath), computed once by the caller.
   */
  private installed(entryPath: string, parts: string[] | null, size: number): Kept | null {
    if (parts !== null && parts[0] === 'node_modules') return this.bundledFile(parts, size);
    const name = parts?.length === 1 ? parts[0]! : null;
    if (name === 'binding.gyp') this.bindingGyp = true;
    if (name === 'package.json') {
      this.manifest = { path: entryPath, size, chunks: [], kept: 0 };
      // Too large to read: nothing is kept, and the facts say why.
      return size > MANIFEST_BYTES ? null : this.manifest;
    }
    const onWindows = installedComponents(entryPath, true);
    const windowsName = onWindows?.length === 1 ? onWindows[0]! : null;
    if (!(name !== null && readsAsManifest(name)) && !(windowsName !== null && (windowsName === 'package.json' || readsAsManifest(windowsName)))) return null;
    const unread = this.manifestAliases.length >= MAX_MANIFEST_ALIASES;
    const alias: Kept = { path: entryPath, size, chunks: [], kept: 0, ...(unread ? { unread } : {}) };
    this.manifestAliases.push(alias);
    return unread || size > MANIFEST_BYTES ? null : alias;
  }

  /** The folder of the bundled package whose package.json `keep` is (the entry at `placed`), else null. */
  private bundledManifestFolder(keep: Kept | CodeHolder, placed: string[]): string | null {
    if (placed[0] !== 'node_modules') return null;
    const place = bundledPlace(placed);
    return place !== null && place.file === 'package.json' && this.bundled.get(place.folder)?.manifest === keep ? place.folder : null;
  }

  /**
   * A file of the package (where extraction puts it) that install scripts may run: its own, or one
   * of a package it bundles (inside that package's folder under `node_modules/`).
   */
  private codeFile(parts: string[] | null, size: number): CodeHolder | null {
    if (parts === null) return null;
    if (parts[0] !== 'node_modules') return this.code.file(parts.join('/'), size);
    const place = bundledPlace(parts);
    return place === null ? null : this.code.file(parts.join('/'), size, place.folder);
  }

  /** Record what a safe file path is; returns a holder when its text should be kept. */
  private classify(parts: string[], size: number): Kept | null {
    if (this.root === null || parts[0] !== this.root) return null;
    const rel = parts.slice(1);
    const name = rel.at(-1) ?? '';
    const display = rel.join('/');
    if (rel.length === 1) {
      if (this.changelogFile === null && CHANGELOG_RE.test(name)) this.changelogFile = display;
      if (this.readme === null && README_RE.test(name)) {
        this.readme = { path: display, size, chunks: [], kept: 0 };
        return this.readme;
      }
      if (isLicenseFileName(name)) {
        const unread = this.licenses.length >= MAX_LICENSE_TEXTS;
        const kept: Kept = { path: display, size, chunks: [], kept: 0, ...(unread ? { unread } : {}) };
        this.licenses.push(kept);
        return unread ? null : kept;
      }
    }
    const inCommunityPlace = rel.length === 1 || (rel.length === 2 && COMMUNITY_DIRS.has(rel[0]?.toLowerCase() ?? ''));
    if (inCommunityPlace) {
      if (this.securityFile === null && SECURITY_RE.test(name)) this.securityFile = display;
      if (this.contributingFile === null && CONTRIBUTING_RE.test(name)) this.contributingFile = display;
    }
    return null;
  }

  /**
   * A file of a bundled package: its package.json is kept (at most MAX_BUNDLED_MANIFESTS, each
   * up to BUNDLED_MANIFEST_BYTES; later ones are counted as unread), its binding.gyp noted.
   */
  private bundledFile(rel: string[], size: number): Kept | null {
    const place = bundledPlace(rel);
    if (place === null || (place.file !== 'package.json' && place.file !== 'binding.gyp')) return null;
    let folder = this.bundled.get(place.folder);
    if (folder === undefined) {
      if (this.bundled.size >= MAX_BUNDLED_FOLDERS) {
        if (place.file === 'package.json') this.bundledUnread += 1;
        return null;
      }
      folder = { top: place.top, manifest: null, bindingGyp: false };
      this.bundled.set(place.folder, folder);
    }
    if (place.file === 'binding.gyp') {
      folder.bindingGyp = true;
      return null;
    }
    const kept = Math.min(size, BUNDLED_MANIFEST_BYTES);
    if (this.bundledManifests >= MAX_BUNDLED_MANIFESTS || this.bundledBytes + kept > BUNDLED_MANIFESTS_TOTAL_BYTES) {
      this.bundledUnread += 1;
      return null;
    }
    this.bundledManifests += 1;
    this.bundledBytes += kept;
    // A later entry for the same file replaces the earlier one, as extraction does.
    folder.manifest = { path: `${place.folder}/package.json`, size, chunks: [], kept: 0 };
    return size > BUNDLED_MANIFEST_BYTES ? null : folder.manifest;
  }

  facts(): TarballFacts {
    const readmeLimit = this.readmeLimit;
    let readme: TarballFacts['readme'] = null;
    if (this.readme) {
      const bytes = Buffer.concat(this.readme.chunks);
      readme = {
        path: this.readme.path,
        size: this.readme.size,
        text: decodeUtf8(bytes.subarray(0, readmeLimit)),
        truncated: this.readme.size > readmeLimit || bytes.length > readmeLimit,
      };
      // The sections and examples past the cut are still the README's: their headings and code blocks.
      if (this.readmeTail !== null) {
        const tail = this.readmeTail.scanner.end();
        readme = { ...readme, tailHeadings: tail.headings, tailCodeBlocks: tail.codeBlocks };
      }
    }
    const own = this.manifestFacts();
    const commands = [...this.registryCommands, ...installCommandsOf(own.manifest), ...own.manifestAliases.flatMap((alias) => installCommandsOf(alias.manifest))];
    // The implicit build of a binding.gyp (install-hooks.ts): node-gyp reads it, and runs its commands.
    if (this.bindingGyp && own.manifest?.gypfileDisabled !== true) commands.push('node-gyp rebuild');
    const bundled = this.bundledFacts(own.manifest);
    // What each bundled package runs, in its folder (install-hooks.ts): the files those commands run are read too. Its
    // binding.gyp is read as the package's own is (above): whenever it does not say `gypfile: false`, since an install
    // script of its own often runs node-gyp by another name (`npm run build`, a script that spawns it).
    const bundledCommands = bundled.bundled.flatMap((folder) => {
      if (folder.manifest === null) return [];
      const commands = bundledInstallCommands(folder.manifest, false).map((script) => script.command);
      if (folder.bindingGyp && folder.manifest.gypfileDisabled !== true) commands.push('node-gyp rebuild');
      return [...new Set(commands)].map((command) => ({ command, dir: folder.path }));
    });
    const installCode = this.code.facts([...new Set(commands)], bundledCommands);
    // The entry modules are known from the package.json read as it streamed past (the last one, as extraction keeps).
    const loadRead = own.manifest === null ? undefined : this.load.facts(this.loadCommands);
    const loadCode = loadRead === undefined ? undefined : { entries: this.loadCommands.map((c) => c.slice('node '.length)), ...loadRead };
    return {
      ...own,
      ...bundled,
      ...(installCode === undefined ? {} : { installCode }),
      ...(loadCode === undefined ? {} : { loadCode }),
      obfuscated: this.obfuscation.facts(),
      root: this.root ?? '',
      fileCount: this.fileCount,
      unpackedSize: this.unpackedSize,
      readme,
      licenseFiles: this.licenses.map((l) => licenseFileFacts(l.path, l.unread ? null : decodeUtf8(Buffer.concat(l.chunks)))),
      securityFile: this.securityFile,
      contributingFile: this.contributingFile,
      changelogFile: this.changelogFile,
      declarationFiles: this.declarationFiles,
      bindingGyp: this.bindingGyp,
      nativeFiles: this.nativeFiles,
    };
  }

  /**
   * The bundled packages, each with whether the archive's own package.json bundles it (false
   * when that is unreadable): a name its `bundleDependencies` lists, or one a bundled package
   * depends on (npm bundles what the listed packages need, placed at the top of the bundle too).
   */
  private bundledFacts(own: TarballManifest | null): Pick<TarballFacts, 'bundled' | 'bundledUnread'> {
    // No package.json read (none there, or past the caps, counted in bundledUnread): no problem to name.
    const read = [...this.bundled].map(([path, folder]) => ({
      path,
      folder,
      ...(folder.manifest === null ? { manifest: null, problem: null } : readManifest(folder.manifest, BUNDLED_MANIFEST_BYTES)),
    }));
    // The names the bundle holds: the listed ones and, transitively, what bundled packages depend on (by name).
    const declared = new Set(own?.bundleDependencies ?? []);
    for (let grew = declared.size > 0; grew; ) {
      grew = false;
      for (const { folder, manifest } of read) {
        if (manifest === null || !declared.has(folder.top)) continue;
        for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
          if (!declared.has(name)) {
            declared.add(name);
            grew = true;
          }
        }
      }
    }
    const bundled = read.map(({ path, folder, manifest, problem }) => ({
      path,
      manifest:
        manifest === null
          ? null
          : { name: manifest.name, version: manifest.version, installScripts: manifest.installScripts, ...(manifest.gypfileDisabled === true ? { gypfileDisabled: true } : {}) },
      problem,
      bindingGyp: folder.bindingGyp,
      declared: declared.has(folder.top),
    }));
    return { bundled, bundledUnread: this.bundledUnread };
  }

  /** The archive's own package.json, or why it could not be read; and the names another file system reads as it. */
  private manifestFacts(): Pick<TarballFacts, 'manifest' | 'manifestProblem' | 'manifestOverCap' | 'manifestAliases' | 'entryPoints' | 'commands' | 'commandsListedAll'> {
    const manifestAliases = this.manifestAliases.map((alias) => {
      const read = alias.unread === true ? { manifest: null, problem: `more than ${MAX_MANIFEST_ALIASES} such files` } : readManifest(alias);
      return { path: alias.path, manifest: read.manifest, problem: read.problem };
    });
    if (this.manifest === null) return { manifest: null, manifestProblem: 'the archive has no package.json', manifestOverCap: false, manifestAliases };
    const { manifest, problem, parsed } = readManifest(this.manifest);
    const files = fileLookup(this.paths);
    const importable = parsed === undefined ? undefined : offersImport(parsed, files, this.pathsListedAll);
    const entryPoints =
      parsed === undefined ? undefined : { ...missingEntryPoints(parsed, files), listedAll: this.pathsListedAll, ...(importable === undefined ? {} : { importable }) };
    // The commands npm links: `bin`, or without it every listed file under `directories.bin` (commands.ts).
    const commands = parsed === undefined ? {} : { commands: linkedCommands(parsed, this.paths), commandsListedAll: this.pathsListedAll };
    return { manifest, manifestProblem: problem, manifestOverCap: overCap(this.manifest, MANIFEST_BYTES), manifestAliases, ...(entryPoints === undefined ? {} : { entryPoints }), ...commands };
  }
}

/** Over the cap, or cut short by a smaller per-file cap: not read, never half-read. */
function overCap(kept: Kept, cap: number): boolean {
  return kept.size > cap || kept.kept < kept.size;
}

/** A kept package.json (or a name read as it) parsed, or why it could not be. */
/** A package.json's `main` (what `node .` runs: install-targets.ts) and scripts (what `npm run x` runs) kept, when plain strings this long at most. */
const MAX_FOLDER_FIELD_CHARS = 4000;

function readManifest(kept: Kept, cap = MANIFEST_BYTES): { manifest: TarballManifest | null; problem: string | null; runs?: FolderManifest; parsed?: Record<string, unknown> } {
  if (overCap(kept, cap)) {
    return { manifest: null, problem: `package.json is larger than ${formatBytes(cap)}` };
  }
  let parsed: unknown;
  const bytes = Buffer.concat(kept.chunks);
  try {
    parsed = JSON.parse(new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, ''));
  } catch {
    return { manifest: null, problem: 'package.json is not valid JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { manifest: null, problem: 'package.json is not a JSON object' };
  }
  // A key named twice: JSON.parse kept the last; a parser that keeps the first reads another manifest.
  const repeated = repeatedKeys(bytes) ?? [];
  const manifest = { ...tarballManifest(parsed as Record<string, unknown>), ...(repeated.length === 0 ? {} : { repeatedKeys: repeated }) };
  return { manifest, problem: null, runs: folderManifest(parsed as Record<string, unknown>), parsed: parsed as Record<string, unknown> };
}

/** The fields of a package.json its install commands may run (install-targets.ts, FolderManifest). */
function folderManifest(parsed: Record<string, unknown>): FolderManifest {
  const plain = (value: unknown): value is string => typeof value === 'string' && value !== '' && value.length <= MAX_FOLDER_FIELD_CHARS;
  const scripts: Record<string, string> = {};
  if (typeof parsed.scripts === 'object' && parsed.scripts !== null && !Array.isArray(parsed.scripts)) {
    for (const [name, command] of Object.entries(parsed.scripts)) if (plain(command)) scripts[name] = command;
  }
  return { ...(plain(parsed.main) ? { main: parsed.main } : {}), scripts, entries: exportEntries(parsed.exports) };
}

/** Entry points of `exports` read at most, and how deep its conditions are followed. */
const MAX_EXPORT_ENTRIES = 8;
const MAX_EXPORT_DEPTH = 6;
/** The conditions node (or a bundler for node) resolves a `require` or `import` of the package by. */
const LOAD_CONDITIONS = new Set(['require', 'import', 'node', 'default']);
/** A target of `exports`: a path in the package, plain enough to name as a script would. */
const EXPORT_TARGET = /^\.\/[\w@./+-]{1,4000}$/;

/** The files `exports` gives for the package itself (its "." entry, or the conditions of a sugar form), by their require/import/node/default conditions. */
function exportEntries(exports: unknown): string[] {
  const out: string[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (depth > MAX_EXPORT_DEPTH || out.length >= MAX_EXPORT_ENTRIES) return;
    if (typeof value === 'string') {
      if (EXPORT_TARGET.test(value) && !value.includes('*') && !out.includes(value)) out.push(value);
    } else if (Array.isArray(value)) {
      for (const item of value.slice(0, MAX_EXPORT_ENTRIES)) walk(item, depth + 1);
    } else if (typeof value === 'object' && value !== null) {
      for (const [condition, item] of Object.entries(value).slice(0, 32)) if (LOAD_CONDITIONS.has(condition)) walk(item, depth + 1);
    }
  };
  if (typeof exports === 'object' && exports !== null && !Array.isArray(exports)) {
    const keys = Object.keys(exports);
    if (keys.some((key) => key.startsWith('.'))) {
      if (Object.hasOwn(exports, '.')) walk((exports as Record<string, unknown>)['.'], 0);
      return out;
    }
  }
  walk(exports, 0);
  return out;
}

/**
 * What a `require` or `import` of the package runs first, named as a command would name it
 * (install-targets.ts): its `main` (else index.js, `node .`), and the entries its `exports` gives.
 */
function loadCommandsOf(runs: FolderManifest): string[] {
  return ['node .', ...(runs.entries ?? []).map((entry) => `node ${entry}`)];
}

/**
 * UTF-8 text, dropping a character cut in half at the end by a cap. The replacement characters
 * are matched from the start of their last run only: `/\uFFFD+$/` alone rescans a long run (a
 * binary licence file) from each of its positions, hours for a megabyte.
 */
function decodeUtf8(bytes: Buffer): string {
  return new TextDecoder('utf-8').decode(bytes).replace(/(?<!\uFFFD)\uFFFD+$/, '');
}

function formatBytes(n: number): string {
  if (n >= MiB && n % MiB === 0) return `${n / MiB} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
