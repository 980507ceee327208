import { crc32, inflateRawSync } from 'node:zlib';

/**
 * Reads a ZIP archive as an unzipping program does: from the end-of-directory record through the
 * central directory to each local header, inflating deflated entries and checking each CRC-32.
 */
export function readZip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('no end-of-directory record');
  const entries = zip.readUInt16LE(end + 10);
  const size = zip.readUInt32LE(end + 12);
  let at = zip.readUInt32LE(end + 16);
  if (at + size !== end) throw new Error('the directory does not end where the record says');
  const files = new Map<string, Buffer>();
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`entry ${i}: no directory header`);
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressed = zip.readUInt32LE(at + 20);
    const length = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip
      .subarray(at + 46, at + 46 + nameLength)
      .toString(flags & 0x800 ? 'utf8' : 'latin1');
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`${name}: no local header`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const body = zip.subarray(start, start + compressed);
    const data = method === 8 ? inflateRawSync(body) : Buffer.from(body);
    if (method !== 0 && method !== 8) throw new Error(`${name}: method ${method}`);
    if (data.length !== length || crc32(data) !== crc) throw new Error(`${name}: damaged`);
    files.set(name, data);
    at += 46 + nameLength + skip;
  }
  return files;
}
