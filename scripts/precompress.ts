import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Writes .br and .gz beside every built text asset, so they are served without compressing per request. */
const dir = path.resolve(process.argv[2] ?? 'dist/client/assets');
const compressible = /\.(js|mjs|css|svg|json|map|txt)$/;
let count = 0;
for (const name of await readdir(dir)) {
  if (!compressible.test(name)) continue;
  const file = path.join(dir, name);
  const data = await readFile(file);
  await writeFile(
    `${file}.br`,
    brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  await writeFile(`${file}.gz`, gzipSync(data, { level: 9 }));
  count++;
}
console.info(`precompressed ${count} files in ${path.relative(process.cwd(), dir)}`);
