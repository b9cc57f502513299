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
import zlib from 'node:zlib';
import { build } from 'esbuild';
import { prepararNodeDoExecutavel } from './node-do-executavel.mjs';

const SAIDA = 'build/sea';
/** V8 flags the executable runs with; the code cache is made under the same ones, or V8 rejects it at start. */
const FLAGS_DO_V8 = ['--max-semi-space-size=2'];
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

// The server and its workers (export, WAL checkpoint) are bundled alike: everything inside, CommonJS.
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
// Libraries a server on the default configuration (SQLite, receipts on disk, no continuous copy) never
// loads: PostgreSQL's client and the S3 SDK; and those of the exports, which run in their worker
// (its own bundle, below) and on this thread only when that worker cannot start. Every import of them in the server's bundle becomes a
// stub that asks the executable for its family's file (server/src/executavel.ts,
// carregarBibliotecaSobDemanda), built apart below, embedded compressed and extracted on first use.
// The source imports them only behind their configuration (import() in db/motor.ts, arquivos/armazenamento.ts,
// operacao/copiaContinuaComandos.ts), so on the default configuration that file is never even written.
const FAMILIAS_SOB_DEMANDA = { postgres: /^(pg|pg-[\w-]+)(\/.*)?$/, s3: /^@(aws-sdk|smithy|aws-crypto)\//, exportacao: /^(exceljs|pdfkit)$/ };
const pedidosSobDemanda = Object.fromEntries(Object.keys(FAMILIAS_SOB_DEMANDA).map((f) => [f, new Set()]));
const EXECUTAVEL = path.resolve('server/src/executavel.ts');
const sobDemanda = {
  name: 'bibliotecas-sob-demanda',
  setup(b) {
    b.onResolve({ filter: /^(pg|pg-[\w-]+|@aws-sdk\/|@smithy\/|@aws-crypto\/|exceljs$|pdfkit$)/ }, (args) => {
      const familia = Object.keys(FAMILIAS_SOB_DEMANDA).find((f) => FAMILIAS_SOB_DEMANDA[f].test(args.path));
      if (!familia) return undefined;
      pedidosSobDemanda[familia].add(args.path);
      return { path: `${familia}:${args.path}`, namespace: 'sob-demanda' };
    });
    b.onLoad({ filter: /.*/, namespace: 'sob-demanda' }, (args) => {
      const [familia, ...resto] = args.path.split(':');
      const especificador = resto.join(':');
      return {
        contents: `module.exports = require(${JSON.stringify(EXECUTAVEL)}).carregarBibliotecaSobDemanda(${JSON.stringify(familia)})[${JSON.stringify(especificador)}];`,
        loader: 'js',
        resolveDir: process.cwd(),
      };
    });
  },
};
passo('servidor (esbuild, tudo embutido menos PostgreSQL, S3 e as bibliotecas das exportações)');
await build({ ...tudoEmbutido, plugins: [sobDemanda, ...tudoEmbutido.plugins], entryPoints: ['server/src/main.ts'], outfile: path.join(SAIDA, 'server.cjs') });
passo(`bibliotecas sob demanda (${Object.entries(pedidosSobDemanda).map(([f, p]) => `${f}: ${[...p].join(', ')}`).join('; ')})`);
const bibliotecas = {};
for (const [familia, pedidos] of Object.entries(pedidosSobDemanda)) {
  if (pedidos.size === 0) continue;
  // One file per family, exporting each module the server asked for by its name: one copy of what they share.
  const entrada = `module.exports = {${[...pedidos].map((p) => `${JSON.stringify(p)}: require(${JSON.stringify(p)})`).join(', ')}};`;
  const saida = path.join(SAIDA, `biblioteca-${familia}.cjs`);
  await build({ ...tudoEmbutido, stdin: { contents: entrada, resolveDir: process.cwd(), loader: 'js' }, outfile: saida });
  bibliotecas[familia] = saida;
}
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
// file: the executable serves them as the source tree does. A build without them is a mistake.
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
// Extracted on first use only (server/src/executavel.ts), not with the rest at start.
const sobDemandaChaves = {};
for (const [familia, arquivo] of Object.entries(bibliotecas)) {
  sobDemandaChaves[familia] = `bibliotecas/${familia}.cjs`;
  assets[`bibliotecas/${familia}.cjs`] = arquivo;
}
const chaves = Object.keys(assets).sort();
const hash = createHash('sha256');
for (const chave of chaves) hash.update(chave).update('\0').update(fs.readFileSync(assets[chave]));
const pacote = JSON.parse(fs.readFileSync('package.json', 'utf8'));
// Every asset is written to disk at extraction, so it travels compressed (brotli) in the binary and is
// decompressed as it is written; the PWA's .br and .gz copies are compressed already.
const comprimidas = [];
for (const chave of chaves) {
  if (/\.(br|gz)$/.test(chave)) continue;
  const destino = path.join(SAIDA, 'comprimidos', `${chave}.br`);
  fs.mkdirSync(path.dirname(destino), { recursive: true });
  const original = fs.readFileSync(assets[chave]);
  fs.writeFileSync(
    destino,
    zlib.brotliCompressSync(original, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 10, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: original.length } }),
  );
  assets[chave] = destino;
  comprimidas.push(chave);
}
// The manifest lists the keys (sea.getAssetKeys() only exists on newer Nodes), which of them are
// compressed and which wait for their first use, and names the extraction folder: a new runtime or
// addon changes the hash, so stale files are never reused.
const manifesto = {
  hash: `${pacote.version}-${hash.digest('hex').slice(0, 16)}`,
  chaves: chaves.filter((c) => !Object.values(sobDemandaChaves).includes(c)),
  comprimidas,
  sobDemanda: sobDemandaChaves,
};
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
      // The young generation's semi-spaces capped at 2 MB (V8 grows them to 16 MB each): about 10 MB
      // less memory at rest, for a server whose requests allocate little (docs/decisions.md).
      execArgv: FLAGS_DO_V8,
      assets,
    },
    null,
    2,
  ),
);

// The blob (with its code cache) must come from the same Node that is copied into the binary.
passo(`blob (node ${runtime.versao} --experimental-sea-config)`);
execFileSync(runtime.node, [...FLAGS_DO_V8, '--experimental-sea-config', path.join(SAIDA, 'sea-config.json')], { stdio: 'inherit' });

passo(`binário (cópia do node ${runtime.versao} + postject)`);
fs.rmSync(BINARIO, { force: true });
fs.copyFileSync(runtime.node, BINARIO);
fs.chmodSync(BINARIO, 0o755);
try {
  // All of the symbol table, not only the debug sections: 14 MB the runtime never reads (addons link
  // against the dynamic symbols, which stay).
  execFileSync('strip', ['--strip-all', BINARIO], { stdio: 'inherit' });
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
