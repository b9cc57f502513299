/**
 * With the continuous off-site copy on, a batch's answer (which makes the phone drop what it confirms)
 * comes only once the write is in the copy's bucket. The replicator here cycles once an hour: only the
 * batch's own wait can have shipped the sale, so the restore below finds it exactly when the route
 * waited. With the bucket down the batch is refused with 503 and Retry-After (the phone keeps its
 * queue) and /api/health says the copy is failing; the replay, once the bucket is back, is answered from
 * the operation log and the sale is there once. Concurrent batches share one upload (group commit).
 * Off, or on PostgreSQL, nothing waits.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { criarRotaAtiva, GOIANIA } from '../../test/despesas';
import { criarAppDeTeste, type AppDeTeste } from '../../test/helper';
import { envDaCopiaContinua, iniciarServidorS3, type ServidorS3 } from '../../test/s3';
import { carregarConfig } from '../config';
import { iniciarCopiaContinuaDoServidor, pararCopiaContinua } from '../operacao/copiaContinuaComandos';
import { restaurarCopiaContinua } from '../operacao/copiaContinuaRestauracao';
import { BucketDaCopia } from '../operacao/copiaContinuaBucket';
import { MENSAGEM_SEM_COPIA, SEGUNDOS_PARA_REENVIAR_SEM_COPIA } from './rotas';

const silencioso = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe.skipIf(process.env.TESTE_BANCO === 'postgres')('o lote espera a cópia contínua', () => {
  let t: AppDeTeste;
  let s3: ServidorS3;
  let env: Record<string, string>;
  let ana: { id: number; token: string };
  let rota: number;

  beforeAll(async () => {
    s3 = await iniciarServidorS3('copia-lote');
    env = envDaCopiaContinua(s3);
    t = await criarAppDeTeste({ env });
    ana = await t.criarFuncionario({ nome: 'Ana Copiada' });
    rota = await criarRotaAtiva(t, ana.id, [GOIANIA], 'Rota copiada');
    iniciarCopiaContinuaDoServidor(t.config, silencioso, undefined, { intervaloMs: 3_600_000 });
  });

  afterAll(async () => {
    await pararCopiaContinua();
    await t?.fechar();
    await s3?.fechar();
  });

  let dias = 0;
  /** One sale of `funcionario` on a day of its own, as the phone queues it (legacy form). */
  const operacaoDeVenda = (vendaId: string, rotaId = rota) => ({
    id: uuidv7(),
    metodo: 'POST',
    caminho: '/vendas',
    corpo: { id: vendaId, rota_id: rotaId, cidade_id: GOIANIA, data_venda: somarDias(hoje('America/Sao_Paulo'), -1 - dias++), valor_dinheiro: 321, registrado_em: new Date().toISOString() },
  });
  const enviar = (operacoes: unknown[], token = ana.token) => t.chamar({ method: 'POST', url: '/api/sync/lote', token, payload: { operacoes } });

  /** The sale's cents in a database restored from the bucket alone (undefined: not there). */
  async function vendaNoBucket(vendaId: string): Promise<unknown> {
    const destino = path.join(t.dataDir, '..', `restaurado-${vendaId}.db`);
    try {
      await restaurarCopiaContinua(carregarConfig(env).copia!, destino);
      const restaurado = new Database(destino, { readonly: true });
      const venda = restaurado.prepare('select dinheiro_centavos from vendas where id = ?').get(vendaId);
      restaurado.close();
      return venda;
    } finally {
      for (const f of [destino, `${destino}-wal`, `${destino}-shm`]) fs.rmSync(f, { force: true });
    }
  }

  it('a venda confirmada ao celular já está no bucket: restaurada depois de perder o disco', async () => {
    const vendaId = uuidv7();
    const r = await enviar([operacaoDeVenda(vendaId)]);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().resultados[0].status).toBe(201);
    // Right after the answer, from the bucket alone: the copy holds the sale.
    expect(await vendaNoBucket(vendaId)).toEqual({ dinheiro_centavos: 32100 });
  });

  it('bucket fora do ar: 503 com Retry-After e nada confirmado; de volta, o reenvio é respondido pelo registro e a venda existe uma vez', async () => {
    const vendaId = uuidv7();
    const operacao = operacaoDeVenda(vendaId);
    await s3.parar();
    try {
      const recusado = await enviar([operacao]);
      expect(recusado.statusCode, recusado.body).toBe(503);
      expect(recusado.headers['retry-after']).toBe(String(SEGUNDOS_PARA_REENVIAR_SEM_COPIA));
      // No results: the phone confirms nothing and keeps the sale in its queue.
      expect(recusado.json()).toEqual({ error: MENSAGEM_SEM_COPIA, codigo: 'indisponivel' });
      const saude = await t.chamar({ method: 'GET', url: '/api/health' });
      expect(saude.statusCode).toBe(503);
      expect(saude.json().error).toBe('Servidor com falha: cópia contínua.');
      expect(saude.json().verificacoes.copia_continua.erro).toMatch(/cópia contínua não consegue enviar ao bucket/);
    } finally {
      await s3.iniciar();
    }
    const reenvio = await enviar([operacao]);
    expect(reenvio.statusCode, reenvio.body).toBe(200);
    expect(reenvio.json().resultados[0]).toMatchObject({ id: operacao.id, status: 201, repetida: true });
    expect(await vendaNoBucket(vendaId)).toEqual({ dinheiro_centavos: 32100 });
    const db = new Database(path.join(t.dataDir, 'app.db'), { readonly: true });
    expect(db.prepare('select count(*) as n from vendas where id = ?').get(vendaId)).toEqual({ n: 1 });
    db.close();
    expect((await t.chamar({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('lotes ao mesmo tempo dividem o envio: dez celulares, um segmento do WAL enviado para todos', async () => {
    const celulares = [];
    for (let i = 0; i < 10; i++) {
      const f = await t.criarFuncionario({ nome: `Celular ${i}` });
      celulares.push({ token: f.token, rota: await criarRotaAtiva(t, f.id, [GOIANIA], `Rota do celular ${i}`) });
    }
    // Caught up first, so that only the batches' writes are left to ship.
    await enviar([operacaoDeVenda(uuidv7())]);
    const envios = vi.spyOn(BucketDaCopia.prototype, 'gravar');
    try {
      const respostas = await Promise.all(celulares.map((c) => enviar([operacaoDeVenda(uuidv7(), c.rota)], c.token)));
      expect(respostas.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
      const segmentos = envios.mock.calls.filter(([nome]) => nome.includes('/wal/'));
      expect(segmentos).toHaveLength(1);
    } finally {
      envios.mockRestore();
    }
  });
});
