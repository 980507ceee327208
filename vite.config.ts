import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import optimizeLocales from '@react-aria/optimize-locales-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, transformWithOxc } from 'vite';
import {
  islandModules,
  islandRegistryFiles,
  islandTextKeys,
  partsWithTexts,
  partTextKeys,
} from './scripts/island-texts.ts';
import { ISLAND_CODE } from './src/render/assets.ts';

const root = import.meta.dirname;

/**
 * Same class name for a CSS module in the server build, the client build, dev and tests. The hash
 * is the file's, one for all its classes (the file's name and the class name make them unique
 * within it): the class-name tables that islands load compress to about half with the suffix
 * repeated (decision 161).
 */
function scopedName(local: string, filename: string): string {
  const relative = path.relative(root, filename.split('?', 1)[0] ?? filename);
  const base = path
    .basename(relative)
    .replace(/\.module\.css$/, '')
    .replace(/[^\w-]/g, '_');
  const hash = createHash('sha256').update(relative).digest('base64url').slice(0, 6);
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

const ISLAND_TEXTS = 'virtual:island-texts';
const languagesOfTexts = ['fi', 'sv', 'en'] as const;
const ISLAND_PART = /^virtual:island-texts\/(fi|sv|en)\/([\w-]+)$/;

/** The texts of one language's catalogue (`src/i18n/<lang>.ts`), read as data at build time. */
async function readCatalogue(
  lang: string,
): Promise<{ file: string; messages: Record<string, string> }> {
  const file = path.join(root, 'src/i18n', `${lang}.ts`);
  // The catalogue is data: strip its types and read its one export.
  const { code } = await transformWithOxc(await readFile(file, 'utf8'), file, { lang: 'ts' });
  const module = (await import(
    `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`
  )) as Record<string, Record<string, string>>;
  const messages = module[lang];
  if (!messages) throw new Error(`${file} has no export "${lang}"`);
  return { file, messages };
}

/**
 * Each island's own texts (decision 160), so no page loads the whole catalogue (about 12 kB):
 * `virtual:island-texts/<lang>/<island>` is the texts of `src/i18n/<lang>.ts` whose keys the
 * island's modules name (`scripts/island-texts.ts` reads them from the source: the island's module
 * and every module it imports statically; what it loads lazily brings its own, `partTexts`,
 * decision 161). The client build emits one chunk for each
 * island of the registries in each language; the server names an island's chunk in its element
 * (`data-texts`, from the manifest), so the client entry holds no table of them. The catalogue
 * stays the one source of the texts; a key added to an island's code is in its texts at the next
 * build (or reload, in development).
 */
export function islandTexts(): Plugin {
  return {
    name: 'kattaus:island-texts',
    buildStart() {
      if (this.environment.config.consumer !== 'client' || this.environment.mode !== 'build')
        return;
      for (const island of islandModules(root).islands)
        for (const lang of languagesOfTexts)
          this.emitFile({
            type: 'chunk',
            id: `${ISLAND_TEXTS}/${lang}/${island}`,
            name: `texts-${lang}-${island}`,
            // The client entry imports the chunk for its default export (Vite's app builds keep no
            // entry's exports otherwise).
            preserveSignature: 'strict',
          });
    },
    resolveId(source) {
      return ISLAND_PART.test(source) ? `\0${source}` : null;
    },
    async load(id) {
      const source = id.replace(/^\0/, '');
      const match = ISLAND_PART.exec(source);
      if (!match?.[1] || !match[2]) return null;
      const [, lang, island] = match;
      const { file, messages } = await readCatalogue(lang);
      this.addWatchFile(file);
      for (const registry of islandRegistryFiles(root)) this.addWatchFile(registry);
      const found = islandTextKeys(root, Object.keys(messages), island);
      if (!found) throw new Error(`${source}: no island "${island}" in the registries`);
      for (const f of found.files) this.addWatchFile(path.join(root, f));
      const part = Object.fromEntries(found.keys.map((key) => [key, messages[key]]));
      return `export default ${JSON.stringify(part)};`;
    },
  };
}

const PART_TEXTS = 'virtual:part-texts';
const PART_TEXTS_ID = /^virtual:part-texts\/(fi|sv|en)\/(src\/[\w./-]+)$/;
/** The module that loads a part's texts with its code. */
const PART_TEXTS_MODULE = 'src/render/part-texts.ts';
const LAZY_IMPORT = /\bimport\(\s*(['"])(\.{1,2}\/[^'"]+)\1\s*\)/g;

/**
 * The texts of what island code loads lazily (decision 161): a dialog when it opens, a deferred
 * part when it is reached for. Each such module whose modules (its static imports) name texts
 * has `virtual:part-texts/<lang>/<file>` in each language, and in the browser's code every lazy
 * `import('./part.tsx')` of it becomes `withPartTexts(import('./part.tsx'), { fi: () => import(…),
 * … })`, which loads the page language's texts with the code and adds them to the page's texts
 * before the part renders. The island's own texts are only those its code shows on hydration.
 */
export function partTexts(): Plugin {
  let keys: Promise<string[]> | undefined;
  const catalogueKeys = () => {
    keys ??= readCatalogue('fi').then(({ messages }) => Object.keys(messages));
    return keys;
  };
  return {
    name: 'kattaus:part-texts',
    applyToEnvironment: (environment) => environment.config.consumer === 'client',
    async buildStart() {
      if (this.environment.mode !== 'build') return;
      for (const part of partsWithTexts(root, await catalogueKeys()).keys())
        for (const lang of languagesOfTexts)
          this.emitFile({
            type: 'chunk',
            id: `${PART_TEXTS}/${lang}/${part}`,
            name: `texts-${lang}-${path.posix.basename(part).replace(/\.[jt]sx?$/, '')}`,
            preserveSignature: 'strict',
          });
    },
    resolveId(source) {
      return PART_TEXTS_ID.test(source) ? `\0${source}` : null;
    },
    async load(id) {
      const match = PART_TEXTS_ID.exec(id.replace(/^\0/, ''));
      if (!match?.[1] || !match[2]) return null;
      const [, lang, part] = match;
      const { file, messages } = await readCatalogue(lang);
      this.addWatchFile(file);
      const found = partTextKeys(root, Object.keys(messages), part);
      for (const f of found.files) this.addWatchFile(path.join(root, f));
      const texts = Object.fromEntries(found.keys.map((key) => [key, messages[key]]));
      return `export default ${JSON.stringify(texts)};`;
    },
    async transform(code, id) {
      const file = path
        .relative(root, id.split('?', 1)[0] ?? id)
        .split(path.sep)
        .join('/');
      if (!file.startsWith('src/') || !/\.[jt]sx?$/.test(file) || file === PART_TEXTS_MODULE)
        return null;
      if (!code.includes('import(')) return null;
      const known = await catalogueKeys();
      let changed = false;
      const out = code.replace(LAZY_IMPORT, (call, _quote: string, spec: string) => {
        const part = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
        if (!existsSync(path.join(root, part))) return call;
        if (partTextKeys(root, known, part).keys.length === 0) return call;
        changed = true;
        const byLang = languagesOfTexts
          .map(
            (lang) => `${lang}: () => import(${JSON.stringify(`${PART_TEXTS}/${lang}/${part}`)})`,
          )
          .join(', ');
        return `__withPartTexts(${call}, { ${byLang} })`;
      });
      if (!changed) return null;
      return {
        code: `import { withPartTexts as __withPartTexts } from '/${PART_TEXTS_MODULE}';\n${out}`,
        map: null,
      };
    },
  };
}

/**
 * Each island's code, named by the server (decision 161), so the client entry holds no table of
 * lazy imports: every module an island's registry entry loads (`islandModules(root).code`) is an
 * entry of the client build with its exports kept, and the build writes `.vite/island-code.json`
 * beside the manifest: island → `url#Export` (two, space-separated, for an island the app joins
 * of two parts, the part that takes the other first). The server puts it in the island's element
 * (`data-code`); the client entry imports those modules when the island's trigger fires.
 */
export function islandCode(): Plugin {
  const modules = () => islandModules(root);
  return {
    name: 'kattaus:island-code',
    apply: 'build',
    applyToEnvironment: (environment) => environment.config.consumer === 'client',
    buildStart() {
      const files = new Set([...modules().code.values()].flat().map((c) => c.file));
      for (const file of files)
        this.emitFile({
          type: 'chunk',
          id: path.join(root, file),
          // Its exports under their own names: the element names the export it takes.
          preserveSignature: 'allow-extension',
        });
    },
    generateBundle(_options, bundle) {
      const chunks = new Map<string, { url: string; exports: string[] }>();
      /**
       * The code of a module that is an island's and also part of a chunk other entries share
       * stays in that chunk, and the island's entry is a facade that re-exports it: named
       * directly, the island saves the facade's request.
       */
      const facade = (code: string, from: string) => {
        const match = /^export\s*\{([^}]*)\}\s*from\s*"(\.\/[^"]+)";?\s*$/.exec(code);
        if (!match?.[1] || !match[2]) return undefined;
        const target = path.posix.join(path.posix.dirname(from), match[2]);
        const names = new Map(
          match[1].split(',').map((pair) => {
            const [local = '', exported = local] = pair.trim().split(/\s+as\s+/);
            return [exported, local] as const;
          }),
        );
        return { target, names };
      };
      const renamed = new Map<string, Map<string, string>>();
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry || !chunk.facadeModuleId) continue;
        const file = path.relative(root, chunk.facadeModuleId);
        const through =
          Object.keys(chunk.modules).length === 0 ? facade(chunk.code, chunk.fileName) : undefined;
        const target = through && bundle[through.target];
        if (through && target?.type === 'chunk') {
          chunks.set(file, { url: `/${target.fileName}`, exports: target.exports });
          renamed.set(file, through.names);
        } else {
          chunks.set(file, { url: `/${chunk.fileName}`, exports: chunk.exports });
        }
      }
      const { code, islands } = modules();
      const table: Record<string, string> = {};
      for (const island of islands) {
        const specs = (code.get(island) ?? []).map(({ file, name }) => {
          const chunk = chunks.get(file);
          const exported = renamed.get(file)?.get(name) ?? name;
          if (!chunk?.exports.includes(exported))
            this.error(`island ${island}: no chunk of ${file} exports ${name}`);
          return `${chunk.url}#${exported}`;
        });
        table[island] = specs.join(' ');
      }
      this.emitFile({ type: 'asset', fileName: ISLAND_CODE, source: JSON.stringify(table) });
    },
  };
}

