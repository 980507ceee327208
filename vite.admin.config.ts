import optimizeLocales from '@react-aria/optimize-locales-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { ADMIN_ENTRY, ADMIN_MANIFEST } from './src/render/assets.ts';
import { serverOnlyGuard } from './vite.config.ts';

/**
 * The back office's bundle (decision 133): built apart from the public client, after it, into
 * the same `dist/client/assets/` with a manifest of its own, so that no public page's chunk can
 * hold admin code and the admin's CSS stays out of the public stylesheet.
 */
export default defineConfig({
  root: import.meta.dirname,
  appType: 'custom',
  plugins: [optimizeLocales.vite({ locales: ['fi', 'sv', 'en'] }), react(), serverOnlyGuard()],
  css: { modules: { localsConvention: 'camelCaseOnly' } },
  build: {
    outDir: 'dist/client',
    emptyOutDir: false,
    manifest: ADMIN_MANIFEST,
    target: 'es2022',
    modulePreload: false,
    copyPublicDir: false,
    // One app for staff at work, not a public page: react-aria-components and React in one chunk.
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      input: [ADMIN_ENTRY],
      output: {
        entryFileNames: 'assets/admin-[name]-[hash].js',
        chunkFileNames: 'assets/admin-[name]-[hash].js',
        assetFileNames: 'assets/admin-[name]-[hash][extname]',
      },
    },
  },
});
