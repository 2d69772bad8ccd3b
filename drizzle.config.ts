import { defineConfig } from 'drizzle-kit';

// One schema, one migrations folder: wrangler (D1), the tests and libSQL all apply `migrations/*.sql`.
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './migrations',
});
