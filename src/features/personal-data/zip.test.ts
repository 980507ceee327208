import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { safeEntryName, zipArchive } from './zip.server.ts';
import { readZip } from './zip.test-support.ts';

/** The export's ZIP writer (decision 159): what it writes reads back whole. */
const entries = [
  { name: 'person.json', data: Buffer.from(JSON.stringify({ nimi: 'Åsa Öhman', n: 1 }, null, 2)) },
  { name: 'files/abc/1-kuva ä.png', data: randomBytes(4096) },
  { name: 'files/abc/2-tyhjä.txt', data: Buffer.alloc(0) },
  { name: 'files/abc/3-toisto.txt', data: Buffer.from('makkara '.repeat(2000)) },
];

describe('zipArchive', () => {
  it('writes entries that read back byte for byte, deflating text and storing pictures', () => {
    const zip = zipArchive(entries);
    const read = readZip(zip);
    expect([...read.keys()]).toEqual(entries.map((e) => e.name));
    for (const entry of entries) expect(read.get(entry.name)).toEqual(entry.data);
    // The repeated text is deflated, the picture stored: the archive is smaller than its parts.
    expect(zip.length).toBeLessThan(entries.reduce((n, e) => n + e.data.length, 0));
  });

  it.runIf(existsSync('/usr/bin/unzip'))(
    'is an archive Info-ZIP’s unzip tests and unpacks',
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'kattaus-zip-'));
      try {
        const file = path.join(dir, 'a.zip');
        await writeFile(file, zipArchive(entries));
        expect(execFileSync('unzip', ['-t', file]).toString()).toContain('No errors detected');
        execFileSync('unzip', ['-q', file, '-d', path.join(dir, 'out')]);
        expect(await readFile(path.join(dir, 'out', 'files/abc/1-kuva ä.png'))).toEqual(
          entries[1]?.data,
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it('makes every name relative and without parent or control parts', () => {
    expect(safeEntryName('../../etc/passwd')).toBe('etc/passwd');
    expect(safeEntryName('/abs\\olute/./x')).toBe('abs/olute/x');
    expect(safeEntryName('a\u0000b/\u0007c')).toBe('a_b/_c');
    expect(safeEntryName('..')).toBe('file');
  });
});
