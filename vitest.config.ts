import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

const base =
  typeof viteConfig === 'function' ? viteConfig({ command: 'serve', mode: 'test' }) : viteConfig;

export default mergeConfig(
  base,
  defineConfig({
    test: {
      projects: [
        {
          extends: true,
          test: {
            name: 'unit',
            include: [
              'src/**/*.test.{ts,tsx}',
              'tests/setup/**/*.test.ts',
              'tests/architecture/*.test.ts',
              'seed/**/*.test.ts',
            ],
            environment: 'node',
            globalSetup: ['tests/setup/global-database.ts'],
            testTimeout: 30_000,
            hookTimeout: 60_000,
          },
        },
        {
          extends: true,
          test: {
            name: 'e2e',
            include: ['tests/e2e/**/*.spec.ts'],
            environment: 'node',
            globalSetup: ['tests/e2e/global-server.ts'],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            // One browser at a time: the machine has two cores and the server needs one.
            fileParallelism: false,
          },
        },
      ],
    },
  }),
);
