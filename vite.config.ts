/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The client lives in client/ and is built into build/public, which the Fastify server serves.
export default defineConfig({
  root: 'client',
  publicDir: 'public',
  // Per checkout (not node_modules/.vite): worktrees sharing one node_modules do not clash.
  cacheDir: '../.vite-cache',
  plugins: [react()],
  build: {
    outDir: '../build/public',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
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
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          root: '.',
          environment: 'jsdom',
          include: ['client/**/*.test.{ts,tsx}'],
          setupFiles: ['client/src/test/setup.ts'],
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
