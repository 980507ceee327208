import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** Flags for Debian's Chromium on a machine without internet. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Debian's `chromium` from the PATH; nothing here downloads a browser. */
export function chromiumPath(): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    for (const name of ['chromium', 'chromium-browser']) {
      const file = path.join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // not in this folder
      }
    }
  }
  throw new Error('Chromium is not on the PATH: apt-get install -y chromium');
}
