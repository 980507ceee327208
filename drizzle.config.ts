import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './src/db/schema.ts',
    './src/features/staff/tables.ts',
    './src/features/forms/inbox/tables.ts',
  ],
  out: './src/db/migrations',
});
