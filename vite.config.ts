import fs from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import { comprimirNoBuild } from './scripts/comprimir';
import { precarregarNoHtml } from './scripts/precarregar';
import { APP_TZ_PADRAO } from './shared/dates';
import { tabelaAoRedor } from './shared/fusos';

// The app's own version (package.json), sent to the server on every request (client/src/versaoApp.ts).
const versaoApp = (JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * Test files about SQLite itself, with no PostgreSQL counterpart to run: its file, its pragmas, its
 * locks between processes on one file, its online backup and restore, its hot-path statements.
 */
const SO_NO_SQLITE = [
  'server/src/db/preparadaDireta.test.ts',
  'server/src/db/esquemas.test.ts',
  'server/test/multiprocesso/**',
  'server/src/operacao/**',
];

/** Debian's PostgreSQL binaries, where server/test/postgres.ts looks for them (PG_BIN, or /usr/lib/postgresql/<versão>/bin). */
const temPostgresNestaMaquina = (() => {
  if (process.env.PG_BIN) return fs.existsSync(`${process.env.PG_BIN}/initdb`);
  if (!fs.existsSync('/usr/lib/postgresql')) return false;
  return fs.readdirSync('/usr/lib/postgresql').some((v) => fs.existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));
})();

/**
 * The server suite again on PostgreSQL (docs/decisions/postgresql.md, 'Testes nos dois motores'): part of
 * every run where PostgreSQL is installed and always under CI=true (where its absence fails the `postgres`
 * project); SERVIDOR_NO_POSTGRES=0 or 1 forces it off or on. Without PostgreSQL the `postgres` project says
 * so and the run goes on without it.
 */
const projetosDoPostgres: TestProjectInlineConfiguration[] =
  (process.env.SERVIDOR_NO_POSTGRES ?? (temPostgresNestaMaquina || process.env.CI === 'true' ? '1' : '0')) === '1'
    ? [
        {
          extends: true,
          test: {
            // Each test app on its own PostgreSQL database (server/test/bancoDeTeste.ts), one cluster for
            // the run (server/test/postgresGlobal.ts).
            name: 'server-pg',
            root: '.',
            environment: 'node',
            include: ['server/**/*.test.ts'],
            exclude: ['**/node_modules/**', '**/.git/**', 'server/**/*.pg.test.ts', ...SO_NO_SQLITE],
            env: { TESTE_BANCO: 'postgres' },
            globalSetup: ['server/test/postgresGlobal.ts'],
            testTimeout: 30_000,
            hookTimeout: 120_000,
          },
        },
      ]
    : [];

