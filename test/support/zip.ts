/**
 * Write small ZIP archives (wheels) for tests: stored or deflated entries, optionally in the
 * ZIP64 form, and entries whose stated sizes lie. Synthetic archives for the wheel reader's
 * tests; real wheels live in fixtures/wheels/ (fixtures/PROVENANCE.md).
 */
import { deflateRawSync } from 'node:zlib';

export interface ZipInput {
  name: string;
  data: Buffer | string;
  /** Deflate the data (default true). */
  deflate?: boolean;
  /** State this uncompressed size in the headers instead of the true one (a lying archive). */
  statedSize?: number;
}

export interface ZipOptions {
  /** Write the ZIP64 end records and 0xffffffff central-directory fields with ZIP64 extras. */
  zip64?: boolean;
  /** Archive comment (the EOCD record then lies further from the end). */
  comment?: string;
}

export function makeZip(inputs: readonly ZipInput[], options: ZipOptions = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const input of inputs) {
    const raw = Buffer.isBuffer(input.data) ? input.data : Buffer.from(input.data, 'utf8');
    const deflate = input.deflate ?? true;
    const body = deflate ? deflateRawSync(raw) : raw;
    const name = Buffer.from(input.name, 'utf8');
    const size = input.statedSize ?? raw.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(deflate ? 8 : 0, 8);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(45, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(deflate ? 8 : 0, 10);
    let extra = Buffer.alloc(0);
    if (options.zip64 === true) {
      central.writeUInt32LE(0xffffffff, 20);
      central.writeUInt32LE(0xffffffff, 24);
      central.writeUInt32LE(0xffffffff, 42);
      extra = Buffer.alloc(28);
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(24, 2);
      extra.writeBigUInt64LE(BigInt(size), 4);
      extra.writeBigUInt64LE(BigInt(body.length), 12);
      extra.writeBigUInt64LE(BigInt(offset), 20);
    } else {
      central.writeUInt32LE(body.length, 20);
      central.writeUInt32LE(size, 24);
      central.writeUInt32LE(offset, 42);
    }
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    centrals.push(central, name, extra);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const comment = Buffer.from(options.comment ?? '', 'utf8');
  const tail: Buffer[] = [];
  if (options.zip64 === true) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeUInt16LE(45, 12);
    record.writeUInt16LE(45, 14);
    record.writeBigUInt64LE(BigInt(inputs.length), 24);
    record.writeBigUInt64LE(BigInt(inputs.length), 32);
    record.writeBigUInt64LE(BigInt(directory.length), 40);
    record.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
    locator.writeUInt32LE(1, 16);
    tail.push(record, locator);
  }
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(options.zip64 === true ? 0xffff : inputs.length, 8);
  eocd.writeUInt16LE(options.zip64 === true ? 0xffff : inputs.length, 10);
  eocd.writeUInt32LE(options.zip64 === true ? 0xffffffff : directory.length, 12);
  eocd.writeUInt32LE(options.zip64 === true ? 0xffffffff : offset, 16);
  eocd.writeUInt16LE(comment.length, 20);
  return Buffer.concat([...locals, directory, ...tail, eocd, comment]);
}
