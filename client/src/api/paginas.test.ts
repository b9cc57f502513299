import { afterEach, describe, expect, it } from 'vitest';
import { definirFetch } from './client';
import { lerTodasAsPaginas, ListaGrandeDemais } from './paginas';

/** A fake server with `n` rows, answering pages as the real one does (at most `maximo` a page). */
function servidor(n: number, maximo = 1000) {
  const pedidos: URL[] = [];
  definirFetch(async (entrada) => {
    const url = new URL(String(entrada), 'http://localhost');
    pedidos.push(url);
    const page = Number(url.searchParams.get('page'));
    const limit = Math.min(Number(url.searchParams.get('limit')), maximo);
    const vendas = Array.from({ length: n }, (_, i) => ({ id: i + 1 })).slice((page - 1) * limit, page * limit);
    return new Response(JSON.stringify({ totais: { total_geral: n }, vendas, total: n, page, limit }), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  return pedidos;
}

afterEach(() => definirFetch((...args) => fetch(...args)));

describe('lerTodasAsPaginas', () => {
  it('junta todas as páginas e mantém os outros campos da primeira resposta', async () => {
    const pedidos = servidor(2345);
    const r = await lerTodasAsPaginas<{ vendas: { id: number }[]; totais: { total_geral: number }; total: number }, 'vendas'>('/vendas/fechamento-diario', 'vendas', { rota_id: 3 });
    expect(r.vendas).toHaveLength(2345);
    expect(new Set(r.vendas.map((v) => v.id)).size).toBe(2345);
    expect(r.totais.total_geral).toBe(2345);
    expect(pedidos.map((u) => u.searchParams.get('page'))).toEqual(['1', '2', '3']);
    expect(pedidos.every((u) => u.searchParams.get('rota_id') === '3' && u.searchParams.get('limit') === '1000')).toBe(true);
  });

  it('uma página só quando cabe', async () => {
    const pedidos = servidor(7);
    const r = await lerTodasAsPaginas<{ vendas: unknown[]; total: number }, 'vendas'>('/vendas', 'vendas');
    expect(r.vendas).toHaveLength(7);
    expect(pedidos).toHaveLength(1);
  });

  it('tem limite: além do máximo de páginas falha em vez de ler para sempre', async () => {
    const pedidos = servidor(50, 10);
    await expect(lerTodasAsPaginas<{ vendas: unknown[]; total: number }, 'vendas'>('/vendas', 'vendas', {}, { maximoPaginas: 3 })).rejects.toBeInstanceOf(ListaGrandeDemais);
    expect(pedidos).toHaveLength(3);
  });
});
