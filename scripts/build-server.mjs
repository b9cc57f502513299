// Bundles the server into build/server.cjs (dependencies stay in node_modules) and copies the
// migrations beside it, so `node build/server.cjs` runs without TypeScript tooling.
import { build } from 'esbuild';
import fs from 'node:fs';

await build({
  entryPoints: ['server/src/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  outfile: 'build/server.cjs',
  sourcemap: true,
  logLevel: 'warning',
});
fs.rmSync('build/migrations', { recursive: true, force: true });
fs.cpSync('server/src/db/migrations', 'build/migrations', { recursive: true });
console.log('build/server.cjs pronto');
