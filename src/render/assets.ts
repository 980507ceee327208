import { readFileSync } from 'node:fs';
import path from 'node:path';

/** What the document needs to load the client: scripts, styles and preloads. */
export interface PageAssets {
  /** Module scripts, in order. */
  scripts: string[];
  styles: string[];
  modulePreloads: string[];
  /**
   * The URL of an island's texts in a language (`virtual:island-texts/<lang>/<island>`, decision
   * 160), which the island's element names for the client entry; undefined for an entry without
   * islands.
   */
  islandTexts?(island: string, lang: string): string;
  /**
   * The modules of an island's code and the export taken from each (`url#Export`, two
   * space-separated for an island of two parts), which the island's element names for the client
   * entry (decision 161); undefined for an entry without islands.
   */
  islandCode?(island: string): string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the client's scripts and styles come from. */
    assets: AssetProvider;
  }
}

export interface AssetProvider {
  page(): PageAssets;
  /**
   * The scripts of a page that loads one entry of its own instead of the client (no islands, no
   * React, no styles): the shop's cart-sync frame (`CART_SYNC_ENTRY`).
   */
  entry(key: string): PageAssets;
  /**
   * The back office's own bundle (`ADMIN_ENTRY`, built apart by `vite.admin.config.ts`), or
   * undefined when the build has none.
   */
  admin?(): PageAssets | undefined;
  /** Folder of the built files served under /assets/ (production builds only). */
  staticDir?: string;
  /** Whether assets come from the Vite dev server (relaxed CSP, no caching). */
  dev: boolean;
}

export const CLIENT_ENTRY = 'src/app/client-entry.ts';
export const STYLES_ENTRY = 'src/render/styles.ts';
/** The cart-sync frame's own entry (decision 061). */
export const CART_SYNC_ENTRY = 'src/features/shop/cart-sync/frame-entry.ts';
/** The back office's entry: a build of its own, never loaded by a public page (decision 133). */
export const ADMIN_ENTRY = 'src/admin/main.tsx';
/** Its manifest, beside the public one. */
export const ADMIN_MANIFEST = '.vite/admin-manifest.json';
/** The modules of the islands' texts, `<prefix>/<lang>/<island>` (vite.config.ts `islandTexts`). */
export const ISLAND_TEXTS = 'virtual:island-texts';
/** Where the client build writes each island's code (vite.config.ts `islandCode`). */
export const ISLAND_CODE = '.vite/island-code.json';

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}

/** Reads the Vite manifest of a production build (`dist/client/.vite/manifest.json`). */
export function manifestAssets(clientDir: string): AssetProvider {
  const file = path.join(clientDir, '.vite', 'manifest.json');
  let manifest: Record<string, ManifestChunk>;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  } catch (cause) {
    throw new Error(`No client build at ${file}: run "npm run build" first`, { cause });
  }
  const entry = manifest[CLIENT_ENTRY];
  // With cssCodeSplit off, all CSS is one file, listed under 'style.css'.
  const styles = manifest['style.css'];
  if (!entry || !styles)
    throw new Error(`The client manifest lacks ${CLIENT_ENTRY} or its stylesheet`);
  const url = (f: string) => `/assets/${path.basename(f)}`;
  let islandCode: Record<string, string>;
  try {
    islandCode = JSON.parse(readFileSync(path.join(clientDir, ISLAND_CODE), 'utf8')) as Record<
      string,
      string
    >;
  } catch (cause) {
    throw new Error(`The client build has no ${ISLAND_CODE}: run "npm run build"`, { cause });
  }
  const page: PageAssets = {
    scripts: [url(entry.file)],
    styles: [url(styles.file)],
    modulePreloads: (entry.imports ?? [])
      .map((key) => manifest[key]?.file)
      .filter(isString)
      .map(url),
    islandTexts: (island, lang) => {
      const key = `${ISLAND_TEXTS}/${lang}/${island}`;
      const chunk = manifest[key];
      if (!chunk) throw new Error(`The client manifest lacks ${key}`);
      return url(chunk.file);
    },
    islandCode: (island) => {
      const code = islandCode[island];
      if (!code) throw new Error(`${ISLAND_CODE} has no island ${island}`);
      return code;
    },
  };
  const entries = new Map<string, PageAssets>();
  for (const key of [CART_SYNC_ENTRY]) {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The client manifest lacks ${key}`);
    entries.set(key, {
      scripts: [url(chunk.file)],
      styles: [],
      modulePreloads: (chunk.imports ?? [])
        .map((k) => manifest[k]?.file)
        .filter(isString)
        .map(url),
    });
  }
  const admin = adminAssets(clientDir, url);
  return {
    dev: false,
    page: () => page,
    admin: () => admin,
    entry: (key) => {
      const assets = entries.get(key);
      if (!assets) throw new Error(`No entry ${key} in the client build`);
      return assets;
    },
    staticDir: path.join(clientDir, 'assets'),
  };
}

/** The back office's scripts and styles from its own manifest, if the build made it. */
function adminAssets(clientDir: string, url: (f: string) => string): PageAssets | undefined {
  let manifest: Record<string, ManifestChunk & { css?: string[] }>;
  try {
    manifest = JSON.parse(readFileSync(path.join(clientDir, ADMIN_MANIFEST), 'utf8'));
  } catch {
    return undefined;
  }
  const chunk = manifest[ADMIN_ENTRY];
  if (!chunk) return undefined;
  const css = new Set<string>(chunk.css ?? []);
  for (const key of chunk.imports ?? []) for (const f of manifest[key]?.css ?? []) css.add(f);
  return {
    scripts: [url(chunk.file)],
    styles: [...css].map(url),
    modulePreloads: (chunk.imports ?? [])
      .map((key) => manifest[key]?.file)
      .filter(isString)
      .map(url),
  };
}

/**
 * Assets served by the Vite dev server with hot reload. `islandCode` gives an island's modules
 * and exports (`scripts/island-texts.ts` reads them from the registries), served from source.
 */
export function devAssets(
  islandCode: (island: string) => { file: string; name: string }[],
): AssetProvider {
  const page: PageAssets = {
    scripts: ['/@vite/client', `/${STYLES_ENTRY}`, `/${CLIENT_ENTRY}`],
    styles: [],
    modulePreloads: [],
    // How the dev server serves a virtual module.
    islandTexts: (island, lang) => `/@id/__x00__${ISLAND_TEXTS}/${lang}/${island}`,
    islandCode: (island) =>
      islandCode(island)
        .map((c) => `/${c.file}#${c.name}`)
        .join(' '),
  };
  return {
    dev: true,
    page: () => page,
    admin: () => ({
      scripts: ['/@vite/client', `/${ADMIN_ENTRY}`],
      styles: [],
      modulePreloads: [],
    }),
    entry: (key) => ({ scripts: [`/${key}`], styles: [], modulePreloads: [] }),
  };
}

function isString(v: unknown): v is string {
  return typeof v === 'string';
}
