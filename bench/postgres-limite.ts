/**
 * The bare replay on PostgreSQL (bench/carga.ts), as bench/sync-limite.ts is for SQLite: a bare Fastify
 * route that parses the same batch JSON the app receives and inserts the same rows into the app's own
 * `vendas` table (made by the app's migrations, with its indexes and foreign keys) with one prepared
 * statement, in one transaction per batch, on a pool of connections. No authentication, validation,
 * rules, deduplication, lock or operation log. Argument: the database URL (already migrated, with the
 * routes the bodies name). Prints one JSON line, then serves until killed.
 */
import Fastify from 'fastify';
import pg from 'pg';

const url = process.argv[2];
if (!url) throw new Error('uso: postgres-limite.ts URL_DO_BANCO');
const pool = new pg.Pool({ connectionString: url });
pool.on('error', () => {});
// Whose route it is: the bare route knows no user, the row names the route's employee.
const donos = new Map((await pool.query<{ id: string; funcionario_id: string }>('select id::text, funcionario_id::text from rotas')).rows.map((r) => [Number(r.id), Number(r.funcionario_id)]));

interface Lote {
  cliente_id: string;
  operacoes: {
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
  }[];
}

const INSERCAO = {
  name: 'limite_venda',
  text: `insert into vendas (id, rota_id, cidade_id, funcionario_id, data_venda, dinheiro_centavos, pix_centavos, cartao_centavos, link_centavos, boletos, observacoes, registrado_em, recebido_em, atualizado_em, alterada_por_cliente)
    values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
};

const app = Fastify({ logger: false, bodyLimit: 8 * 1024 * 1024 });
app.post('/api/sync/lote', async (request) => {
  const lote = request.body as Lote;
  const cliente = await pool.connect();
  try {
    await cliente.query('begin');
    const agora = new Date().toISOString();
    for (const { dados: v } of lote.operacoes) {
      await cliente.query({
        ...INSERCAO,
        values: [v.id, v.rota_id, v.cidade_id, donos.get(v.rota_id), v.data_venda, v.valor_dinheiro, v.valor_pix, v.valor_cartao, v.valor_link, v.valor_boletos, v.observacoes, v.registrado_em, agora, agora, lote.cliente_id],
      });
    }
    await cliente.query('commit');
    return { resultados: lote.operacoes.map(() => ({ status: 201 })) };
  } catch (erro) {
    await cliente.query('rollback').catch(() => undefined);
    throw erro;
  } finally {
    cliente.release();
  }
});
await app.listen({ host: '127.0.0.1', port: 0 });
console.log(JSON.stringify({ pronto: true, porta: (app.server.address() as { port: number }).port }));
process.on('SIGTERM', () => void app.close().then(() => pool.end().then(() => process.exit(0))));
