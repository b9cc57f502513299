// Bundles the server into build/server.cjs (dependencies stay in node_modules), each worker of
// server/src/trabalhadores.json (export, WAL checkpoint) beside it (server/src/recursos.ts finds them there), and
// copies the migrations (SQLite's and PostgreSQL's) beside them, so `node build/server.cjs` runs without TypeScript tooling.
// `--saida <pasta>` writes them to another folder (inside the project, so node_modules is found).
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';

const indice = process.argv.indexOf('--saida');
const saida = indice > 0 ? process.argv[indice + 1] : 'build';
const comum = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', sourcemap: true, logLevel: 'warning' };
await build({ ...comum, entryPoints: ['server/src/main.ts'], outfile: path.join(saida, 'server.cjs') });
const trabalhadores = JSON.parse(fs.readFileSync('server/src/trabalhadores.json', 'utf8'));
for (const { fonte, empacotado } of Object.values(trabalhadores)) {
  await build({ ...comum, entryPoints: [`server/src/${fonte}`], outfile: path.join(saida, empacotado) });
}
for (const [origem, pasta] of [['server/src/db/migrations', 'migrations'], ['server/src/db/migrations-pg', 'migrations-pg']]) {
  fs.rmSync(path.join(saida, pasta), { recursive: true, force: true });
  fs.cpSync(origem, path.join(saida, pasta), { recursive: true });
}
console.log(`${path.join(saida, 'server.cjs')} pronto`);
