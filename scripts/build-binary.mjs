// Builds build/sistema-de-gestao: one Linux x64 executable (Node's single executable applications)
// embedding the server, the built PWA, the migrations and SQLite's native addon.
// The Node inside is the LTS pinned in scripts/node-do-executavel.json (official build from the npm
// registry), not the one running this script; SQLite's addon is compiled for that Node. Both come
// from scripts/node-do-executavel.mjs, cached under build/runtime/. The rest runs on this Node:
// the client (vite), the bundle (esbuild) and postject.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { prepararNodeDoExecutavel } from './node-do-executavel.mjs';

const SAIDA = 'build/sea';
const BINARIO = 'build/sistema-de-gestao';
const FUSIVEL = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

function passo(texto) {
  console.log(`• ${texto}`);
}

function arquivosEm(pasta, ignorar = () => false) {
  const lista = [];
  for (const entrada of fs.readdirSync(pasta, { withFileTypes: true })) {
    const caminho = path.join(pasta, entrada.name);
    if (entrada.isDirectory()) lista.push(...arquivosEm(caminho, ignorar));
    else if (!ignorar(caminho)) lista.push(caminho);
  }
  return lista.sort();
}

fs.rmSync(SAIDA, { recursive: true, force: true });
fs.mkdirSync(SAIDA, { recursive: true });

const runtime = prepararNodeDoExecutavel();
passo(`Node ${runtime.versao} embutido, better-sqlite3 ${runtime.versaoBetterSqlite3} compilado para ele`);

passo('cliente (vite build)');
execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });

// pdfkit reads its standard fonts' metrics with a runtime require of '#standard-fonts/<Nome>'
// (package subpath imports). The executable can only require built-ins at run time, so those
// calls become static requires that esbuild bundles, and pdfkit resolves to its CommonJS build.
const fontesDoPdfkit = {
  name: 'fontes-do-pdfkit',
  setup(b) {
    b.onResolve({ filter: /^pdfkit$/ }, () => ({ path: path.resolve('node_modules/pdfkit/js/pdfkit.js') }));
    b.onLoad({ filter: /node_modules[\\/]pdfkit[\\/]js[\\/]pdfkit\.js$/ }, (args) => {
      const fonte = fs.readFileSync(args.path, 'utf8');
      const trocado = fonte.replace(/require\$1\('#standard-fonts\/(\w+)'\)/g, (_, nome) => `require('./standard-fonts/${nome}.cjs')`);
      if (trocado === fonte) throw new Error('pdfkit mudou: o carregamento das fontes padrão não foi encontrado');
      return { contents: trocado, loader: 'js' };
    });
  },
};

// The server and its workers (export, WAL checkpoint; issue 19) are bundled alike: everything inside, CommonJS.
const tudoEmbutido = {
  bundle: true,
  platform: 'node',
  // The embedded main script is CommonJS: its require() gives the built-ins, nothing else is loaded.
  format: 'cjs',
  target: `node${runtime.versao.split('.')[0]}`,
  minify: true,
  logLevel: 'warning',
  legalComments: 'none',
  plugins: [fontesDoPdfkit],
  // Some dependencies ship ESM that reads import.meta.url (pdfkit locates its data folder with it);
  // in a CommonJS bundle import.meta is empty, so give it the bundle's own URL.
  define: { 'import.meta.url': '__urlDoBundle' },
  banner: { js: "const __urlDoBundle = require('node:url').pathToFileURL(__filename).href;" },
};
passo('servidor (esbuild, tudo embutido)');
await build({ ...tudoEmbutido, entryPoints: ['server/src/main.ts'], outfile: path.join(SAIDA, 'server.cjs') });
// Each worker (export, WAL checkpoint) is a file the executable extracts with the other assets and starts as a Worker
// (server/src/executavel.ts): a worker's require is Node's ordinary one, but there is no node_modules
// beside it, so it carries its libraries too and opens SQLite with the extracted addon.
passo('trabalhadores de exportação e do checkpoint do WAL (esbuild, tudo embutido)');
const trabalhadores = Object.values(JSON.parse(fs.readFileSync('server/src/trabalhadores.json', 'utf8')));
for (const { fonte, empacotado } of trabalhadores) {
  await build({ ...tudoEmbutido, entryPoints: [`server/src/${fonte}`], outfile: path.join(SAIDA, empacotado) });
}