/**
 * Vite wraps each dynamic import in its preload helper, which adds `<link rel="modulepreload">`s
 * for the imported chunk's dependencies. With `modulePreload: false` (decision 061) and the CSS in
 * one file it has nothing to add: every call is `__vitePreload(() => import(x), [])`. Its code
 * (0.8 kB) was the largest part of what a page loads before any island: here it only imports.
 */
function plainDynamicImports(): Plugin {
  const helper = '\0vite/preload-helper.js';
  return {
    name: 'kattaus:plain-dynamic-imports',
    apply: 'build',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.config.consumer === 'client',
    load(id) {
      if (id !== helper) return null;
      return 'export const __vitePreload = (load) => load();';
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
    islandTexts(),
    partTexts(),
    islandCode(),
    plainDynamicImports(),
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
          output: {
            // The hydration runtime in one chunk (decision 161): React, React DOM, the scheduler,
            // the island root and the page's texts always load together, for the first island of
            // every page; as four files they compressed 1.6 kB larger than as one.
            codeSplitting: {
              groups: [
                {
                  name: 'runtime',
                  test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|src[\\/]render[\\/]island-(root|runtime)\.tsx?$|src[\\/]render[\\/]part-texts\.ts$/,
                },
              ],
            },
          },
        },
      },
  ssr: { target: 'node' },
}));
