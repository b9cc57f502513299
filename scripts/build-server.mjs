// Bundles the server into build/server.cjs (dependencies stay in node_modules), the export and WAL checkpoint
// workers into build/trabalhador-exportacao.cjs and build/trabalhador-checkpoint.cjs (server/src/recursos.ts
// finds them beside the bundle), and
// copies the migrations (SQLite's and PostgreSQL's) beside them, so `node build/server.cjs` runs without TypeScript tooling.
// `--saida <pasta>` writes them to another folder (inside the project, so node_modules is found).
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';

const indice = process.argv.indexOf('--saida');
const saida = indice > 0 ? process.argv[indice + 1] : 'build';
const comum = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', sourcemap: true, logLevel: 'warning' };
await build({ ...comum, entryPoints: ['server/src/main.ts'], outfile: path.join(saida, 'server.cjs') });
await build({ ...comum, entryPoints: ['server/src/relatorios/trabalhador.ts'], outfile: path.join(saida, 'trabalhador-exportacao.cjs') });
await build({ ...comum, entryPoints: ['server/src/db/trabalhadorCheckpoint.ts'], outfile: path.join(saida, 'trabalhador-checkpoint.cjs') });
for (const [origem, pasta] of [['server/src/db/migrations', 'migrations'], ['server/src/db/migrations-pg', 'migrations-pg']]) {
  fs.rmSync(path.join(saida, pasta), { recursive: true, force: true });
  fs.cpSync(origem, path.join(saida, pasta), { recursive: true });
}
console.log(`${path.join(saida, 'server.cjs')} pronto`);