// The client lives in client/ and is built into build/public, which the Fastify server serves.
export default defineConfig({
  root: 'client',
  define: {
    __VERSAO_APP__: JSON.stringify(versaoApp),
    // The default APP_TZ's offsets around the build, from Node's time-zone data: a phone that never got
    // the server's table (a first visit) writes dates without starting ICU too (shared/fusos.ts).
    __TABELA_FUSO_PADRAO__: JSON.stringify(tabelaAoRedor(APP_TZ_PADRAO, Date.now(), 730)),
  },
  publicDir: 'public',
  // Per checkout (not node_modules/.vite): worktrees sharing one node_modules do not clash.
  cacheDir: '../.vite-cache',
  plugins: [
    react(),
    VitePWA({
      // 'prompt': a new version waits for the person (and an empty outbox) instead of reloading mid-work.
      registerType: 'prompt',
      injectRegister: null,
      strategies: 'generateSW',
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        id: '/',
        name: 'Sistema de Gestão',
        short_name: 'Gestão',
        description: 'Vendas, rotas e despesas da equipe de campo, mesmo sem internet.',
        lang: 'pt-BR',
        dir: 'ltr',
        start_url: '/dashboard',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: '#0f172a',
        background_color: '#0f172a',
        categories: ['business', 'productivity'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The whole app shell is precached: every screen must open with no signal.
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
        // Source maps are for debugging only; they would double what a phone downloads.
        // The admin's chart library only draws on online-only admin screens: the phones,
        // which precache in the background, do not download it (its figures keep their tables without it).
        globIgnores: ['**/*.map', '**/GraficoUPlot-*'],
        // The worker's own map is not served either (server/src/app.ts): no sourceMappingURL pointing at a 404.
        sourcemap: false,
        // Client-side routes (/vendas, /despesas...) load the shell offline...
        navigateFallback: '/index.html',
        // ...but the API is never answered by the service worker: data freshness is the app's job (IndexedDB).
        navigateFallbackDenylist: [/^\/api\//],
        runtimeCaching: [],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        // The new worker waits; the app tells it to take over when it is safe (see client/src/pwa).
        skipWaiting: false,
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
    // A phone's first visit is the login; its chunk is fetched alongside the main file
    // instead of after it has run (scripts/precarregar.ts).
    precarregarNoHtml(['client/src/auth/PaginaLogin.tsx']),
    // .br and .gz next to each text file of the build (after the service worker is written),
    // served by the server itself (server/src/app.ts, preCompressed).
    comprimirNoBuild(),
  ],
  build: {
    outDir: '../build/public',
    emptyOutDir: true,
    // Written for whoever runs the server (decoding a stack trace), never served (server/src/app.ts)
    // nor precached; hidden: the JS does not point browsers at a URL that answers 404.
    sourcemap: 'hidden',
    target: 'es2022',
    rolldownOptions: {
      output: {
        // A few files where there were dozens, same bytes (docs/decisions/desempenho-cliente.md, 'Três arquivos em
        // vez de dezenas').
        // - `index`: everything the first screen runs (the entry and its static imports: React, the
        //   router, the shell). Split, it was 12 files requested at once; over HTTP/1.1 the browser
        //   opens 6 connections to a host, so on 3G (300 ms a request) they came in waves.
        // - `motor`: the sync engine, IndexedDB (Dexie) and the write types it registers (offline/estado.ts
        //   carregarSync), with what they import; `painel`: the employee's dashboard beyond that. Left to
        //   the bundler, opening the dashboard asked for 35 files of 1-3 KB (29 KB for Dexie) in six waves
        //   before the panel could draw; now two, 41 + 15 KB (brotli), fetched side by side. Measured
        //   (files, KB sent, service worker off): an employee's dashboard 50 / 244 -> 11 / 191; the
        //   admin's, which loads the engine too, 55 / 292 -> 26 / 261; the login 27 / 198 -> 10 / 175.
        // Every other screen and the rare pieces (the pendências export, zod, the QR reader) still
        // load on demand in their own chunks.
        codeSplitting: {
          groups: [
            { name: 'index', tags: ['$initial'], priority: 3 },
            {
              name: 'motor',
              priority: 2,
              test: (id: string) => (/client\/src\/offline\//.test(id) && !/offline\/exportacao/.test(id)) || /node_modules\/dexie/.test(id),
            },
            {
              name: 'painel',
              priority: 1,
              test: (id: string) => /client\/src\/dashboard\//.test(id) && !/DashboardAdmin/.test(id),
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  test: {
    root: '.',
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    projects: [
      {
        extends: true,
        test: { name: 'shared', root: '.', environment: 'node', include: ['shared/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'server',
          root: '.',
          environment: 'node',
          include: ['server/**/*.test.ts'],
          // vitest's default exclusions, plus the PostgreSQL project's files.
          exclude: ['**/node_modules/**', '**/.git/**', 'server/**/*.pg.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          // On a real PostgreSQL (server/test/postgres.ts): skipped with a message without Debian's
          // binaries, a failure then under CI=true. One cluster at a time: the machine has 2 cores.
          name: 'postgres',
          root: '.',
          environment: 'node',
          include: ['server/**/*.pg.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      ...projetosDoPostgres,
      {
        extends: true,
        test: {
          name: 'client',
          root: '.',
          environment: 'jsdom',
          include: ['client/**/*.test.{ts,tsx}'],
          setupFiles: ['client/src/test/setup.ts'],
          // Above the 10 s asyncUtilTimeout of the setup: a waited state fails with its own message.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          root: '.',
          environment: 'node',
          include: ['e2e/**/*.test.ts'],
          testTimeout: 90_000,
          hookTimeout: 90_000,
          // One browser at a time: the machine has 2 cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
