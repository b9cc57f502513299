import { defineConfig } from 'drizzle-kit';

// `npm run db:generate:pg` writes PostgreSQL's migrations from schema.pg.ts; they are committed
// beside SQLite's. Generating needs no database; the URL is only for drizzle-kit's other commands. The
// audit triggers are hand-written migrations (`drizzle-kit generate --custom`, see server/src/db/sqlManual.ts).
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/src/db/schema.pg.ts',
  out: './server/src/db/migrations-pg',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://localhost:5432/sistema_de_gestao' },
  strict: true,
  verbose: true,
});
