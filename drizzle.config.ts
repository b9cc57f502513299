import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes SQL migrations from the schema; they are committed and
// applied automatically when the server starts (server/src/db/index.ts).
export default defineConfig({
  dialect: 'sqlite',
  schema: './server/src/db/schema.ts',
  out: './server/src/db/migrations',
  dbCredentials: { url: process.env.DATABASE_FILE ?? './data/app.db' },
  strict: true,
  verbose: true,
});
