import { describe, expect, it } from 'vitest';
import { ErroApi, ErroOffline } from '../api/client';
import type { ItemOutbox } from './db';
import { transporteEmLote, transporteIndividual, type Envio } from './transporte';

const item = (id: string, chaves: string[] = [id]): ItemOutbox => ({
  id,
  usuarioId: 1,
  tipo: 't',
  dados: {},
  arquivos: [],
  chaves,
  descricao: id,
  estado: 'pendente',
  tentativas: 0,
  proximaTentativaEm: null,
  erro: null,
  criadoEm: '',
});

const envio = (id: string, corpo: unknown, chaves?: string[]): Envio => ({ item: item(id, chaves), requisicao: { metodo: 'POST', caminho: `/x/${id}`, corpo }, arquivos: [] });

describe('transporteEmLote', () => {
  it('sem arquivos: um JSON com as operações na ordem, as chaves de cada uma e o token', async () => {
    let recebido: { metodo: string; caminho: string; corpo: unknown; token: unknown } | null = null;
    const t = transporteEmLote(async (metodo, caminho, o) => {
      recebido = { metodo, caminho, corpo: o.corpo, token: o.token };
      return { resultados: [{ id: 'a', status: 201 }] };
    });
    const r = await t([envio('a', { v: 1 }), envio('b', { v: 2 }, ['k'])], 'tok');
    expect(r).toEqual([{ id: 'a', status: 201 }]);
    expect(recebido).toEqual({
      metodo: 'POST',
      caminho: '/sync/lote',
      token: 'tok',
      corpo: {
        operacoes: [
          { id: 'a', metodo: 'POST', caminho: '/x/a', corpo: { v: 1 }, chaves: ['a'] },
          { id: 'b', metodo: 'POST', caminho: '/x/b', corpo: { v: 2 }, chaves: ['k'] },
        ],
      },
    });
  });

  it('com um formulário de despesa: multipart com os campos na operação e o arquivo à parte, byte a byte', async () => {
    const fd = new FormData();
    fd.append('valor', '45.90');
    fd.append('cupom', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/jpeg' }), 'nota.jpg');
    let corpo: FormData | null = null;
    const t = transporteEmLote(async (_m, _c, o) => {
      corpo = o.corpo as FormData;
      return { resultados: [] };
    });
    await t([envio('d1', fd)], null);
    const form = corpo as unknown as FormData;
    expect(JSON.parse(String(form.get('operacoes')))).toEqual({ operacoes: [{ id: 'd1', metodo: 'POST', caminho: '/x/d1', corpo: { valor: '45.90' }, chaves: ['d1'] }] });
    const arquivo = form.get('arquivo:d1') as File;
    expect(arquivo.name).toBe('nota.jpg');
    expect([...new Uint8Array(await arquivo.arrayBuffer())]).toEqual([1, 2, 3]);
  });
});

describe('transporteIndividual', () => {
  it('uma recusa retém as escritas seguintes da mesma entidade; as outras seguem', async () => {
    const enviados: string[] = [];
    const t = transporteIndividual(async (_m, caminho) => {
      enviados.push(caminho);
      if (caminho === '/x/a') throw new ErroApi(409, 'Rota finalizada.', 'conflito');
      return { ok: true };
    });
    const r = await t([envio('a', {}, ['k']), envio('b', {}, ['k']), envio('c', {})], null);
    expect(enviados).toEqual(['/x/a', '/x/c']);
    expect(r).toEqual([
      { id: 'a', status: 409, corpo: { error: 'Rota finalizada.', codigo: 'conflito' } },
      { id: 'b', status: 'retido' },
      { id: 'c', status: 200, corpo: { ok: true } },
    ]);
  });

  it('sem conexão na primeira: o erro sobe; no meio: o que foi fica e o resto volta "nao_processado"', async () => {
    await expect(transporteIndividual(async () => Promise.reject(new ErroOffline()))([envio('a', {})], null)).rejects.toBeInstanceOf(ErroOffline);
    let n = 0;
    const t = transporteIndividual(async () => {
      n += 1;
      if (n === 2) throw new ErroOffline();
      return {};
    });
    expect((await t([envio('a', {}), envio('b', {}), envio('c', {})], null)).map((x) => x.status)).toEqual([200, 'nao_processado', 'nao_processado']);
  });
});
