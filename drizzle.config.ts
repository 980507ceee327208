import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Each feature's tables, and the shared layers' (decision 126).
  schema: './src/**/tables.ts',
  out: './src/db/migrations',
});
