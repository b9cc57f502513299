import { afterEach, describe, expect, it } from 'vitest';
import { bancoLocal } from '../offline/db';
import { desfazerVisita, enfileirarVisita } from './operacoes';
import type { DadosVisitaFila } from './fila';

const dados: DadosVisitaFila = {
  id: '01a20000-0000-7000-8000-0000000000aa',
  rota_id: 7,
  cidade_id: 5204508,
  data: '2026-11-22',
  registrado_em: '2026-11-22T13:00:00.000Z',
  cidade_nome: 'Caldas Novas',
  cidade_uf: 'GO',
};
const semPassada = async (mudar: () => Promise<void>) => {
  await mudar();
  return true;
};
const comPassada = async () => false;

afterEach(async () => {
  await Promise.all(bancoLocal.tables.map((t) => t.clear()));
});

describe('desfazerVisita', () => {
  it('ainda na fila e nenhuma passada enviando: a visita sai da fila, nada mais é enfileirado', async () => {
    const item = await enfileirarVisita(bancoLocal, 2, dados);
    expect(await desfazerVisita(bancoLocal, 2, { itemId: item.id, dados }, semPassada)).toBe('tirada_da_fila');
    expect(await bancoLocal.outbox.count()).toBe(0);
  });

  it('uma passada pode estar enviando a visita: ela fica, e a remoção vai atrás dela com a chave do dia', async () => {
    const item = await enfileirarVisita(bancoLocal, 2, dados);
    expect(await desfazerVisita(bancoLocal, 2, { itemId: item.id, dados }, comPassada)).toBe('remocao_na_fila');
    const fila = await bancoLocal.outbox.orderBy('seq').toArray();
    expect(fila.map((i) => i.tipo)).toEqual(['visita.registrar', 'visita.desfazer']);
    expect(fila[1]).toMatchObject({ usuarioId: 2, chaves: fila[0]!.chaves, descricao: 'Visita a Caldas Novas (GO) em 22/11/2026 desfeita' });
    expect(fila[1]!.dados).toMatchObject({ rota_id: 7, cidade_id: 5204508, data: '2026-11-22' });
  });

  it('já recebida pelo servidor (fora da fila): a remoção é enfileirada', async () => {
    expect(await desfazerVisita(bancoLocal, 2, { itemId: 'ja-enviada', dados }, semPassada)).toBe('remocao_na_fila');
    expect((await bancoLocal.outbox.toArray()).map((i) => i.tipo)).toEqual(['visita.desfazer']);
  });
});
