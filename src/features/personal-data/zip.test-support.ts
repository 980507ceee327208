import { unzipSync } from 'fflate';

/** The files of a ZIP archive by name, read as an unzipping program does (CRC-32 checked). */
export function readZip(zip: Buffer): Map<string, Buffer> {
  return new Map(
    Object.entries(unzipSync(new Uint8Array(zip))).map(([name, data]) => [name, Buffer.from(data)]),
  );
}
