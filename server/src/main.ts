/**
 * Process entry, the same for `npm start` and the single executable.
 *   serve (default)            open the database, migrate, first admin, cities, listen
 *   backup FILE                consistent copy of the database while the server runs
 *   restore FILE               put a copy back (refused while the server runs)
 *   restore-continuous FILE    the continuous off-site copy (COPIA_S3_*) into a new file
 *   migrate-to-postgres FILE   copy a SQLite database, its ledger and receipts into DATABASE_URL (and S3_*)
 *   cities:import PATH         load IBGE's CSV files
 *   user:reset-password EMAIL  new random password for someone who lost access
 */
import path from 'node:path';
import pino from 'pino';
import pkg from '../../package.json' with { type: 'json' };
import { criarApp } from './app';
import { obterSegredoJwt } from './auth/segredo';
import { garantirCidades } from './cidades/carga';
import { ErroDeImportacao, lerArquivosIbge } from './cidades/importacao';
import { gravarEstadosECidades } from './cidades/repositorio';
import { carregarConfig, ErroDeConfiguracao, type Config } from './config';
import { abrirBancoDoMotor, arquivoSqliteDaConfig, ErroSoNoSqlite, exigirSqlite, fecharBanco, motorDaConfig } from './db/motor';
import { ErroApp } from './errors';
import { extrairAssets, rodandoComoExecutavel } from './executavel';
import { criarArmazenamento } from './arquivos/armazenamento';
import { pastaUploads } from './despesas/cupons';
import { iniciarCheckpointDoServidor } from './db/checkpointDoWal';
import { ErroDeCopia, fazerCopia, restaurarCopia } from './operacao/copia';
import { ErroDeMigracao, migrarParaPostgres, recusarComServidorRodando } from './operacao/migrarParaPostgres';
import { iniciarCopiaContinuaDoServidor, pararCopiaContinua, restaurarCopiaContinuaDoComando } from './operacao/copiaContinuaComandos';
import { prepararPastaDeDados, protegerArquivosDoBanco, restringirPermissoes } from './operacao/permissoes';
import { registrarProcesso, servidorRodando } from './operacao/processo';
import { comTravaEntreProcessos } from './operacao/travaEntreProcessos';
import { localizarRecursos, usarTrabalhadoresDoExecutavel, type Recursos } from './recursos';
import { garantirPrimeiroAdmin } from './usuarios/primeiro-admin';
import { redefinirSenhaPorEmail } from './usuarios/servico';
import { erroSemParametros } from './saude/erroNoLog';

const AJUDA = `Sistema de Gestão ${pkg.version}

Uso: sistema-de-gestao [comando]

Comandos:
  serve                       inicia o servidor (padrão)
  backup ARQUIVO              cópia consistente do banco, mesmo com o servidor rodando
  restore ARQUIVO             restaura uma cópia (recusado com o servidor rodando)
  restore-continuous DESTINO  restaura a cópia contínua do bucket (COPIA_S3_*) num arquivo novo, comprovantes em uploads/ ao lado
  migrate-to-postgres ARQUIVO copia um banco SQLite (e os comprovantes em uploads/ ao lado dele) para o PostgreSQL
                              de DATABASE_URL (e o bucket S3_*, se definido); pode ser repetido, confere no fim
  cities:import CAMINHO       importa estados e municípios do IBGE (pasta com municipios.csv e estados.csv)
  user:reset-password EMAIL   gera uma nova senha para o usuário, desbloqueia e encerra as sessões dele
  --help                      mostra esta ajuda
  --version                   mostra a versão

Configuração por variáveis de ambiente: PORT, HOST, DATA_DIR, ADMIN_EMAIL, ADMIN_PASSWORD,
ADMIN_NAME, JWT_SECRET, JWT_TTL, APP_TZ, LOG_LEVEL, CENTRO_NOME, TRUST_PROXY, LOGIN_RATE_LIMIT,
APP_CACHE_DIR (só no executável: onde os arquivos embutidos são extraídos), DISCO_MINIMO_MB (espaço livre
abaixo do qual /api/health responde 503; padrão 200); comprovantes num bucket
S3/compatível: S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE, S3_PREFIX;
cópia contínua do banco e dos comprovantes num bucket: COPIA_S3_BUCKET, COPIA_S3_PREFIX e, se diferentes das S3_*,
COPIA_S3_ENDPOINT, COPIA_S3_REGION, COPIA_S3_ACCESS_KEY_ID, COPIA_S3_SECRET_ACCESS_KEY, COPIA_S3_FORCE_PATH_STYLE.`;

const CAMPOS_SENSIVEIS = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];

/** Where the migrations and the PWA are, and SQLite's addon when running as the executable. */
interface Ambiente {
  recursos: Recursos;
  nativeBinding?: unknown;
}