passo('assets');
// The .br/.gz copies written by the client build (scripts/comprimir.ts) are embedded like every other
// file: the executable serves them as the source tree does (issue 19). A build without them is a mistake.
if (!arquivosEm('build/public').some((c) => c.endsWith('.js.br')) || !arquivosEm('build/public').some((c) => c.endsWith('.js.gz'))) {
  throw new Error('build/public sem cópias .br/.gz: o plugin de compressão do vite.config.ts não rodou');
}
const assets = {};
for (const arquivo of arquivosEm('build/public', (c) => c.endsWith('.map'))) {
  assets[`public/${path.relative('build/public', arquivo).split(path.sep).join('/')}`] = arquivo;
}
for (const pasta of ['migrations', 'migrations-pg']) {
  for (const arquivo of arquivosEm(`server/src/db/${pasta}`)) {
    assets[`${pasta}/${path.relative(`server/src/db/${pasta}`, arquivo).split(path.sep).join('/')}`] = arquivo;
  }
}
// Not node_modules' addon: that one is built for the Node running npm (another ABI).
assets['native/better_sqlite3.node'] = runtime.addon;
for (const { empacotado } of trabalhadores) assets[`trabalhador/${empacotado}`] = path.join(SAIDA, empacotado);
const chaves = Object.keys(assets).sort();
const hash = createHash('sha256');
for (const chave of chaves) hash.update(chave).update('\0').update(fs.readFileSync(assets[chave]));
const pacote = JSON.parse(fs.readFileSync('package.json', 'utf8'));
// The manifest lists the keys (sea.getAssetKeys() only exists on newer Nodes) and names the
// extraction folder: a new runtime or addon changes the hash, so stale files are never reused.
const manifesto = { hash: `${pacote.version}-${hash.digest('hex').slice(0, 16)}`, chaves };
fs.writeFileSync(path.join(SAIDA, 'asset-manifest.json'), JSON.stringify(manifesto));
assets['asset-manifest.json'] = path.join(SAIDA, 'asset-manifest.json');

fs.writeFileSync(
  path.join(SAIDA, 'sea-config.json'),
  JSON.stringify(
    {
      main: path.join(SAIDA, 'server.cjs'),
      output: path.join(SAIDA, 'sea-prep.blob'),
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
      useSnapshot: false,
      assets,
    },
    null,
    2,
  ),
);

// The blob (with its code cache) must come from the same Node that is copied into the binary.
passo(`blob (node ${runtime.versao} --experimental-sea-config)`);
execFileSync(runtime.node, ['--experimental-sea-config', path.join(SAIDA, 'sea-config.json')], { stdio: 'inherit' });

passo(`binário (cópia do node ${runtime.versao} + postject)`);
fs.rmSync(BINARIO, { force: true });
fs.copyFileSync(runtime.node, BINARIO);
fs.chmodSync(BINARIO, 0o755);
try {
  execFileSync('strip', ['--strip-debug', BINARIO], { stdio: 'inherit' });
} catch {
  console.warn('  strip indisponível: binário sem redução de tamanho');
}
execFileSync(
  process.execPath,
  ['node_modules/postject/dist/cli.js', BINARIO, 'NODE_SEA_BLOB', path.join(SAIDA, 'sea-prep.blob'), '--sentinel-fuse', FUSIVEL],
  // postject prints a harmless "Can't find string offset for section name '.note.100'" per section.
  { stdio: ['ignore', 'ignore', 'inherit'] },
);
const tamanho = fs.statSync(BINARIO).size;
console.log(`✓ ${BINARIO} (Node ${runtime.versao}, ${(tamanho / 1024 / 1024).toFixed(1)} MiB, ${chaves.length} arquivos embutidos)`);
