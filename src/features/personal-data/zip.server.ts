import { type Zippable, zipSync } from 'fflate';

/**
 * The ZIP archive of one person's data (decision 159), made by fflate from files held in memory.
 * Names are made relative and plain first (`safeEntryName`), and files that deflate would not
 * shrink (photos) are stored as they are.
 */

export interface ZipEntry {
  /** A relative path with `/` between folders. */
  name: string;
  data: Buffer;
}

/**
 * Made on Unix, a plain file readable by all (`-rw-r--r--`): Info-ZIP's unzip reads the names of
 * entries made on MS-DOS (fflate's default) as code page 437 even with the UTF-8 flag.
 */
const UNIX = { os: 3, attrs: 0o100644 << 16 };

/** Picture and archive types whose bytes are compressed already: stored, not deflated. */
const COMPRESSED = /\.(jpe?g|png|gif|webp|avif|heic|pdf|zip|gz|mp4|mov)$/i;

/**
 * An entry name an unzipping program writes inside the folder it unpacks to: no leading `/`, no
 * `.` or `..` parts, no control characters, `/` between parts.
 */
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

/** The archive of `entries`, each dated `at`; two entries of one name keep the first. */
export function zipArchive(entries: readonly ZipEntry[], at = new Date()): Buffer {
  const files: Zippable = {};
  for (const entry of entries) {
    const name = safeEntryName(entry.name);
    if (name in files) continue;
    files[name] = [new Uint8Array(entry.data), { ...UNIX, level: COMPRESSED.test(name) ? 0 : 6 }];
  }
  return Buffer.from(zipSync(files, { mtime: at }));
}
