import { crc32, deflateRawSync } from 'node:zlib';

/**
 * A ZIP archive (PKWARE APPNOTE 6.3, without ZIP64) of a few files held in memory: the export of
 * one person's data (decision 159). Names are UTF-8 (flag bit 11), contents deflated unless that
 * does not make them smaller (photos are stored as they are). No npm package in the dependencies
 * writes ZIP files; node's own zlib gives deflate and CRC-32, and the format's other part is the
 * two headers and the directory below.
 */

export interface ZipEntry {
  /** A relative path with `/` between folders. */
  name: string;
  data: Buffer;
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const UTF8_NAMES = 0x0800;
const VERSION = 20;
/**
 * Made on Unix (3), version 2.0: Info-ZIP's unzip reads names from an MS-DOS host (0) as code page
 * 437 even with the UTF-8 flag; a Unix host's names are taken as they are.
 */
const MADE_BY = (3 << 8) | VERSION;
/** A plain file readable by everyone (`-rw-r--r--`), in the Unix half of the attributes. */
const FILE_MODE = 0o100644 << 16;
/** Below ZIP64's limits: sizes and offsets under 4 GiB, fewer than 65 535 entries. */
const MAX_BYTES = 0xffff_fffe;
const MAX_ENTRIES = 0xfffe;

/** The MS-DOS date and time fields of `at` (local fields read as UTC, two-second steps). */
function dosDateTime(at: Date): { time: number; date: number } {
  const year = Math.max(1980, at.getUTCFullYear());
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | (at.getUTCSeconds() >> 1),
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

/** A name safe to unpack: relative, without `..`, empty or control-character parts. */
export function safeEntryName(name: string): string {
  const parts = name
    .split(/[\\/]+/)
    .map((part) =>
      [...part]
        .map((c) => (c < ' ' || c === '\u007f' ? '_' : c))
        .join('')
        .trim(),
    )
    .filter((part) => part !== '' && part !== '.' && part !== '..');
  return parts.join('/') || 'file';
}

export function zipArchive(entries: readonly ZipEntry[], at = new Date()): Buffer {
  if (entries.length > MAX_ENTRIES) throw new Error('too many files for one archive');
  const { time, date } = dosDateTime(at);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(safeEntryName(entry.name), 'utf8');
    const deflated = deflateRawSync(entry.data);
    const stored = deflated.length >= entry.data.length;
    const body = stored ? entry.data : deflated;
    if (entry.data.length > MAX_BYTES || offset + body.length > MAX_BYTES) {
      throw new Error('the archive would need ZIP64');
    }
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(VERSION, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(stored ? 0 : 8, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(MADE_BY, 4);
    central.writeUInt16LE(VERSION, 6);
    central.writeUInt16LE(UTF8_NAMES, 8);
    central.writeUInt16LE(stored ? 0 : 8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    // Extra field, comment, disk number and internal attributes: all 0.
    central.writeUInt32LE(FILE_MODE >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
