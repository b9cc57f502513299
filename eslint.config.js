import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['build/', 'node_modules/', 'test-results/', 'coverage/', 'server/src/db/migrations/', 'data/', 'bench/.results/'] }, // bench/.results: profiles and scratch output of the benchmarks
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // shared/ is used by both sides: it must not depend on either, nor on a framework or a database.
    // Browser code gets zod through shared/zod.ts: zod probes `new Function` on first use, which the
    // CSP refuses, and shared/zod.ts turns that probe off before any schema is built.
    files: ['client/**/*.{ts,tsx}', 'shared/**/*.ts'],
    ignores: ['shared/zod.ts', '**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', allowTypeImports: true, message: "Importe z de 'shared/zod' (modo sem eval, exigido pela CSP)." }],
          patterns: [{ group: ['zod/*'], message: "Importe z de 'shared/zod' (modo sem eval, exigido pela CSP)." }],
        },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/zod.ts', 'shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', allowTypeImports: true, message: "Importe z de 'shared/zod' (modo sem eval, exigido pela CSP)." }],
          patterns: [
            { group: ['zod/*'], message: "Importe z de 'shared/zod' (modo sem eval, exigido pela CSP)." },
            { group: ['**/client/**', '**/server/**'], message: 'shared/ não pode importar código do cliente ou do servidor.' },
            { group: ['react', 'react-dom', 'fastify', 'dexie', 'drizzle-orm', 'drizzle-orm/*', 'better-sqlite3'], message: 'shared/ fica livre de frameworks e banco de dados.' },
          ],
        },
      ],
    },
  },
  {
    // The boundary holds for shared/zod.ts and shared tests too (they alone may import zod itself).
    files: ['shared/zod.ts', 'shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/client/**', '**/server/**'], message: 'shared/ não pode importar código do cliente ou do servidor.' },
            { group: ['react', 'react-dom', 'fastify', 'dexie', 'drizzle-orm', 'drizzle-orm/*', 'better-sqlite3'], message: 'shared/ fica livre de frameworks e banco de dados.' },
          ],
        },
      ],
    },
  },
  {
    // The data functions are async (the same code runs on PostgreSQL: docs/decisions/postgresql.md, 'O mesmo
    // código nos dois motores'): a promise used as a value (`if (buscar(db, id))`) or left unawaited is a write
    // that may not have happened yet. Type-aware, so only on server code.
    files: ['server/src/**/*.ts', 'server/test/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
);
