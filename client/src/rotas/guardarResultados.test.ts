/**
 * The finished routes' results kept on the device when Minhas Rotas loads online: the 10
 * most recent, only those without a copy or with a copy from before the route was finished.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { bancoLocal } from '../offline/db';
import { FUNCIONARIO_TESTE, simularApi } from '../test/renderizar';
import { rotaDeTeste } from '../test/rotas';
import { chavesCacheRotas, guardarResultados, RESULTADOS_GUARDADOS } from './consultas';

const EU = FUNCIONARIO_TESTE.id;
const finalizada = (id: number, finalizadaEm: string) => rotaDeTeste({ id, nome: `Rota ${id}`, status: 'finalizada', finalizada_em: finalizadaEm });

function servidor(offline = false) {
  return simularApi({ 'GET /relatorios/rota/:id': (_c, url) => (offline ? 'offline' : { corpo: { rota_id: Number(url.pathname.split('/').pop()) } }) });
}
const lidas = (api: ReturnType<typeof servidor>) => api.chamadas.map((c) => Number(c.caminho.split('/').pop())).sort((a, b) => a - b);

beforeEach(async () => {
  await bancoLocal.cache.clear();
});

describe('guardarResultados', () => {
  it('guarda os das rotas finalizadas mais recentes, uma cópia por pessoa e rota', async () => {
    const api = servidor();
    const rotas = Array.from({ length: RESULTADOS_GUARDADOS + 2 }, (_, i) => finalizada(i + 1, `2026-10-${String(i + 1).padStart(2, '0')}T12:00:00.000Z`));
    await guardarResultados(EU, rotas);
    expect(lidas(api)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const copia = await bancoLocal.cache.get(chavesCacheRotas.resultado(EU, 12));
    expect(copia).toMatchObject({ usuarioId: EU, dados: { rota_id: 12 } });
  });

  it('não lê de novo uma cópia de depois da finalização; lê a de antes (a rota mudou ao ser finalizada)', async () => {
    await bancoLocal.cache.bulkPut([
      { chave: chavesCacheRotas.resultado(EU, 1), usuarioId: EU, dados: { rota_id: 1 }, atualizadoEm: '2026-11-20T13:00:00.000Z' },
      { chave: chavesCacheRotas.resultado(EU, 2), usuarioId: EU, dados: { rota_id: 2 }, atualizadoEm: '2026-11-20T11:00:00.000Z' },
      // Someone else's copy on a shared phone does not count as this person's.
      { chave: chavesCacheRotas.resultado(EU, 3), usuarioId: 999, dados: { rota_id: 3 }, atualizadoEm: '2026-11-21T11:00:00.000Z' },
    ]);
    const api = servidor();
    await guardarResultados(EU, [finalizada(1, '2026-11-20T12:00:00.000Z'), finalizada(2, '2026-11-20T12:00:00.000Z'), finalizada(3, '2026-11-20T12:00:00.000Z')]);
    expect(lidas(api)).toEqual([2, 3]);
  });

  it('sem conexão: para na primeira falha, sem erro', async () => {
    const api = servidor(true);
    await expect(guardarResultados(EU, [finalizada(1, '2026-11-20T12:00:00.000Z'), finalizada(2, '2026-11-19T12:00:00.000Z')])).resolves.toBeUndefined();
    expect(api.chamadas).toHaveLength(1);
    expect(await bancoLocal.cache.count()).toBe(0);
  });
});
