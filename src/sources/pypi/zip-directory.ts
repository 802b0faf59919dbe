/**
 * The parts of a ZIP archive (a wheel is one) that say what it holds, read from buffers the
 * caller fetched: the end-of-central-directory record (and its ZIP64 form), the central
 * directory's entries, and one entry's local header. Pure: no I/O; every offset is checked
 * against the buffer, so a truncated or hostile archive is an error value, never a throw.
 */

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const ZIP64_LOCATOR_SIZE = 20;
const ZIP64_EOCD_SIZE = 56;
const CENTRAL_HEADER_SIZE = 46;
export const LOCAL_HEADER_SIZE = 30;
/** The longest archive comment: the EOCD record lies within this many bytes of the end. */
export const MAX_EOCD_DISTANCE = EOCD_SIZE + 0xffff;

export type ZipResult<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Where the central directory is: absolute offset and size in the archive, and its entry count. */
export interface CentralDirectoryLocation {
  offset: number;
  size: number;
  entries: number;
  /** The ZIP64 record is elsewhere: read `zip64At` (56 bytes) and call `zip64Location`. */
  zip64At?: number;
}

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflate; anything else is not read. */
  method: number;
  /** General-purpose flag bit 0: the entry's data is encrypted (not read). */
  encrypted: boolean;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

/**
 * Find the end-of-central-directory record in `tail`, the last `tail.length` bytes of an archive
 * of `total` bytes. A ZIP64 archive gives `zip64At`, the ZIP64 record's absolute offset.
 */
export function locateCentralDirectory(tail: Buffer, total: number): ZipResult<CentralDirectoryLocation> {
  const base = total - tail.length;
  for (let at = tail.length - EOCD_SIZE; at >= 0 && tail.length - at <= MAX_EOCD_DISTANCE; at -= 1) {
    if (tail.readUInt32LE(at) !== EOCD_SIGNATURE) continue;
    const entries = tail.readUInt16LE(at + 10);
    const size = tail.readUInt32LE(at + 12);
    const offset = tail.readUInt32LE(at + 16);
    const commentLength = tail.readUInt16LE(at + 20);
    if (at + EOCD_SIZE + commentLength > tail.length) continue;
    const locatorAt = at - ZIP64_LOCATOR_SIZE;
    if (locatorAt >= 0 && tail.readUInt32LE(locatorAt) === ZIP64_LOCATOR_SIGNATURE) {
      const zip64At = Number(tail.readBigUInt64LE(locatorAt + 8));
      if (!Number.isSafeInteger(zip64At) || zip64At + ZIP64_EOCD_SIZE > base + locatorAt) return { ok: false, reason: 'a ZIP64 locator points outside the archive' };
      return { ok: true, value: { offset, size, entries, zip64At } };
    }
    if (offset + size > base + at) return { ok: false, reason: 'the central directory lies outside the archive' };
    return { ok: true, value: { offset, size, entries } };
  }
  return { ok: false, reason: 'no end-of-central-directory record (not a zip archive, or truncated)' };
}

/** The central directory's location from the 56-byte ZIP64 end-of-central-directory record. */
export function zip64Location(record: Buffer, zip64At: number): ZipResult<CentralDirectoryLocation> {
  if (record.length < ZIP64_EOCD_SIZE || record.readUInt32LE(0) !== ZIP64_EOCD_SIGNATURE) return { ok: false, reason: 'no ZIP64 end-of-central-directory record where the locator points' };
  const entries = Number(record.readBigUInt64LE(32));
  const size = Number(record.readBigUInt64LE(40));
  const offset = Number(record.readBigUInt64LE(48));
  if (![entries, size, offset].every(Number.isSafeInteger) || offset + size > zip64At) return { ok: false, reason: 'the ZIP64 central directory lies outside the archive' };
  return { ok: true, value: { offset, size, entries } };
}

/** The entries of a central directory (`directory` holds exactly its bytes), at most `maxEntries`. */
export function centralDirectoryEntries(directory: Buffer, maxEntries: number): ZipResult<ZipEntry[]> {
  const entries: ZipEntry[] = [];
  let at = 0;
  while (at + CENTRAL_HEADER_SIZE <= directory.length) {
    if (directory.readUInt32LE(at) !== CENTRAL_SIGNATURE) break;
    if (entries.length >= maxEntries) return { ok: false, reason: `more than ${maxEntries} entries in the archive` };
    const encrypted = (directory.readUInt16LE(at + 8) & 1) === 1;
    const method = directory.readUInt16LE(at + 10);
    let compressedSize = directory.readUInt32LE(at + 20);
    let size = directory.readUInt32LE(at + 24);
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    let localHeaderOffset = directory.readUInt32LE(at + 42);
    const nameAt = at + CENTRAL_HEADER_SIZE;
    const next = nameAt + nameLength + extraLength + commentLength;
    if (next > directory.length) return { ok: false, reason: 'the central directory is truncated' };
    const name = directory.subarray(nameAt, nameAt + nameLength).toString('utf8');
    // ZIP64 extended information (extra field 0x0001): the 64-bit values of the fields set to 0xffffffff.
    const extra = directory.subarray(nameAt + nameLength, nameAt + nameLength + extraLength);
    for (let e = 0; e + 4 <= extra.length; ) {
      const id = extra.readUInt16LE(e);
      const length = extra.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let field = e + 4;
        const take = (): number => {
          if (field + 8 > e + 4 + length || field + 8 > extra.length) return -1;
          const value = Number(extra.readBigUInt64LE(field));
          field += 8;
          return value;
        };
        if (size === 0xffffffff) size = take();
        if (compressedSize === 0xffffffff) compressedSize = take();
        if (localHeaderOffset === 0xffffffff) localHeaderOffset = take();
      }
      e += 4 + length;
    }
    if (![size, compressedSize, localHeaderOffset].every((n) => Number.isSafeInteger(n) && n >= 0)) return { ok: false, reason: 'an entry has a malformed ZIP64 size or offset' };
    entries.push({ name, method, encrypted, compressedSize, size, localHeaderOffset });
    at = next;
  }
  return { ok: true, value: entries };
}

/** Where an entry's data starts, relative to `local` (which starts at its local header). */
export function localDataStart(local: Buffer): ZipResult<number> {
  if (local.length < LOCAL_HEADER_SIZE || local.readUInt32LE(0) !== LOCAL_SIGNATURE) return { ok: false, reason: 'no local file header at the entry\'s offset' };
  return { ok: true, value: LOCAL_HEADER_SIZE + local.readUInt16LE(26) + local.readUInt16LE(28) };
}
