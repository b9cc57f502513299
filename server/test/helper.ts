/**
 * Builds the real app on a temporary SQLite database (a fresh folder per call), with the first
 * admin and the hand-written city fixture loaded, plus small helpers to call it as someone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { CodigoErro } from '../../shared/api/errors';
import { criarApp, type OpcoesApp } from '../src/app';
import { usarCustoDeSenhaBaixoSomenteEmTestes } from '../src/auth/senha';
import { lerArquivosIbge } from '../src/cidades/importacao';
import { gravarEstadosECidades } from '../src/cidades/repositorio';
import { carregarConfig, type Config } from '../src/config';
import type { Db } from '../src/db';
import { abrirBancoDeTeste } from './bancoDeTeste';
import type { App } from '../src/tipos';
import { garantirPrimeiroAdmin } from '../src/usuarios/primeiro-admin';

export const PASTA_FIXTURE_IBGE = path.join(process.cwd(), 'server', 'test', 'fixtures', 'ibge');
export const ADMIN = { email: 'admin@teste.com.br', senha: 'admin123' };

const logSilencioso = { info() {}, warn() {} };

// The suite signs in hundreds of times: OWASP's scrypt cost (production) would take minutes of it.
usarCustoDeSenhaBaixoSomenteEmTestes();

export interface AppDeTeste {
  app: App;
  db: Db;
  config: Config;
  dataDir: string;
  fechar(): Promise<void>;
  /** Signs in and returns the token. */
  login(email: string, senha: string): Promise<string>;
  tokenAdmin(): Promise<string>;
  /** Creates an employee through the API and returns its id, credentials and token. */
  criarFuncionario(dados?: Partial<{ nome: string; email: string; senha: string }>): Promise<{ id: number; email: string; senha: string; token: string }>;
  /** `app.inject` with the bearer token when given. */
  chamar(opcoes: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
}

let sequencia = 0;

export async function criarAppDeTeste(
  opcoes: {
    env?: Record<string, string>;
    cidades?: boolean;
    pastaCliente?: string;
    aoRegistrarRota?: OpcoesApp['aoRegistrarRota'];
    /** The app's logger (default: none); a test that reads the log gives its own stream. */
    logger?: OpcoesApp['logger'];
    copiaContinua?: OpcoesApp['copiaContinua'];
  } = {},
): Promise<AppDeTeste> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-teste-'));
  const config = carregarConfig({
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.senha,
    JWT_SECRET: 'segredo-de-teste-com-mais-de-32-caracteres',
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: '1000',
    ...opcoes.env,
  });
  // SQLite in dataDir, or a fresh PostgreSQL database under TESTE_BANCO=postgres (bancoDeTeste.ts).
  const banco = await abrirBancoDeTeste(dataDir);
  const { db } = banco;
  const app = await criarApp({
    config,
    db,
    segredoJwt: config.jwtSecret!,
    pastaCliente: opcoes.pastaCliente ?? null,
    ...(opcoes.aoRegistrarRota ? { aoRegistrarRota: opcoes.aoRegistrarRota } : {}),
    ...(opcoes.logger ? { logger: opcoes.logger } : {}),
    ...(opcoes.copiaContinua ? { copiaContinua: opcoes.copiaContinua } : {}),
  });
  await garantirPrimeiroAdmin(db, config, logSilencioso);
  if (opcoes.cidades !== false) {
    const { ufs, cidades } = lerArquivosIbge(PASTA_FIXTURE_IBGE);
    await gravarEstadosECidades(db, ufs, cidades);
  }
  await app.ready();

  const chamar: AppDeTeste['chamar'] = ({ token, headers, ...resto }) =>
    app.inject({ ...resto, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });

  const login = async (email: string, senha: string) => {
    const r = await chamar({ method: 'POST', url: '/api/auth/login', payload: { email, senha } });
    if (r.statusCode !== 200) throw new Error(`login de ${email} falhou: ${r.statusCode} ${r.body}`);
    return r.json().token as string;
  };
  let tokenAdmin: string | undefined;

  const contexto: AppDeTeste = {
    app,
    db,
    config,
    dataDir,
    chamar,
    login,
    async tokenAdmin() {
      tokenAdmin ??= await login(ADMIN.email, ADMIN.senha);
      return tokenAdmin;
    },
    async criarFuncionario(dados = {}) {
      sequencia += 1;
      const email = dados.email ?? `funcionario${sequencia}@teste.com.br`;
      const senha = dados.senha ?? 'senha123';
      const r = await chamar({
        method: 'POST',
        url: '/api/usuarios',
        token: await contexto.tokenAdmin(),
        payload: { nome: dados.nome ?? `Funcionário ${sequencia}`, email, senha, tipo: 'funcionario' },
      });
      if (r.statusCode !== 201) throw new Error(`criar funcionário falhou: ${r.statusCode} ${r.body}`);
      return { id: r.json().usuario.id as number, email, senha, token: await login(email, senha) };
    },
    async fechar() {
      await app.close();
      await banco.fechar();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return contexto;
}

/**
 * Asserts a refusal as the client sees it: the status, a body that is exactly `{ error, codigo }`
 * (never a stack or a 500), and the message when given.
 */
export function esperarRecusa(
  r: LightMyRequestResponse,
  status: number,
  codigo: CodigoErro,
  mensagem?: string | RegExp,
): void {
  expect(r.statusCode, r.body).toBe(status);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  const corpo = r.json() as Record<string, unknown>;
  // A version conflict also carries both values (shared/api/errors.ts, ConflitoDeVersao).
  expect(Object.keys(corpo).sort(), r.body).toEqual(codigo === 'conflito_de_versao' ? ['codigo', 'conflito', 'error'] : ['codigo', 'error']);
  expect(corpo.codigo, r.body).toBe(codigo);
  expect(typeof corpo.error).toBe('string');
  if (typeof mensagem === 'string') expect(corpo.error).toBe(mensagem);
  else if (mensagem) expect(corpo.error).toMatch(mensagem);
}
