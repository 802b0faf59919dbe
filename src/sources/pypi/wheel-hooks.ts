/**
 * The `.pth` startup hooks of the wheel pip would most likely install, read without downloading
 * the wheel: Python's `site` module executes every line of a `.pth` file in site-packages that
 * starts with `import`, at every interpreter start (docs/checks.md, `startup-hooks`). And the
 * modules an `import` of the package runs first — each top-level package's `__init__.py` and each
 * top-level single-module `.py` — classified as they are read (`import-time-code`,
 * checks/lib/import-code.ts); only the classifier's flags and short excerpts are kept.
 *
 * Requests: one HTTP Range request for the archive's last 32 KiB (the end-of-central-directory
 * record, and usually the whole central directory; a longer tail when an archive comment pushes
 * the record further), one more for the central directory when it is larger (and one for a ZIP64
 * record outside the tail), then one range per group of the entries to read (`.pth` files and
 * import-time modules) that lie close together and are not already fetched.
 * A server that ignores Range and answers 200 is read whole up to WHOLE_FILE_CAP. Every failure,
 * cap or malformed archive is `unavailable` with a reason, never a throw; a `.pth` entry over its
 * cap is listed unread (the check reads that as hidden code, not as none).
 */
import { inflateRawSync } from 'node:zlib';
import { packageImports, readImportCode } from '../../checks/lib/import-code.js';
import type { PypiFile, PypiImportCode, PypiImportFile, PypiStartupHook, PypiWheelContents } from '../../evidence/schema.js';
import { pep503 } from '../../ecosystems/pypi/name.js';
import { DEFAULT_ENDPOINTS } from '../endpoints.js';
import type { HttpClient } from '../http/types.js';
import { oneLine } from '../http/one-line.js';
import {
  centralDirectoryEntries,
  LOCAL_HEADER_SIZE,
  localDataStart,
  locateCentralDirectory,
  MAX_EOCD_DISTANCE,
  zip64Location,
  type ZipEntry,
} from './zip-directory.js';

const KiB = 1024;
const MiB = 1024 * KiB;

export const WHEEL_CAPS = {
  /**
   * The first request: the archive's last bytes, which hold the end-of-central-directory record
   * and, for most wheels, the whole central directory. An archive comment can put the record up
   * to 64 KiB + 22 from the end: then one more, longer tail is asked.
   */
  tailBytes: 32 * KiB,
  /** The central directory read at most (a wheel with tens of thousands of files stays under it). */
  directoryBytes: 8 * MiB,
  /** A server that ignores Range: the whole wheel is read only up to this size. */
  wholeFileBytes: 16 * MiB,
  entries: 200_000,
  /** `.pth` files read; more are counted in `hooksUnread`. */
  hooks: 8,
  /** A `.pth` entry over this size (compressed or not) is not read: no honest hook is that long. */
  hookBytes: 64 * KiB,
  /** Characters of a hook's text kept in evidence. */
  hookTextChars: 4_000,
  /** Import-time modules read (the package named like the distribution first); more are counted in `skipped`. */
  importFiles: 6,
  /**
   * Modules of the package its `__init__.py` imports (`from .app import …`), read after the
   * top-level ones within the same budget; one that is too large or past the budget is counted
   * in `skipped`, not named unread (it is a second look, not the module an import runs first).
   */
  importFollowed: 6,
  /** An import-time module over this size (compressed or not, or once inflated) is named unread. */
  importFileBytes: 256 * KiB,
  /** Compressed bytes of import-time modules read per wheel; a module past it is named unread. */
  importBudgetBytes: 1 * MiB,
  /** Entries to read that lie at most this far apart are fetched in one range… */
  coalesceGapBytes: 16 * KiB,
  /** …and the followed modules, which usually sit together in their package's folder, this far. */
  followGapBytes: 64 * KiB,
} as const;

export type WheelCaps = { [K in keyof typeof WHEEL_CAPS]: number };

/** A `.pth` file that lands at a site-packages root: at the wheel's root, or `<name>.data/purelib|platlib/`. */
const ROOT_PTH = /^(?:[^/]+\.data\/(?:purelib|platlib)\/)?[^/]+\.pth$/;

