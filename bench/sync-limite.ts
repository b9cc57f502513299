/**
 * The limit: a bare Fastify route that only inserts the posted sales with better-sqlite3 (one
 * prepared statement, one transaction per batch), on a file database with the app's settings (WAL,
 * synchronous NORMAL, checkpoint every 4,000 pages). No authentication, validation, deduplication, ledger or visits.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import type { DadosVendaFila } from '../client/src/vendas/fila';

const pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-limite-'));
const arquivo = path.join(pasta, 'limite.db');
const db = new Database(arquivo);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('wal_autocheckpoint = 4000');
db.exec(`create table vendas (
  id text primary key, rota_id integer not null, cidade_id integer not null, funcionario_id integer not null,
  data_venda text not null, dinheiro_centavos integer not null, pix_centavos integer not null, cartao_centavos integer not null,
  link_centavos integer not null, boletos integer not null, observacoes text not null, registrado_em text not null)`);
const inserir = db.prepare(
  'insert into vendas values (@id, @rota_id, @cidade_id, @funcionario_id, @data_venda, @dinheiro, @pix, @cartao, @link, @boletos, @observacoes, @registrado_em)',
);
/** The sales the phone posts (bench/sync.ts). */
type Venda = Omit<DadosVendaFila, 'cidade_nome' | 'cidade_uf'>;
const inserirTodas = db.transaction((vendas: Venda[]) => {
  for (const v of vendas) {
    inserir.run({
      id: v.id,
      rota_id: v.rota_id,
      cidade_id: v.cidade_id,
      funcionario_id: 1,
      data_venda: v.data_venda,
      dinheiro: Math.round(v.valor_dinheiro * 100),
      pix: Math.round(v.valor_pix * 100),
      cartao: Math.round(v.valor_cartao * 100),
      link: Math.round(v.valor_link * 100),
      boletos: v.valor_boletos,
      observacoes: v.observacoes,
      registrado_em: v.registrado_em,
    });
  }
});

const app = Fastify({ logger: false, bodyLimit: 8 * 1024 * 1024 });
app.post('/vendas-lote', async (request) => {
  const vendas = request.body as Venda[];
  inserirTodas(vendas);
  return { gravadas: vendas.length };
});
await app.listen({ host: '127.0.0.1', port: 0 });
console.log(JSON.stringify({ pronto: true, porta: (app.server.address() as { port: number }).port, arquivo }));
process.on('SIGTERM', () =>
  void app.close().then(() => {
    db.close();
    fs.rmSync(pasta, { recursive: true, force: true });
    process.exit(0);
  }),
);
