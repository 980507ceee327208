import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import optimizeLocales from '@react-aria/optimize-locales-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, transformWithOxc } from 'vite';

const root = import.meta.dirname;

/** Same class name for a CSS module in the server build, the client build, dev and tests. */
function scopedName(local: string, filename: string): string {
  const relative = path.relative(root, filename.split('?', 1)[0] ?? filename);
  const base = path
    .basename(relative)
    .replace(/\.module\.css$/, '')
    .replace(/[^\w-]/g, '_');
  const hash = createHash('sha256').update(`${relative}:${local}`).digest('base64url').slice(0, 6);
  return `${base}_${local}_${hash}`.replace(/[^\w-]/g, '_');
}

/** Refuses any browser bundle that would pull in server-only code (`*.server.ts(x)`, `src/server`, `src/db`). */
export function serverOnlyGuard(): Plugin {
  const serverOnly = /(\.server\.tsx?$)|([\\/]src[\\/](server|db)[\\/])/;
  return {
    name: 'kattaus:server-only-guard',
    applyToEnvironment: (environment) => environment.config.consumer === 'client',
    async resolveId(source, importer, options) {
      if (!importer || importer.includes('node_modules')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (resolved && serverOnly.test(resolved.id)) {
        this.error(
          `Browser code must not import server-only ${path.relative(root, resolved.id)} (from ${path.relative(root, importer)})`,
        );
      }
      return resolved;
    },
  };
}

/**
 * Keeps every CSS module in the client build even where only the server reads its class names:
 * `src/render/styles.ts` gathers them all into the one stylesheet, and Vite would otherwise drop
 * CSS modules whose exports no browser code uses.
 */
function keepCssModules(): Plugin {
  return {
    name: 'kattaus:keep-css-modules',
    enforce: 'post',
    applyToEnvironment: (environment) => environment.config.consumer === 'client',
    transform(code, id) {
      if (!/\.module\.css($|\?)/.test(id)) return null;
      return { code, map: null, moduleSideEffects: 'no-treeshake' };
    },
  };
}

const CATALOGUE_PART = /^virtual:catalogue\/(fi|sv|en)\/([\w.,-]+)$/;

/**
 * `virtual:catalogue/<lang>/<prefix>,<prefix>…`: the texts of one language whose keys start with
 * one of the prefixes, as a module of its own. An island that needs a handful of texts (the buy
 * control on every product page) loads these instead of the whole catalogue (about 9 kB gzip);
 * `src/app/client-entry.ts` names them. The catalogue (`src/i18n/<lang>.ts`) stays the one source.
 */
export function catalogueParts(): Plugin {
  return {
    name: 'kattaus:catalogue-parts',
    resolveId(source) {
      return CATALOGUE_PART.test(source) ? `\0${source}` : null;
    },
    async load(id) {
      const match = CATALOGUE_PART.exec(id.replace(/^\0/, ''));
      if (!match?.[1] || !match[2]) return null;
      const [, lang, list] = match;
      const file = path.join(root, 'src/i18n', `${lang}.ts`);
      this.addWatchFile(file);
      // The catalogue is data: strip its types and read its one export.
      const { code } = await transformWithOxc(await readFile(file, 'utf8'), file, { lang: 'ts' });
      const module = (await import(
        `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`
      )) as Record<string, Record<string, string>>;
      const messages = module[lang];
      if (!messages) throw new Error(`${file} has no export "${lang}"`);
      const prefixes = list.split(',');
      const part = Object.fromEntries(
        Object.entries(messages).filter(([key]) => prefixes.some((p) => key.startsWith(p))),
      );
      if (Object.keys(part).length === 0)
        throw new Error(`virtual:catalogue/${lang}/${list} matches no text of ${file}`);
      return `export default ${JSON.stringify(part)};`;
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  root,
  appType: 'custom',
  plugins: [
    // React Aria's own texts (date field segments, calendar) only in the sites' three languages.
    optimizeLocales.vite({ locales: ['fi', 'sv', 'en'] }),
    react(),
    catalogueParts(),
    serverOnlyGuard(),
    keepCssModules(),
  ],
  css: { modules: { generateScopedName: scopedName, localsConvention: 'camelCaseOnly' } },
  build: isSsrBuild
    ? {
        outDir: 'dist/server',
        emptyOutDir: true,
        // Chunks beside main.js, so `new URL('../client', import.meta.url)` finds the client build.
        rolldownOptions: { output: { chunkFileNames: '[name]-[hash].js' } },
        target: 'node20',
        sourcemap: true,
        copyPublicDir: false,
      }
    : {
        outDir: 'dist/client',
        emptyOutDir: true,
        manifest: true,
        cssCodeSplit: false,
        target: 'es2022',
        // No preload helper around dynamic imports (decision 061): it added a
        // <link rel="modulepreload"> to the head for every chunk an island needs, each time an
        // island started hydrating, which took the main thread tens of ms on the page's first
        // idle callback; the browser finds a chunk's static imports itself.
        modulePreload: false,
        copyPublicDir: false,
        rolldownOptions: {
          input: [
            'src/app/client-entry.ts',
            'src/render/styles.ts',
            'src/features/shop/cart-sync/frame-entry.ts',
          ],
        },
      },
  ssr: { target: 'node' },
}));
