/**
 * Issue 21, item 6: with the continuous off-site copy on, a batch's answer (which makes the phone drop
 * what it confirms) comes only once the write is in the copy's bucket. The replicator here cycles once an
 * hour: only the batch's own wait can have shipped the sale, so the restore below finds it exactly when
 * the route waited. Off, or on PostgreSQL, nothing waits.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { criarRotaAtiva, GOIANIA } from '../../test/despesas';
import { criarAppDeTeste, type AppDeTeste } from '../../test/helper';
import { envDaCopiaContinua, iniciarServidorS3, type ServidorS3 } from '../../test/s3';
import { carregarConfig } from '../config';
import { iniciarCopiaContinuaDoServidor, pararCopiaContinua } from '../operacao/copiaContinuaComandos';
import { restaurarCopiaContinua } from '../operacao/copiaContinuaRestauracao';

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

  it('a venda confirmada ao celular já está no bucket: restaurada depois de perder o disco', async () => {
    const vendaId = uuidv7();
    const r = await t.chamar({
      method: 'POST',
      url: '/api/sync/lote',
      token: ana.token,
      payload: {
        operacoes: [
          {
            id: uuidv7(),
            metodo: 'POST',
            caminho: '/vendas',
            corpo: { id: vendaId, rota_id: rota, cidade_id: GOIANIA, data_venda: somarDias(hoje('America/Sao_Paulo'), -1), valor_dinheiro: 321, registrado_em: new Date().toISOString() },
          },
        ],
      },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().resultados[0].status).toBe(201);

    // Right after the answer, from the bucket alone: the copy holds the sale.
    const destino = path.join(t.dataDir, '..', `restaurado-${vendaId}.db`);
    try {
      await restaurarCopiaContinua(carregarConfig(env).copia!, destino);
      const restaurado = new Database(destino, { readonly: true });
      const venda = restaurado.prepare('select dinheiro_centavos from vendas where id = ?').get(vendaId);
      restaurado.close();
      expect(venda).toEqual({ dinheiro_centavos: 32100 });
    } finally {
      for (const f of [destino, `${destino}-wal`, `${destino}-shm`]) fs.rmSync(f, { force: true });
    }
  });
});