let ambienteAtual: Ambiente | undefined;
function ambiente(): Ambiente {
  if (!ambienteAtual) {
    if (rodandoComoExecutavel()) {
      const { recursos, addon, trabalhadores } = extrairAssets();
      ambienteAtual = { recursos, nativeBinding: addon };
      usarTrabalhadoresDoExecutavel(trabalhadores);
    } else {
      ambienteAtual = { recursos: localizarRecursos() };
    }
  }
  return ambienteAtual;
}

const arquivoDoBanco = arquivoSqliteDaConfig;

async function abrirBancoDaConfig(config: Config) {
  // DATA_DIR and uploads/ 700, the database files 600 (an older install is tightened here).
  const naoApertados = prepararPastaDeDados(config.dataDir);
  if (naoApertados.length > 0) log(config).warn({ caminhos: naoApertados }, 'permissões não restringidas ao dono (o processo não é o dono destes arquivos)');
  const { recursos, nativeBinding } = ambiente();
  const db = await abrirBancoDoMotor(config, recursos, nativeBinding);
  if (motorDaConfig(config) === 'sqlite') protegerArquivosDoBanco(arquivoDoBanco(config));
  return db;
}

async function servir(config: Config) {
  // Several processes may start at once on one DATA_DIR behind a proxy: one at a
  // time migrates the database, creates the first admin and loads the cities (each a check, then a
  // write); the next one finds them done.
  const { db, app } = await comTravaEntreProcessos(path.join(config.dataDir, 'partida.trava'), async () => {
    const db = await abrirBancoDaConfig(config);
    const app = await criarApp({
      config,
      db,
      segredoJwt: obterSegredoJwt(config.dataDir, config.jwtSecret),
      pastaCliente: ambiente().recursos.pastaCliente,
      logger: { level: config.logLevel, redact: CAMPOS_SENSIVEIS },
      versao: pkg.version,
    });
    await garantirPrimeiroAdmin(db, config, app.log);
    await garantirCidades(db, app.log);
    return { db, app };
  });

  // WAL checkpoints in a thread of their own, not in the COMMIT of whichever request crosses the limit.
  const checkpointDoWal = iniciarCheckpointDoServidor(config, db, app.log);
  let removerPid = () => {};
  let encerrando = false;
  const encerrar = async (sinal: string) => {
    if (encerrando) return;
    encerrando = true;
    app.log.info({ sinal }, 'encerrando: aguardando as requisições em andamento');
    try {
      await app.close(); // stops accepting, lets in-flight requests finish
    } finally {
      // The last cycle of the continuous copy, then its lock released, before the database closes.
      await pararCopiaContinua();
      await checkpointDoWal?.parar();
      await fecharBanco(db);
      removerPid();
      app.log.info('encerrado');
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void encerrar('SIGTERM'));
  process.on('SIGINT', () => void encerrar('SIGINT'));

  // Before listening: the first batches already wait for the continuous off-site copy (COPIA_S3_BUCKET).
  // Of SQLite's file: a PostgreSQL has its own (the provider's; docs/deploy.md).
  if (motorDaConfig(config) === 'sqlite') iniciarCopiaContinuaDoServidor(config, app.log, ambiente().nativeBinding);
  await app.listen({ port: config.port, host: config.host });
  removerPid = registrarProcesso(config.dataDir);
  // node: the runtime serving (the executable's own embedded LTS, or the machine's under npm start).
  app.log.info({ dataDir: config.dataDir, versao: pkg.version, node: process.version }, `Sistema de Gestão em http://${config.host}:${config.port}`);
}

function log(config: Config) {
  return pino({ level: config.logLevel, serializers: { err: erroSemParametros } });
}

async function importarCidades(config: Config, caminho: string | undefined) {
  if (!caminho) throw new ErroDeImportacao('Informe o caminho: cities:import CAMINHO (pasta com municipios.csv e estados.csv).');
  const { ufs, cidades } = lerArquivosIbge(path.resolve(caminho));
  const db = await abrirBancoDaConfig(config);
  try {
    const r = await gravarEstadosECidades(db, ufs, cidades);
    log(config).info(r, `Importados ${r.estados} estados e ${r.cidades} municípios.`);
  } finally {
    await fecharBanco(db);
  }
}

function copiar(config: Config, destino: string | undefined) {
  exigirSqlite(config, 'backup', 'use o pg_dump (ou as cópias do PostgreSQL gerenciado) para copiar o banco.');
  if (!destino) throw new ErroDeCopia('Informe o arquivo de destino: backup ARQUIVO');
  const { bytes } = fazerCopia(arquivoDoBanco(config), destino, ambiente().nativeBinding);
  log(config).info({ arquivo: path.resolve(destino), bytes }, `Cópia do banco gravada em ${path.resolve(destino)}.`);
}

async function restaurar(config: Config, origem: string | undefined) {
  exigirSqlite(config, 'restore', 'use o pg_restore (ou a restauração do PostgreSQL gerenciado).');
  if (!origem) throw new ErroDeCopia('Informe o arquivo da cópia: restore ARQUIVO');
  const pid = servidorRodando(config.dataDir);
  if (pid) throw new ErroDeCopia(`O servidor está rodando (processo ${pid}) com ${config.dataDir}. Pare o servidor antes de restaurar.`);
  const { anterior } = restaurarCopia(arquivoDoBanco(config), origem, ambiente().nativeBinding);
  // Migrations bring an older copy up to this version now, not at the next request.
  await fecharBanco(await abrirBancoDaConfig(config));
  log(config).info({ anterior }, `Banco restaurado de ${path.resolve(origem)}.${anterior ? ` O banco anterior foi guardado em ${anterior}.` : ''}`);
}

async function migrarSqliteParaPostgres(config: Config, arquivo: string | undefined) {
  if (!arquivo) throw new ErroDeMigracao('Informe o banco SQLite de origem: migrate-to-postgres ARQUIVO (por exemplo DATA_DIR/app.db).');
  if (!config.databaseUrl) throw new ErroDeMigracao('Defina DATABASE_URL (postgres://...) com o PostgreSQL de destino.');
  // Before PostgreSQL is even opened (and migrated): nothing is touched while a server writes the source.
  recusarComServidorRodando(arquivo);
  const logger = log(config);
  const { abrirBancoPostgres } = await import('./db/postgres');
  const pg = await abrirBancoPostgres({ url: config.databaseUrl, pastaMigracoes: ambiente().recursos.pastaMigracoesPg });
  const armazenamento = await criarArmazenamento(config, pastaUploads(config.dataDir), logger);
  try {
    const r = await migrarParaPostgres({
      arquivoSqlite: path.resolve(arquivo),
      pg,
      armazenamento,
      pastaUploadsDestino: pastaUploads(config.dataDir),
      nativeBinding: ambiente().nativeBinding,
      progresso: (mensagem) => console.log(mensagem),
    });
    console.log(
      `Migração conferida: ${r.tabelas.reduce((n, t) => n + t.postgres, 0)} linhas em ${r.tabelas.length} tabelas, todas com o mesmo conteúdo nos dois bancos, ` +
        `corrente de saldos íntegra (${r.funcionariosComSaldo} funcionários), ${r.comprovantes.nomeados} comprovantes presentes (${r.comprovantes.copiados} copiados agora).`,
    );
  } finally {
    armazenamento.fechar();
    await pg.$client.end();
  }
}

async function redefinirSenha(config: Config, email: string | undefined) {
  if (!email) throw new ErroDeCopia('Informe o email: user:reset-password EMAIL');
  const db = await abrirBancoDaConfig(config);
  try {
    const { usuario, senha } = await redefinirSenhaPorEmail(db, email);
    console.log(`Nova senha de ${usuario.email}: ${senha}\n(anote agora; as sessões abertas desse usuário foram encerradas)`);
  } finally {
    await fecharBanco(db);
  }
}

async function principal(argumentos: string[]) {
  // Before anything is written (database, receipts, backups, the JWT secret, the executable's extracted
  // assets): everything this process creates is its owner's only (operacao/permissoes.ts).
  restringirPermissoes();
  const [comando = 'serve', ...resto] = argumentos;
  if (comando === '--help' || comando === '-h' || comando === 'help') return console.log(AJUDA);
  if (comando === '--version' || comando === '-v') return console.log(pkg.version);
  const config = carregarConfig();
  switch (comando) {
    case 'serve':
      return servir(config);
    case 'restore-continuous':
      exigirSqlite(config, 'restore-continuous', 'a cópia contínua é a do banco SQLite; o PostgreSQL restaura pelas cópias dele.');
      return restaurarCopiaContinuaDoComando(config, resto[0], ambiente().nativeBinding);
    case 'backup':
      return copiar(config, resto[0]);
    case 'restore':
      return restaurar(config, resto[0]);
    case 'migrate-to-postgres':
      return migrarSqliteParaPostgres(config, resto[0]);
    case 'cities:import':
      return importarCidades(config, resto[0]);
    case 'user:reset-password':
      return redefinirSenha(config, resto[0]);
    default:
      console.error(`Comando desconhecido: ${comando}\n\n${AJUDA}`);
      process.exitCode = 2;
  }
}

principal(process.argv.slice(2)).catch((erro: unknown) => {
  if (erro instanceof ErroDeConfiguracao || erro instanceof ErroSoNoSqlite || erro instanceof ErroDeMigracao || erro instanceof ErroDeImportacao || erro instanceof ErroDeCopia || erro instanceof ErroApp) {
    console.error(erro.message);
  } else {
    // Without a failed query's parameters (personal data), as in the server's log.
    console.error('Falha:', erroSemParametros(erro));
  }
  process.exit(1);
});
