import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * The project folder, found by walking up from this module to package.json, so the same code
 * works from `src/` (tests, development) and from the bundled `dist/server/`.
 */
export function projectRoot(): string {
  if (root) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the server code');
    dir = parent;
  }
  root = dir;
  return dir;
}

export function projectPath(...parts: string[]): string {
  return path.join(projectRoot(), ...parts);
}