/**
 * True for a wheel entry `site` will process as a `.pth` file once installed. The name is
 * normalised first (`./x.pth`, `pkg/../x.pth`, backslashes): an installer that joins it to
 * site-packages puts such a file at the root too.
 */
export function isStartupHookPath(name: string): boolean {
  return ROOT_PTH.test(normalisedPath(name));
}

/** A wheel entry's name with `.`, `..`, empty parts and backslashes resolved, as an installer joins it. */
function normalisedPath(name: string): string {
  const parts: string[] = [];
  for (const part of name.split(/[\\/]+/)) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}

/**
 * The wheel pip would most likely install on a common platform: a pure `py3-none-any` (or
 * `py2.py3-none-any`) wheel, else a CPython manylinux x86_64 one, else the first. Yanked files
 * count only when the release itself is yanked (then every file is).
 */
export function pickWheel(files: readonly PypiFile[], releaseYanked: boolean): PypiFile | undefined {
  const wheels = files.filter((f) => f.packagetype === 'bdist_wheel' && (!f.yanked || releaseYanked));
  return (
    wheels.find((f) => /-(?:py3|py2\.py3)-none-any\.whl$/i.test(f.filename)) ??
    wheels.find((f) => /-none-any\.whl$/i.test(f.filename)) ??
    wheels.find((f) => /-cp3\d*-[^-]+-[^-]*manylinux[^-]*x86_64[^-]*\.whl$/i.test(f.filename)) ??
    wheels[0]
  );
}

/**
 * The URL to read a PyPI file from: one on PyPI's file host is read from the configured file host
 * (`NERQ_PYPI_FILES_URL`, src/sources/endpoints.ts); one already on the configured file host or the
 * configured index is read as given; any other host is not read (the index's answer does not
 * choose where nerq connects).
 */
