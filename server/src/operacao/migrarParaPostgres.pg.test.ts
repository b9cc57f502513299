/**
 * `migrate-to-postgres` on a real PostgreSQL: a SQLite database made by the app itself
 * (employees, a route, sales from a phone's batch, an expense with two receipts approved by the admin,
 * balance credits, the audit trail) is copied with its ledger and receipts; the counts and the ledger chain
 * are checked; a second run copies nothing and a later sale alone; then the real app on PostgreSQL serves
 * the same data (the employee's balance, the sales) and gives new rows the next ids. A broken ledger in
 * the source is refused; so is a copy whose final check finds a table different on the two sides (a row
 * written to SQLite during the copy, a row PostgreSQL dropped, a row PostgreSQL changed), by the command
 * too (exit code 1); and a source a running server holds.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { ARQUIVOS, camposDeDespesa, criarRotaAtiva, formulario, GOIANIA, ANAPOLIS } from '../../test/despesas';
import { criarAppDeTeste, type AppDeTeste } from '../../test/helper';
import { iniciarPostgres, temPostgres, type PostgresDeTeste } from '../../test/postgres';
import { criarApp } from '../app';
import { ArmazenamentoLocal } from '../arquivos/armazenamento';
import { abrirBancoPostgres, abrirBancoPostgresDoApp, type DbPostgres } from '../db/postgres';
import { ErroDeMigracao, migrarParaPostgres, type ResultadoMigracao } from './migrarParaPostgres';

describe.skipIf(!temPostgres)('migrate-to-postgres', () => {
  let servidor: PostgresDeTeste;
  let t: AppDeTeste;
  let pasta: string;
  let arquivoSqlite: string;
  const ana = { id: 0, email: '', senha: '', token: '' };
  let rota = 0;

  const dia = (n: number) => somarDias(hoje('America/Sao_Paulo'), -n);
  const venda = (cidade: number, data: string, reais: number) => ({
    id: uuidv7(),
    metodo: 'POST',
    caminho: '/vendas',
    corpo: { id: uuidv7(), rota_id: rota, cidade_id: cidade, data_venda: data, valor_dinheiro: reais, valor_pix: 5, registrado_em: new Date().toISOString() },
  });

  async function banco(nome: string): Promise<DbPostgres> {
    const admin = new pg.Client({ connectionString: servidor.url });
    await admin.connect();
    await admin.query(`create database ${nome}`);
    await admin.end();
    return abrirBancoPostgres({ url: servidor.url.replace(/\/[^/]+$/, `/${nome}`) });
  }

  const migrar = (destino: DbPostgres, pastaUploadsDestino: string, arquivo = arquivoSqlite, progresso?: (mensagem: string) => void) =>
    migrarParaPostgres({ arquivoSqlite: arquivo, pg: destino, armazenamento: new ArmazenamentoLocal(pastaUploadsDestino), pastaUploadsDestino, progresso });

  /** A copy of the source database (with its receipts) in a folder of its own, as another DATA_DIR. */
  async function copiaDaOrigem(nome: string): Promise<string> {
    const dataDir = path.join(pasta, nome);
    fs.mkdirSync(dataDir);
    const origem = new Database(arquivoSqlite, { readonly: true });
    await origem.backup(path.join(dataDir, 'app.db'));
    origem.close();
    fs.cpSync(path.join(t.dataDir, 'uploads'), path.join(dataDir, 'uploads'), { recursive: true });
    return path.join(dataDir, 'app.db');
  }

  beforeAll(async () => {
    servidor = await iniciarPostgres('sg_migracao');
    pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-migracao-'));
    // The source: a SQLite database the app made, as on a server about to move.
    t = await criarAppDeTeste();
    Object.assign(ana, await t.criarFuncionario({ nome: 'Ana Migrada' }));
    await t.criarFuncionario({ nome: 'Bruno Migrado' });
    const admin = await t.tokenAdmin();
    rota = await criarRotaAtiva(t, ana.id, [GOIANIA, ANAPOLIS], 'Rota migrada');
    const lote = await t.chamar({
      method: 'POST',
      url: '/api/sync/lote',
      token: ana.token,
      payload: { cliente_id: 'celular-da-ana', operacoes: [venda(GOIANIA, dia(3), 100), venda(ANAPOLIS, dia(2), 200)] },
    });
    expect(lote.statusCode, lote.body).toBe(200);
    for (const valor of ['150,00', '80,00']) {
      const r = await t.chamar({ method: 'POST', url: '/api/saldo/adicionar', token: admin, payload: { funcionario_id: ana.id, valor, descricao: 'Adiantamento' } });
      expect(r.statusCode, r.body).toBe(201);
    }
    const despesa = await t.chamar({
      method: 'POST',
      url: '/api/despesas',
      token: ana.token,
      ...(await formulario(camposDeDespesa(rota, { valor: '45,90' }), [ARQUIVOS.jpeg(), ARQUIVOS.pdf()])),
    });
    expect(despesa.statusCode, despesa.body).toBe(201);
    const aprovada = await t.chamar({ method: 'PATCH', url: `/api/despesas/${despesa.json().despesa.id}/aprovar`, token: admin });
    expect(aprovada.statusCode, aprovada.body).toBe(200);
    // The file on disk as an operator has it when the server is stopped.
    await t.app.close();
    arquivoSqlite = path.join(t.dataDir, 'app.db');
  }, 120_000);

  afterAll(async () => {
    await t?.fechar();
    await servidor?.parar();
    if (pasta) fs.rmSync(pasta, { recursive: true, force: true });
  }, 120_000);

  it('copia tudo, confere contagens, a corrente de saldos e os comprovantes; repetida, não copia de novo', async () => {
    const destino = await banco('sg_destino');
    const uploads = path.join(pasta, 'uploads');
    try {
      const primeira = await migrar(destino, uploads);
      const porNome = (r: ResultadoMigracao) => Object.fromEntries(r.tabelas.map((x) => [x.nome, x]));
      const tabelas = porNome(primeira);
      for (const nome of ['usuarios', 'rotas', 'rota_cidades', 'vendas', 'visitas', 'despesas', 'despesa_cupons', 'movimentacoes_saldo', 'auditoria', 'operacoes_aplicadas', 'cidades', 'estados']) {
        expect(tabelas[nome], nome).toBeDefined();
        expect(tabelas[nome]!.postgres, nome).toBe(tabelas[nome]!.sqlite);
      }
      expect(tabelas.vendas!.copiadas).toBe(2);
      expect(tabelas.despesa_cupons!.copiadas).toBe(2);
      // Two credits and the approved expense's debit.
      expect(tabelas.movimentacoes_saldo!.copiadas).toBe(3);
      expect(tabelas.auditoria!.copiadas).toBeGreaterThanOrEqual(3);
      expect(primeira.funcionariosComSaldo).toBe(1);
      expect(primeira.comprovantes).toEqual({ nomeados: 2, copiados: 2 });
      const origem = new Database(arquivoSqlite, { readonly: true });
      const arquivos = origem.prepare('select arquivo from despesa_cupons order by ordem').all() as { arquivo: string }[];
      origem.close();
      for (const { arquivo } of arquivos) {
        expect(fs.readFileSync(path.join(uploads, arquivo))).toEqual(fs.readFileSync(path.join(t.dataDir, 'uploads', arquivo)));
      }

      // Run again (a copy cut half-way is simply run again): nothing copied twice.
      const segunda = await migrar(destino, uploads);
      expect(segunda.tabelas.every((x) => x.copiadas === 0)).toBe(true);
      expect(segunda.comprovantes).toEqual({ nomeados: 2, copiados: 0 });

      // A sale recorded on the old server after the first run: the next run brings it alone.
      const maisUma = new Database(arquivoSqlite);
      maisUma
        .prepare(
          `insert into vendas (id, rota_id, cidade_id, funcionario_id, data_venda, dinheiro_centavos, registrado_em)
           values (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(uuidv7(), rota, GOIANIA, ana.id, dia(1), 70000, new Date().toISOString());
      maisUma.close();
      const terceira = await migrar(destino, uploads);
      expect(porNome(terceira).vendas!.copiadas).toBe(1);
      expect(terceira.tabelas.filter((x) => x.nome !== 'vendas').every((x) => x.copiadas === 0)).toBe(true);
    } finally {
      await destino.$client.end();
    }

    // The server on PostgreSQL serves what the SQLite one had, and new rows take the next ids.
    const url = servidor.url.replace(/\/[^/]+$/, '/sg_destino');
    const db = await abrirBancoPostgresDoApp({ url });
    const app = await criarApp({ config: { ...t.config, dataDir: pasta }, db, segredoJwt: t.config.jwtSecret!, pastaCliente: null });
    try {
      const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: ana.email, senha: ana.senha } });
      expect(login.statusCode, login.body).toBe(200);
      const token = login.json().token as string;
      const saldo = await app.inject({ method: 'GET', url: '/api/saldo/resumo', headers: { authorization: `Bearer ${token}` } });
      expect(saldo.statusCode, saldo.body).toBe(200);
      // R$ 150 + R$ 80 credited, R$ 45,90 approved.
      expect(JSON.stringify(saldo.json())).toContain('184.1');
      const adminLogin = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@teste.com.br', senha: 'admin123' } });
      const tokenAdmin = adminLogin.json().token as string;
      const vendas = await app.inject({ method: 'GET', url: `/api/vendas?rota_id=${rota}&limit=100`, headers: { authorization: `Bearer ${tokenAdmin}` } });
      expect(vendas.statusCode, vendas.body).toBe(200);
      expect(vendas.json().vendas).toHaveLength(3);
      const novo = await app.inject({
        method: 'POST',
        url: '/api/usuarios',
        headers: { authorization: `Bearer ${tokenAdmin}` },
        payload: { nome: 'Carla Nova', email: 'carla.nova@teste.com.br', senha: 'senha123', tipo: 'funcionario' },
      });
      expect(novo.statusCode, novo.body).toBe(201);
      expect(novo.json().usuario.id).toBeGreaterThan(ana.id);
    } finally {
      await app.close();
      await (db.$client as unknown as pg.Pool).end();
    }
  });

  it('uma corrente de saldos quebrada na origem é recusada, dizendo onde', async () => {
    const copia = path.join(pasta, 'quebrada.db');
    const origem = new Database(arquivoSqlite, { readonly: true });
    await origem.backup(copia);
    origem.close();
    const quebrada = new Database(copia);
    quebrada.prepare('update movimentacoes_saldo set saldo_novo_centavos = saldo_novo_centavos + 1 where id = (select min(id) from movimentacoes_saldo)').run();
    quebrada.close();
    const destino = await banco('sg_quebrada');
    try {
      const erro = await migrar(destino, path.join(pasta, 'uploads-quebrada'), copia).catch((e: unknown) => e);
      expect(erro).toBeInstanceOf(ErroDeMigracao);
      expect((erro as Error).message).toMatch(/^A corrente de saldos está quebrada no PostgreSQL nas movimentações \d+ \(funcionário \d+\)/);
    } finally {
      await destino.$client.end();
    }
  });

  it('uma linha gravada no SQLite durante a cópia (um servidor ainda escrevendo) faz a conferência final falhar', async () => {
    const copia = await copiaDaOrigem('escrita-durante');
    const destino = await banco('sg_escrita_durante');
    const escritor = new Database(copia);
    try {
      // Right after the operation log was copied, a phone's batch lands on the old server.
      const erro = await migrar(destino, path.join(pasta, 'uploads-escrita-durante'), copia, (mensagem) => {
        if (!mensagem.startsWith('operacoes_aplicadas: ') || !mensagem.includes('copiadas')) return;
        escritor
          .prepare('insert into operacoes_aplicadas (id, usuario_id, cliente_id, seq, tipo, status, recebido_em) values (?, ?, ?, ?, ?, ?, ?)')
          .run(uuidv7(), ana.id, 'celular-da-ana', 99, 'venda', 201, new Date().toISOString());
      }).catch((e: unknown) => e);
      expect(erro).toBeInstanceOf(ErroDeMigracao);
      expect((erro as Error).message).toContain('A migração não confere: operacoes_aplicadas (SQLite');
      expect((erro as Error).message).toContain('Pare o servidor e rode de novo');
    } finally {
      escritor.close();
      await destino.$client.end();
    }
  });

  it('uma linha que não chegou ao PostgreSQL ou chegou diferente faz o comando sair com erro, dizendo a tabela', async () => {
    const copia = await copiaDaOrigem('diferente');
    const destino = await banco('sg_diferente');
    try {
      // PostgreSQL silently drops one operation-log row and alters one sale as they are inserted.
      await destino.$client.query(`
        create table descartar_uma_vez (x int);
        insert into descartar_uma_vez values (1);
        create function descartar_uma() returns trigger language plpgsql as $$
        begin
          delete from descartar_uma_vez;
          if found then return null; end if;
          return new;
        end $$;
        create function alterar_uma() returns trigger language plpgsql as $$
        begin
          new.dinheiro_centavos := new.dinheiro_centavos + 1;
          return new;
        end $$;
        create trigger descartar_uma before insert on operacoes_aplicadas for each row execute function descartar_uma();
        create trigger alterar_uma before insert on vendas for each row when (new.data_venda = '${dia(3)}') execute function alterar_uma();`);
      const erro = await migrar(destino, path.join(pasta, 'uploads-diferente'), copia).catch((e: unknown) => e);
      expect(erro).toBeInstanceOf(ErroDeMigracao);
      expect((erro as Error).message).toMatch(/operacoes_aplicadas \(SQLite \d+ linhas, PostgreSQL \d+\)/);
      expect((erro as Error).message).toMatch(/vendas \(mesmas \d+ linhas, conteúdo diferente\)/);

      // The command itself (what the operator runs) exits 1 with that message, not 0 with 'Migração conferida'.
      const url = servidor.url.replace(/\/[^/]+$/, '/sg_diferente');
      const comando = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'server/src/main.ts', 'migrate-to-postgres', copia], {
        env: { ...process.env, DATABASE_URL: url, DATA_DIR: path.join(pasta, 'dados-do-comando'), LOG_LEVEL: 'silent' },
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(comando.status, comando.stderr).toBe(1);
      expect(comando.stderr).toContain('A migração não confere:');
      expect(comando.stdout).not.toContain('Migração conferida');
    } finally {
      await destino.$client.end();
    }
  }, 120_000);

  it('recusada enquanto um servidor vivo tem a pasta do banco, antes de tocar o PostgreSQL', async () => {
    const copia = await copiaDaOrigem('servidor-vivo');
    // A live process named by a server's pid file in that DATA_DIR (what `restore` looks for).
    const vivo = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(path.join(path.dirname(copia), `servidor-${vivo.pid}.pid`), `${vivo.pid}\n`);
      const destino = await banco('sg_servidor_vivo');
      try {
        const erro = await migrar(destino, path.join(pasta, 'uploads-servidor-vivo'), copia).catch((e: unknown) => e);
        expect(erro).toBeInstanceOf(ErroDeMigracao);
        expect((erro as Error).message).toBe(
          `O servidor está rodando (processo ${vivo.pid}) com ${path.dirname(copia)} e continua gravando no banco SQLite: a cópia sairia incompleta. ` +
            'Pare o servidor antes de migrar para o PostgreSQL.',
        );
        expect(Number((await destino.$client.query('select count(*) as n from usuarios')).rows[0].n)).toBe(0);
      } finally {
        await destino.$client.end();
      }

      // The command refuses before opening PostgreSQL: this URL has nobody listening, and it is never tried.
      const comando = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'server/src/main.ts', 'migrate-to-postgres', copia], {
        env: { ...process.env, DATABASE_URL: 'postgres://ninguem@127.0.0.1:9/nada', DATA_DIR: path.join(pasta, 'dados-recusado'), LOG_LEVEL: 'silent' },
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(comando.status, comando.stderr).toBe(1);
      expect(comando.stderr).toContain(`O servidor está rodando (processo ${vivo.pid})`);
      expect(comando.stderr).not.toContain('ECONNREFUSED');
    } finally {
      vivo.kill('SIGKILL');
    }
  }, 120_000);
});
