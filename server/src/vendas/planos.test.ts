/**
 * The admin's Vendas screen's default request (status 'ativa'): its three queries (totals,
 * the days of the filter, the page) start from the active routes or from the page's days, never from a
 * scan of the sales table; the only sort is the page's days by names (names live in other tables).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { MOTOR_DE_TESTE } from '../../test/bancoDeTeste';
import { inserirVenda } from '../../test/fabricas';
import { criarAppDeTeste, type AppDeTeste } from '../../test/helper';
import { planosDe } from '../../test/planos';
import { fechamentoDiario } from './servico';

let t: AppDeTeste;
const dia = hoje('America/Sao_Paulo');

// SQLite's own query planner (EXPLAIN QUERY PLAN, ANALYZE): PostgreSQL plans differently and has its own tools.
describe.skipIf(MOTOR_DE_TESTE === 'postgres')('planos do fechamento-diario padrão do admin', () => {
  beforeAll(async () => {
    t = await criarAppDeTeste();
    const admin = await t.tokenAdmin();
    for (let i = 0; i < 3; i++) {
      const f = await t.criarFuncionario();
      const r = await t.chamar({
        method: 'POST',
        url: '/api/rotas',
        token: admin,
        payload: { nome: `Rota ${i}`, funcionario_id: f.id, tem_secretario: false, valor_aluguel: 0, data_inicio: somarDias(dia, -20), data_fim: dia, observacoes: '', cidades: [5208707, 5201108] },
      });
      expect(r.statusCode, r.body).toBe(201);
      for (let d = 0; d < 20; d++) await inserirVenda(t.db, r.json().rota.id, f.id, d % 2 ? 5208707 : 5201108, somarDias(dia, -d), { dinheiro: 100 * d });
    }
    t.db.$client.exec('analyze');
  });
  afterAll(() => t.fechar());

  it('status ativa, página de 10: nenhuma varredura da tabela de vendas, totais somados pelo SQLite', async () => {
    const usuario = { id: 1, tipo: 'admin' as const, nome: 'Admin', email: 'admin@teste.com.br' };
    let resposta: Awaited<ReturnType<typeof fechamentoDiario>> | undefined;
    const planos = await planosDe(t.db, /from "vendas"/i, async () => {
      resposta = await fechamentoDiario(t.db, usuario as Parameters<typeof fechamentoDiario>[1], { status_rota: 'ativa', page: 1, limit: 10 });
    });
    expect(planos.length).toBe(3);
    for (const plano of planos) expect(plano.filter((l) => /^SCAN vendas\b/.test(l)), plano.join('\n')).toEqual([]);
    expect(resposta!.vendas).toHaveLength(10);
    expect(resposta!.total).toBe(60);
    // Sum over the whole filter (every page), not the page: 3 routes x (0 + 1 + ... + 19) x R$ 1,00.
    expect(resposta!.totais.dinheiro).toBe(3 * ((19 * 20) / 2));
  });
});