export function fileUrlFor(url: string, endpoints: { pypi: string; pypiFiles?: string }): string | undefined {
  if (endpoints.pypiFiles === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  if (parsed.origin === new URL(DEFAULT_ENDPOINTS.pypiFiles).origin) return `${endpoints.pypiFiles}${parsed.pathname}`;
  const allowed = [endpoints.pypiFiles, endpoints.pypi].map((base) => new URL(base).origin);
  return allowed.includes(parsed.origin) ? `${parsed.origin}${parsed.pathname}` : undefined;
}

/** Bytes a local header's extra fields usually take (timestamps, ZIP64 sizes). */
const LOCAL_EXTRA_GUESS = 256;

type Read = { ok: true; bytes: Buffer } | { ok: false; reason: string };

/** Reads byte ranges of one file: by Range requests, or from the whole body when the server ignored Range. */
class RangeReader {
  bytesRead = 0;
  total: number | null = null;
  /** Bytes already fetched that later reads are served from: the whole file, or its tail and prefetched ranges. */
  private held: { start: number; bytes: Buffer }[] = [];

  private readonly http: HttpClient;
  private readonly url: string;
  private readonly caps: WheelCaps;
  private readonly signal: AbortSignal | undefined;

  constructor(
    http: HttpClient,
    url: string,
    caps: WheelCaps,
    signal: AbortSignal | undefined,
  ) {
    this.http = http;
    this.url = url;
    this.caps = caps;
    this.signal = signal;
  }

  /** The last `length` bytes (fewer when the file is shorter); sets `total`. */
  async tail(length: number): Promise<Read> {
    return this.fetch(`bytes=-${length}`, null, length);
  }

  /** Bytes [start, end) of the file. */
  async range(start: number, end: number): Promise<Read> {
    if (this.total !== null && end > this.total) return { ok: false, reason: 'an entry lies past the end of the archive' };
    const held = this.held.find((h) => start >= h.start && end <= h.start + h.bytes.length);
    if (held !== undefined) return { ok: true, bytes: held.bytes.subarray(start - held.start, end - held.start) };
    return this.fetch(`bytes=${start}-${end - 1}`, { start, end }, end - start);
  }

  /** True when bytes [start, end) are already held. */
  holds(start: number, end: number): boolean {
    return this.held.some((h) => start >= h.start && end <= h.start + h.bytes.length);
  }

  /** Fetch bytes [start, end) once so that later `range` calls inside them are served from memory. */
  async prefetch(start: number, end: number): Promise<Read> {
    const read = await this.range(start, end);
    if (read.ok && !this.holds(start, end)) this.held.push({ start, bytes: read.bytes });
    return read;
  }

  private async fetch(range: string, want: { start: number; end: number } | null, length: number): Promise<Read> {
    const res = await this.http.request({
      url: this.url,
      headers: { range, 'accept-encoding': 'identity' },
      maxBytes: want === null ? this.caps.wholeFileBytes : Math.max(want.end - want.start, 1) + 1024,
      ...(this.signal === undefined ? {} : { signal: this.signal }),
    });
    if (!res.ok) {
      if (res.kind === 'too-large') return { ok: false, reason: `the file server ignored the range request and the wheel is over ${Math.round(this.caps.wholeFileBytes / MiB)} MiB` };
      return { ok: false, reason: `the wheel could not be read: ${oneLine(res.reason)}` };
    }
    this.bytesRead += res.body.length;
    if (res.status === 200) {
      // The server ignored Range: this is the whole file (already capped by maxBytes).
      this.held = [{ start: 0, bytes: res.body }];
      this.total = res.body.length;
      if (want === null) return { ok: true, bytes: res.body.subarray(Math.max(0, res.body.length - length)) };
      return this.range(want.start, want.end);
    }
    if (res.status !== 206) return { ok: false, reason: `the file server answered HTTP ${res.status} to a range request` };
    const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec((res.headers['content-range'] ?? '').trim());
    if (match === null) return { ok: false, reason: 'the file server answered a range request without a valid Content-Range' };
    const [start, end, total] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (end - start + 1 !== res.body.length || end >= total) return { ok: false, reason: 'the file server\'s Content-Range does not match its body' };
    if (want !== null && (start !== want.start || end !== want.end - 1)) return { ok: false, reason: 'the file server answered another range than the one asked' };
    if (want === null && end !== total - 1) return { ok: false, reason: 'the file server answered another range than the file\'s tail' };
    this.total = total;
    if (want === null) this.held.push({ start, bytes: res.body });
    return { ok: true, bytes: res.body };
  }
}

/**
 * The startup hooks of the release's likeliest wheel. Never rejects: a failure is `unavailable`.
 */
export async function readWheelContents(
  http: HttpClient,
  endpoints: { pypi: string; pypiFiles?: string },
  files: readonly PypiFile[],
  releaseYanked: boolean,
  options: { caps?: WheelCaps; signal?: AbortSignal } = {},
): Promise<PypiWheelContents> {
  const wheel = pickWheel(files, releaseYanked);
  const empty = { size: null, bytesRead: 0, entries: 0, hooks: [], hooksUnread: 0 };
  if (wheel === undefined) return { wheel: null, unavailable: null, ...empty };
  const url = wheel.url == null ? undefined : fileUrlFor(wheel.url, endpoints);
  if (url === undefined) {
    const reason = wheel.url == null ? 'PyPI gave no URL for the wheel' : 'the wheel is served from a host that is neither PyPI\'s file host nor the index';
    return { wheel: wheel.filename, unavailable: reason, ...empty, size: wheel.size };
  }
  const reader = new RangeReader(http, url, options.caps ?? WHEEL_CAPS, options.signal);
  try {
    const read = await readHooks(reader, options.caps ?? WHEEL_CAPS, wheel.filename);
    const base = { wheel: wheel.filename, size: reader.total ?? wheel.size, bytesRead: reader.bytesRead };
    if (!read.ok) return { ...base, unavailable: read.reason, entries: 0, hooks: [], hooksUnread: 0 };
    return { ...base, unavailable: null, ...read.value };
  } catch (error) {
    return { wheel: wheel.filename, unavailable: `the wheel could not be read: ${oneLine(error)}`, ...empty, size: wheel.size, bytesRead: reader.bytesRead };
  }
}

type Hooks = { entries: number; hooks: PypiStartupHook[]; hooksUnread: number; importCode: PypiImportCode };

async function readHooks(reader: RangeReader, caps: WheelCaps, filename: string): Promise<{ ok: true; value: Hooks } | { ok: false; reason: string }> {
  let tail = await reader.tail(caps.tailBytes);
  if (!tail.ok) return tail;
  let total = reader.total ?? tail.bytes.length;
  let location = locateCentralDirectory(tail.bytes, total);
  if (!location.ok && tail.bytes.length < total && tail.bytes.length < MAX_EOCD_DISTANCE) {
    tail = await reader.tail(MAX_EOCD_DISTANCE);
    if (!tail.ok) return tail;
    total = reader.total ?? tail.bytes.length;
    location = locateCentralDirectory(tail.bytes, total);
  }
  if (!location.ok) return location;
  if (location.value.zip64At !== undefined) {
    const record = await reader.range(location.value.zip64At, location.value.zip64At + 56);
    if (!record.ok) return record;
    location = zip64Location(record.bytes, location.value.zip64At);
    if (!location.ok) return location;
  }
  const { offset, size } = location.value;
  if (size > caps.directoryBytes) return { ok: false, reason: `the wheel's central directory is over ${Math.round(caps.directoryBytes / MiB)} MiB` };
  const tailStart = total - tail.bytes.length;
  let directory: Buffer;
  if (offset >= tailStart) directory = tail.bytes.subarray(offset - tailStart, offset - tailStart + size);
  else {
    const read = await reader.range(offset, offset + size);
    if (!read.ok) return read;
    directory = read.bytes;
  }
  const entries = centralDirectoryEntries(directory, caps.entries);
  if (!entries.ok) return entries;
  // A damaged record part-way would hide the entries after it (and makes pip's own read fail).
  if (entries.value.length !== location.value.entries) return { ok: false, reason: `the central directory lists ${location.value.entries} entries but holds ${entries.value.length}` };
  const pth = entries.value.filter((e) => isStartupHookPath(e.name));
  const modules = importTimeModules(entries.value, filename);
  const chosen = modules.slice(0, caps.importFiles);
  const plan = planImportReads(chosen, caps);
  await prefetchNear(reader, [...pth.slice(0, caps.hooks).filter((e) => readable(e, caps.hookBytes)), ...plan.filter((p) => p.unread === null).map((p) => p.entry)], caps.coalesceGapBytes);
  const hooks: PypiStartupHook[] = [];
  for (const entry of pth.slice(0, caps.hooks)) {
    const hook = await readHook(reader, entry, caps);
    if ('reason' in hook) return { ok: false, reason: hook.reason };
    hooks.push(hook);
  }
  const files: PypiImportFile[] = [];
  const texts: { entry: ZipEntry; text: string }[] = [];
  for (const { entry, unread } of plan) {
    if (unread !== null) {
      files.push(importUnread(entry, unread));
      continue;
    }
    const read = await readImportFile(reader, entry, caps);
    files.push(read.file);
    if (read.text !== null) texts.push({ entry, text: read.text });
  }
  // A second look: the package's own modules its __init__.py imports, within what is left of the budget.
  const imported = followedModules(entries.value, texts, chosen);
  let budget = caps.importBudgetBytes - plan.reduce((sum, p) => sum + (p.unread === null ? p.entry.compressedSize : 0), 0);
  const followed = imported.slice(0, caps.importFollowed).filter((entry) => {
    if (!readable(entry, caps.importFileBytes) || entry.compressedSize > budget) return false;
    budget -= entry.compressedSize;
    return true;
  });
  await prefetchNear(reader, followed, caps.followGapBytes);
  for (const entry of followed) files.push((await readImportFile(reader, entry, caps)).file);
  return {
    ok: true,
    value: {
      entries: entries.value.length,
      hooks,
      hooksUnread: Math.max(0, pth.length - caps.hooks),
      importCode: { files, skipped: modules.length - chosen.length + imported.length - followed.length },
    },
  };
}

/**
 * The entries of the modules the read `__init__.py` files import from their own package
 * (checks/lib/import-code.ts, `packageImports`), in the order written: `pkg/a.py` or
 * `pkg/a/__init__.py`, once each, none already chosen.
 */
function followedModules(entries: readonly ZipEntry[], texts: readonly { entry: ZipEntry; text: string }[], chosen: readonly ZipEntry[]): ZipEntry[] {
  const byPath = new Map(entries.map((e) => [installedPath(e.name), e] as const));
  const out: ZipEntry[] = [];
  for (const { entry, text } of texts) {
    const match = /^([A-Za-z_]\w*)\/__init__\.py$/.exec(installedPath(entry.name));
    if (match === null) continue;
    const pkg = match[1] as string;
    for (const name of packageImports(text, pkg)) {
      const base = `${pkg}/${name.replace(/\./g, '/')}`;
      const found = byPath.get(`${base}.py`) ?? byPath.get(`${base}/__init__.py`);
      if (found !== undefined && !chosen.includes(found) && !out.includes(found)) out.push(found);
    }
  }
  return out;
}

/** A wheel path as an installer places it under site-packages: normalised, `<name>.data/purelib|platlib/` dropped. */
function installedPath(name: string): string {
  return normalisedPath(name).replace(/^[^/]+\.data\/(?:purelib|platlib)\//, '');
}

/** Top-level names an import of the package is unlikely to mean: read last. */
const SIDE_NAMES = /^(?:tests?|testing|docs?|examples?|benchmarks?|setup|conftest)$/i;

/**
 * The modules an import runs first: each top-level package's `__init__.py` and each top-level
 * `.py` module. The one named like the distribution (PEP 503-normalised, `-` `.` as `_`) comes
 * first, then the others in archive order, tests, docs and examples last. The archive's own
 * entries decide what is installed; `top_level.txt` is metadata the wheel writes about itself
 * (and flit or hatch wheels have none), so it is not read.
 */
export function importTimeModules(entries: readonly ZipEntry[], filename: string): ZipEntry[] {
  const distribution = pep503(filename.split('-')[0] ?? '').replaceAll('-', '_');
  const ranked: { entry: ZipEntry; rank: number }[] = [];
  for (const entry of entries) {
    const match = /^([A-Za-z_]\w*)(?:\/__init__\.py|\.py)$/.exec(installedPath(entry.name));
    if (match === null) continue;
    const name = (match[1] as string).toLowerCase();
    ranked.push({ entry, rank: name === distribution ? 0 : SIDE_NAMES.test(name) ? 2 : 1 });
  }
  return ranked.sort((a, b) => a.rank - b.rank).map((r) => r.entry);
}

/** Whether an entry can be read within `cap` bytes: stored or deflated, not encrypted, sizes under the cap. */
function readable(entry: ZipEntry, cap: number): boolean {
  return entry.size <= cap && entry.compressedSize <= cap && !entry.encrypted && (entry.method === 0 || entry.method === 8);
}

/** Which chosen modules are read, and why the others are not (a cap, the budget, how they are stored). */
function planImportReads(chosen: readonly ZipEntry[], caps: WheelCaps): { entry: ZipEntry; unread: string | null }[] {
  let budget = caps.importBudgetBytes;
  return chosen.map((entry) => {
    if (entry.size > caps.importFileBytes || entry.compressedSize > caps.importFileBytes) return { entry, unread: `over ${Math.round(caps.importFileBytes / KiB)} KiB` };
    if (entry.encrypted) return { entry, unread: 'encrypted' };
    if (entry.method !== 0 && entry.method !== 8) return { entry, unread: `compression method ${entry.method}` };
    if (entry.compressedSize > budget) return { entry, unread: `over the wheel's ${Math.round(caps.importBudgetBytes / KiB)} KiB budget` };
    budget -= entry.compressedSize;
    return { entry, unread: null };
  });
}

/** The bytes an entry's local header and data most likely take. */
function entrySpan(entry: ZipEntry): { start: number; end: number } {
  const start = entry.localHeaderOffset;
  return { start, end: start + LOCAL_HEADER_SIZE + Buffer.byteLength(entry.name) + LOCAL_EXTRA_GUESS + entry.compressedSize };
}

/**
 * Fetch the entries about to be read in as few ranges as possible: spans not already held,
 * sorted, and joined when the gap between them is at most `gapBytes`. A failed prefetch
 * is not an error here: each entry's own read asks again and reports it.
 */
async function prefetchNear(reader: RangeReader, entries: readonly ZipEntry[], gapBytes: number): Promise<void> {
  const total = reader.total ?? Infinity;
  const spans = entries
    .map(entrySpan)
    .map((s) => ({ start: s.start, end: Math.min(s.end, total) }))
    .filter((s) => s.start < s.end && !reader.holds(s.start, s.end))
    .sort((a, b) => a.start - b.start);
  const groups: { start: number; end: number }[] = [];
  for (const span of spans) {
    const last = groups[groups.length - 1];
    if (last !== undefined && span.start - last.end <= gapBytes) last.end = Math.max(last.end, span.end);
    else groups.push({ ...span });
  }
  for (const group of groups) await reader.prefetch(group.start, group.end);
}

function importUnread(entry: ZipEntry, why: string): PypiImportFile {
  return { path: entry.name, size: entry.size, unread: why, flags: [], excerpts: [] };
}

/** One import-time module, read and classified (its text kept only for the caller); any failure names it unread (the rest of the wheel stands). */
async function readImportFile(reader: RangeReader, entry: ZipEntry, caps: WheelCaps): Promise<{ file: PypiImportFile; text: string | null }> {
  const unread = (why: string) => ({ file: importUnread(entry, why), text: null });
  const data = await entryData(reader, entry);
  if (!data.ok) return unread(data.reason);
  let bytes: Buffer;
  try {
    bytes = entry.method === 0 ? data.bytes : inflateRawSync(data.bytes, { maxOutputLength: caps.importFileBytes });
  } catch {
    return unread(`does not inflate within ${Math.round(caps.importFileBytes / KiB)} KiB`);
  }
  if (bytes.length !== entry.size) return unread(`holds ${bytes.length} bytes where the archive states ${entry.size}`);
  const text = bytes.toString('utf8');
  const reading = readImportCode(text);
  return { file: { path: entry.name, size: entry.size, unread: null, flags: reading.flags, excerpts: reading.excerpts }, text };
}

/** An entry's compressed data: its local header read (with the usual extra fields), and the rest when they are longer. */
async function entryData(reader: RangeReader, entry: ZipEntry): Promise<Read> {
  const from = entry.localHeaderOffset;
  const span = entrySpan(entry);
  const read = await reader.range(from, Math.min(span.end, reader.total ?? Infinity));
  if (!read.ok) return read;
  const start = localDataStart(read.bytes);
  if (!start.ok) return start;
  const data = read.bytes.subarray(start.value, start.value + entry.compressedSize);
  if (data.length >= entry.compressedSize) return { ok: true, bytes: data };
  return reader.range(from + start.value, from + start.value + entry.compressedSize);
}

async function readHook(reader: RangeReader, entry: ZipEntry, caps: WheelCaps): Promise<PypiStartupHook | { reason: string }> {
  const unread = (why: string): PypiStartupHook => ({ path: entry.name, size: entry.size, text: null, truncated: false, unread: why });
  if (entry.size > caps.hookBytes || entry.compressedSize > caps.hookBytes) return unread(`over ${Math.round(caps.hookBytes / KiB)} KiB`);
  if (entry.method !== 0 && entry.method !== 8) return unread(`compression method ${entry.method}`);
  // The local header's own name and extra fields may differ from the central directory's: read
  // what they usually take, and the rest only when they are longer.
  const data = await entryData(reader, entry);
  if (!data.ok) return { reason: data.reason };
  let bytes: Buffer;
  try {
    bytes = entry.method === 0 ? data.bytes : inflateRawSync(data.bytes, { maxOutputLength: caps.hookBytes });
  } catch {
    return unread(`does not inflate within ${Math.round(caps.hookBytes / KiB)} KiB`);
  }
  const text = bytes.toString('utf8');
  return { path: entry.name, size: entry.size, text: text.slice(0, caps.hookTextChars), truncated: text.length > caps.hookTextChars, unread: null };
}
