/**
 * The bare replay: the simplest thing that could take a phone's queue of sales. A bare Fastify route
 * that parses the same batch JSON the app receives (`{ cliente_id, operacoes: [{ id, tipo, seq,
 * dados }] }`, amounts in centavos, batches of the app's size) and inserts the same rows into the
 * same table with one prepared statement, in one transaction per batch. No authentication,
 * validation, rules, deduplication or operation log.
 *
 * Two databases in this one process, both with the app's settings (WAL, synchronous NORMAL,
 * foreign keys, checkpoint every 4,000 pages):
 * - POST /lote: the app's own schema, made by the app's migrations (the same `vendas` table with its
 *   indexes and foreign keys, so an index a migration adds costs both sides the same). The target
 *   is measured against this one.
 * - POST /lote-minimo: a table with a primary key only (no other index, no foreign key): what the
 *   rows cost with nothing around them, shown for comparison.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { abrirBanco } from '../server/src/db';
import { recursosDoProjeto } from '../server/src/recursos';
import { servirCpu } from './cpu-do-processo';

/** The employee the rows name (the bare route knows no user). */
const FUNCIONARIO = 1;

const pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-limite-'));
const arquivo = path.join(pasta, 'limite.db');
const arquivoMinimo = path.join(pasta, 'minimo.db');
// The route and cities the phone's sales point at (the app's ids, so the same bodies fit both).
const cidades = (process.argv[2] ?? '').split(',').filter(Boolean).map(Number);
const rota = Number(process.argv[3]);
if (cidades.length === 0 || !Number.isInteger(rota)) throw new Error('uso: sync-limite.ts <ids das cidades separados por vírgula> <id da rota>');

const db = abrirBanco({ arquivo, pastaMigracoes: recursosDoProjeto().pastaMigracoes }).$client;
db.transaction(() => {
  db.prepare("insert or ignore into estados (uf, codigo_ibge, nome) values ('GO', 52, 'Goiás')").run();
  const cidade = db.prepare("insert into cidades (id, nome, nome_busca, uf) values (?, ?, ?, 'GO')");
  for (const id of cidades) cidade.run(id, `Cidade ${id}`, `cidade ${id}`);
  db.prepare("insert into usuarios (id, nome, email, senha_hash, tipo) values (?, 'Vendedora', 'v@bench.com.br', 'x', 'funcionario')").run(FUNCIONARIO);
  db.prepare("insert into rotas (id, nome, funcionario_id, data_inicio, data_fim) values (?, 'Rota', ?, '2000-01-01', '2100-01-01')").run(rota, FUNCIONARIO);
})();

const minimo = new Database(arquivoMinimo);
minimo.pragma('journal_mode = WAL');
minimo.pragma('synchronous = NORMAL');
minimo.pragma('wal_autocheckpoint = 4000');
minimo.exec(`create table vendas (
  id text primary key, rota_id integer not null, cidade_id integer not null, funcionario_id integer not null,
  data_venda text not null, dinheiro_centavos integer not null, pix_centavos integer not null, cartao_centavos integer not null,
  link_centavos integer not null, boletos integer not null, observacoes text not null, registrado_em text not null,
  recebido_em text not null, atualizado_em text not null, alterada_por_cliente text)`);

interface Operacao {
  id: string;
  dados: {
    id: string;
    rota_id: number;
    cidade_id: number;
    data_venda: string;
    valor_dinheiro: number;
    valor_pix: number;
    valor_cartao: number;
    valor_link: number;
    valor_boletos: number;
    observacoes: string;
    registrado_em: string;
  };
}
interface Lote {
  cliente_id: string;
  operacoes: Operacao[];
}

const COLUNAS =
  '(id, rota_id, cidade_id, funcionario_id, data_venda, dinheiro_centavos, pix_centavos, cartao_centavos, link_centavos, boletos, observacoes, registrado_em, recebido_em, atualizado_em, alterada_por_cliente)';
function insercao(banco: Database.Database) {
  const inserir = banco.prepare(`insert into vendas ${COLUNAS} values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  return banco.transaction((lote: Lote) => {
    const agora = new Date().toISOString();
    for (const { dados: v } of lote.operacoes) {
      inserir.run(v.id, v.rota_id, v.cidade_id, FUNCIONARIO, v.data_venda, v.valor_dinheiro, v.valor_pix, v.valor_cartao, v.valor_link, v.valor_boletos, v.observacoes, v.registrado_em, agora, agora, lote.cliente_id);
    }
    return lote.operacoes.length;
  });
}
const inserirNoApp = insercao(db);
const inserirNoMinimo = insercao(minimo);

const app = Fastify({ logger: false, bodyLimit: 8 * 1024 * 1024 });
app.post('/lote', async (request) => ({ gravadas: inserirNoApp(request.body as Lote) }));
app.post('/lote-minimo', async (request) => ({ gravadas: inserirNoMinimo(request.body as Lote) }));
await app.listen({ host: '127.0.0.1', port: 0 });
console.log(JSON.stringify({ pronto: true, porta: (app.server.address() as { port: number }).port, portaCpu: await servirCpu(), arquivo, arquivoMinimo }));
process.on('SIGTERM', () =>
  void app.close().then(() => {
    db.close();
    minimo.close();
    fs.rmSync(pasta, { recursive: true, force: true });
    process.exit(0);
  }),
);
