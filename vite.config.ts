import { createHash } from 'node:crypto';
import path from 'node:path';
import optimizeLocales from '@react-aria/optimize-locales-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

export default defineConfig(({ isSsrBuild }) => ({
  root,
  appType: 'custom',
  plugins: [
    // React Aria's own texts (date field segments, calendar) only in the sites' three languages.
    optimizeLocales.vite({ locales: ['fi', 'sv', 'en'] }),
    react(),
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
        copyPublicDir: false,
        rolldownOptions: {
          input: ['src/app/client-entry.ts', 'src/render/styles.ts'],
        },
      },
  ssr: { target: 'node' },
}));
