/**
 * Process entry. `serve` (the default) opens the database, applies migrations, makes sure there is
 * a first admin and a city list, and listens. `cities:import PATH` loads IBGE's CSV files.
 */
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import pkg from '../../package.json' with { type: 'json' };
import { criarApp } from './app';
import { obterSegredoJwt } from './auth/segredo';
import { garantirCidades } from './cidades/carga';
import { ErroDeImportacao, lerArquivosIbge } from './cidades/importacao';
import { gravarEstadosECidades } from './cidades/repositorio';
import { carregarConfig, ErroDeConfiguracao, type Config } from './config';
import { abrirBanco } from './db';
import { localizarRecursos } from './recursos';
import { garantirPrimeiroAdmin } from './usuarios/primeiro-admin';

const AJUDA = `Sistema de Gestão ${pkg.version}

Uso: sistema-de-gestao [comando]

Comandos:
  serve                 inicia o servidor (padrão)
  cities:import CAMINHO importa estados e municípios do IBGE (pasta com municipios.csv e estados.csv)
  --help                mostra esta ajuda
  --version             mostra a versão

Configuração por variáveis de ambiente: PORT, HOST, DATA_DIR, ADMIN_EMAIL, ADMIN_PASSWORD,
ADMIN_NAME, JWT_SECRET, JWT_TTL, APP_TZ, LOG_LEVEL, CENTRO_NOME, TRUST_PROXY, LOGIN_RATE_LIMIT.`;

const CAMPOS_SENSIVEIS = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];

function abrirBancoDaConfig(config: Config) {
  fs.mkdirSync(path.join(config.dataDir, 'uploads'), { recursive: true });
  const { pastaMigracoes } = localizarRecursos();
  return abrirBanco({ arquivo: path.join(config.dataDir, 'app.db'), pastaMigracoes });
}

async function servir(config: Config) {
  const db = abrirBancoDaConfig(config);
  const app = await criarApp({
    config,
    db,
    segredoJwt: obterSegredoJwt(config.dataDir, config.jwtSecret),
    pastaCliente: localizarRecursos().pastaCliente,
    logger: { level: config.logLevel, redact: CAMPOS_SENSIVEIS },
    versao: pkg.version,
  });
  await garantirPrimeiroAdmin(db, config, app.log);
  await garantirCidades(db, app.log);

  let encerrando = false;
  const encerrar = async (sinal: string) => {
    if (encerrando) return;
    encerrando = true;
    app.log.info({ sinal }, 'encerrando: aguardando requisições em andamento');
    try {
      await app.close();
    } finally {
      db.$client.close();
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void encerrar('SIGTERM'));
  process.on('SIGINT', () => void encerrar('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info({ dataDir: config.dataDir }, `Sistema de Gestão em http://${config.host}:${config.port}`);
}

function importarCidades(config: Config, caminho: string | undefined) {
  const log = pino({ level: config.logLevel });
  if (!caminho) throw new ErroDeImportacao('Informe o caminho: cities:import CAMINHO (pasta com municipios.csv e estados.csv).');
  const { ufs, cidades } = lerArquivosIbge(path.resolve(caminho));
  const db = abrirBancoDaConfig(config);
  try {
    const r = gravarEstadosECidades(db, ufs, cidades);
    log.info(r, `Importados ${r.estados} estados e ${r.cidades} municípios.`);
  } finally {
    db.$client.close();
  }
}

async function principal(argumentos: string[]) {
  const [comando = 'serve', ...resto] = argumentos;
  if (comando === '--help' || comando === '-h' || comando === 'help') {
    console.log(AJUDA);
    return;
  }
  if (comando === '--version' || comando === '-v') {
    console.log(pkg.version);
    return;
  }
  const config = carregarConfig();
  if (comando === 'serve') return servir(config);
  if (comando === 'cities:import') return importarCidades(config, resto[0]);
  console.error(`Comando desconhecido: ${comando}\n\n${AJUDA}`);
  process.exitCode = 2;
}

principal(process.argv.slice(2)).catch((erro: unknown) => {
  if (erro instanceof ErroDeConfiguracao || erro instanceof ErroDeImportacao) {
    console.error(erro.message);
  } else {
    console.error('Falha ao iniciar:', erro);
  }
  process.exit(1);
});
