import { describe, expect, it } from 'vitest';
import type { OperacaoSync } from '../../../shared/sync/operacoes';
import type { ArquivoLocal, ItemOutbox } from './db';
import { transporteEmLote, type Envio } from './transporte';

const item = (id: string): ItemOutbox => ({
  id,
  usuarioId: 1,
  tipo: 'rota.finalizar',
  dados: {},
  arquivos: [],
  chaves: [],
  descricao: id,
  estado: 'pendente',
  tentativas: 0,
  proximaTentativaEm: null,
  erro: null,
  conflito: null,
  criadoEm: '',
});

const envio = (id: string, seq: number, arquivos: ArquivoLocal[] = []): Envio => ({
  item: item(id),
  operacao: { id, tipo: 'rota.finalizar', seq, dados: { rota_id: seq } } as OperacaoSync,
  arquivos,
});

describe('transporteEmLote', () => {
  it('sem arquivos: um JSON com o aparelho e as operações na ordem (id, tipo, sequência e dados) e o token', async () => {
    let recebido: { metodo: string; caminho: string; corpo: unknown; token: unknown; tempo: unknown } | null = null;
    const t = transporteEmLote(async (metodo, caminho, o) => {
      recebido = { metodo, caminho, corpo: o.corpo, token: o.token, tempo: o.tempoLimiteMs };
      return { resultados: [{ id: 'a', status: 201 }] };
    });
    const r = await t([envio('a', 1), envio('b', 2)], 'tok', 'aparelho-1');
    expect(r).toEqual([{ id: 'a', status: 201 }]);
    expect(recebido).toEqual({
      metodo: 'POST',
      caminho: '/sync/lote',
      token: 'tok',
      tempo: 30_000,
      corpo: {
        cliente_id: 'aparelho-1',
        operacoes: [
          { id: 'a', tipo: 'rota.finalizar', seq: 1, dados: { rota_id: 1 } },
          { id: 'b', tipo: 'rota.finalizar', seq: 2, dados: { rota_id: 2 } },
        ],
      },
    });
  });

  it('com um comprovante: multipart com o JSON num campo e o arquivo à parte, byte a byte, com mais tempo', async () => {
    const cupom: ArquivoLocal = { id: 'f1', nome: 'nota.jpg', tipo: 'image/jpeg', tamanho: 3, conteudo: new Uint8Array([1, 2, 3]).buffer, criadoEm: '' };
    let corpo: FormData | null = null;
    let tempo: number | undefined;
    const t = transporteEmLote(async (_m, _c, o) => {
      corpo = o.corpo as FormData;
      tempo = o.tempoLimiteMs;
      return { resultados: [] };
    });
    await t([envio('d1', 7, [cupom]), envio('d2', 8)], null, 'aparelho-1');
    const form = corpo as unknown as FormData;
    expect(JSON.parse(String(form.get('operacoes')))).toEqual({
      cliente_id: 'aparelho-1',
      operacoes: [
        { id: 'd1', tipo: 'rota.finalizar', seq: 7, dados: { rota_id: 7 } },
        { id: 'd2', tipo: 'rota.finalizar', seq: 8, dados: { rota_id: 8 } },
      ],
    });
    const arquivo = form.get('arquivo:d1') as File;
    expect(arquivo.name).toBe('nota.jpg');
    expect([...new Uint8Array(await arquivo.arrayBuffer())]).toEqual([1, 2, 3]);
    expect(form.get('arquivo:d2')).toBeNull();
    expect(tempo).toBe(120_000);
  });
});
