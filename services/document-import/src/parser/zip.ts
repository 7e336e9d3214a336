import { inflateRawSync } from 'node:zlib';
import { DocxError } from './errors.js';

export interface ZipLimits {
  maxEntries: number;
  maxTotalUncompressed: number;
  maxRatio: number;
  /** Ratio is only judged above this output size: tiny XML parts compress very well. */
  ratioFloorBytes: number;
}

export const DEFAULT_LIMITS: ZipLimits = {
  maxEntries: 5000,
  maxTotalUncompressed: 100 * 1024 * 1024,
  maxRatio: 200,
  ratioFloorBytes: 1024 * 1024,
};

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD_SIG = 0x06054b50;
const CDH_SIG = 0x02014b50;
const LFH_SIG = 0x04034b50;

function u16(b: Uint8Array, at: number): number {
  if (at + 2 > b.length) throw new DocxError('DOCX_CORRUPT', 'the ZIP archive is truncated');
  return b[at]! | (b[at + 1]! << 8);
}

function u32(b: Uint8Array, at: number): number {
  if (at + 4 > b.length) throw new DocxError('DOCX_CORRUPT', 'the ZIP archive is truncated');
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

export function hasZipMagic(b: Uint8Array): boolean {
  return b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;
}

function findEocd(b: Uint8Array): number {
  const stop = Math.max(0, b.length - 22 - 0xffff);
  for (let i = b.length - 22; i >= stop; i--) {
    if (u32(b, i) === EOCD_SIG) return i;
  }
  throw new DocxError('DOCX_CORRUPT', 'the ZIP archive is truncated or corrupt (no end of central directory)');
}

// Names that try to climb out of the package or look like absolute paths are never read.
function isPathLike(name: string): boolean {
  return name.startsWith('/') || name.includes('\\') || /(^|\/)\.\.(\/|$)/.test(name) || /^[a-zA-Z]:/.test(name);
}

export function listEntries(b: Uint8Array, limits: ZipLimits): Map<string, ZipEntry> {
  if (!hasZipMagic(b)) throw new DocxError('DOCX_NOT_ZIP', 'not a ZIP-based Office file (bad magic header)');
  const eocd = findEocd(b);
  const count = u16(b, eocd + 10);
  if (count === 0xffff || u32(b, eocd + 16) === 0xffffffff) {
    throw new DocxError('DOCX_UNSUPPORTED', 'ZIP64 archives are not accepted');
  }
  if (count > limits.maxEntries) {
    throw new DocxError('DOCX_TOO_MANY_ENTRIES', `the archive has ${count} entries (limit ${limits.maxEntries})`);
  }
  const entries = new Map<string, ZipEntry>();
  let at = u32(b, eocd + 16);
  let declared = 0;
  for (let i = 0; i < count; i++) {
    if (u32(b, at) !== CDH_SIG) throw new DocxError('DOCX_CORRUPT', 'the ZIP central directory is corrupt');
    const nameLen = u16(b, at + 28);
    const entry: ZipEntry = {
      flags: u16(b, at + 8),
      method: u16(b, at + 10),
      compressedSize: u32(b, at + 20),
      size: u32(b, at + 24),
      localOffset: u32(b, at + 42),
      name: new TextDecoder().decode(b.subarray(at + 46, at + 46 + nameLen)),
    };
    declared += entry.size;
    at += 46 + nameLen + u16(b, at + 30) + u16(b, at + 32);
    if (!isPathLike(entry.name)) entries.set(entry.name, entry);
  }
  if (declared > limits.maxTotalUncompressed) {
    throw new DocxError('DOCX_TOO_LARGE', `the archive declares ${declared} uncompressed bytes`);
  }
  return entries;
}

export class ZipReader {
  private inflated = 0;

  constructor(
    private readonly bytes: Uint8Array,
    readonly entries: Map<string, ZipEntry>,
    private readonly limits: ZipLimits,
  ) {}

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The entry's bytes; inflating a part past `maxBytes` is DOCX_TOO_LARGE whatever its declared size. */
  read(name: string, maxBytes = Infinity): Uint8Array {
    const e = this.entries.get(name);
    if (!e) throw new DocxError('DOCX_MISSING_DOCUMENT', `the package has no ${name}`);
    if (e.flags & 1) throw new DocxError('DOCX_UNSUPPORTED', 'encrypted ZIP entries are not accepted');
    const b = this.bytes;
    if (u32(b, e.localOffset) !== LFH_SIG) throw new DocxError('DOCX_CORRUPT', `bad local header for ${name}`);
    const start = e.localOffset + 30 + u16(b, e.localOffset + 26) + u16(b, e.localOffset + 28);
    if (start + e.compressedSize > b.length) throw new DocxError('DOCX_CORRUPT', 'the ZIP archive is truncated');
    const raw = b.subarray(start, start + e.compressedSize);
    if (e.method === 0) return this.account(raw);
    if (e.method !== 8) throw new DocxError('DOCX_UNSUPPORTED', `compression method ${e.method} is not supported`);
    return this.inflate(raw, e, maxBytes);
  }

  private account(out: Uint8Array): Uint8Array {
    this.inflated += out.length;
    if (this.inflated > this.limits.maxTotalUncompressed) {
      throw new DocxError('DOCX_TOO_LARGE', 'the archive inflates beyond the size limit');
    }
    return out;
  }

  // zlib stops as soon as the output would pass the cap, so a bomb never gets the memory it asks for,
  // whatever its headers claim.
  private inflate(raw: Uint8Array, e: ZipEntry, maxBytes: number): Uint8Array {
    const remaining = this.limits.maxTotalUncompressed - this.inflated;
    const ratioCap = Math.max(this.limits.ratioFloorBytes, raw.length * this.limits.maxRatio);
    const cap = Math.min(e.size, remaining, ratioCap);
    const partial = maxBytes < cap;
    try {
      return this.account(inflateRawSync(raw, { maxOutputLength: Math.max(1, Math.min(cap, maxBytes)) }));
    } catch (err) {
      if ((err as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') {
        if (err instanceof DocxError) throw err;
        throw new DocxError('DOCX_CORRUPT', `cannot inflate ${e.name}: ${(err as Error).message}`);
      }
      if (partial) throw new DocxError('DOCX_TOO_LARGE', `${e.name} is larger than ${maxBytes} bytes`);
      if (cap === ratioCap && ratioCap < e.size) {
        throw new DocxError('DOCX_COMPRESSION_RATIO', `${e.name} exceeds the compression ratio limit`);
      }
      throw new DocxError('DOCX_TOO_LARGE', `${e.name} inflates beyond its declared or allowed size`);
    }
  }
}

export function openZip(bytes: Uint8Array, limits: ZipLimits = DEFAULT_LIMITS): ZipReader {
  return new ZipReader(bytes, listEntries(bytes, limits), limits);
}
