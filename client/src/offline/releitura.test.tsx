/**
 * A sync pass that confirms a field day's writes refreshes each screen's data ONCE, not
 * once per confirmed write (a field day's sync was followed by ~21 GETs). The app's own engine,
 * registry and screens' hooks; the server is a fake fetch that takes every operation.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { v7 as uuidv7 } from 'uuid';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { definirFetch } from '../api/client';
import { salvarSessao } from '../auth/sessaoLocal';
import { useFilaDeDespesas } from '../despesas/consultas';
import { useFilaDeVendas } from '../vendas/useFilaDeVendas';
import { motorSync } from '.';
import { bancoLocal } from './db';
import './operacoes';
import { enfileirar, itensDoUsuario } from './outbox';

const USUARIO = 7;

function Telas() {
  useFilaDeVendas(USUARIO, 0);
  useFilaDeDespesas(USUARIO);
  return null;
}

/** A fake server: every operation of every batch taken; counts the batch requests. */
let lotes = 0;
async function servidor(entrada: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = String(entrada);
  const json = (corpo: unknown) => new Response(JSON.stringify(corpo), { status: 200, headers: { 'content-type': 'application/json' } });
  if (url.endsWith('/api/sync/lote')) {
    lotes += 1;
    const texto = init?.body instanceof FormData ? String(init.body.get('operacoes')) : String(init?.body);
    const { operacoes } = JSON.parse(texto) as { operacoes: { id: string }[] };
    return json({ resultados: operacoes.map((o) => ({ id: o.id, status: 201, recebido_em: '2026-11-25T18:00:00.000Z' })) });
  }
  return json({});
}

const dia = '2026-11-25';

async function diaDeCampo() {
  for (let i = 1; i <= 12; i++) {
    const dados = { id: uuidv7(), rota_id: 3, cidade_id: 5200000 + i, data_venda: dia, valor_dinheiro: 10, valor_pix: 0, valor_cartao: 0, valor_link: 0, valor_boletos: 0, observacoes: '', registrado_em: `${dia}T12:00:00.000Z` };
    await enfileirar(bancoLocal, { tipo: 'venda.salvar', usuarioId: USUARIO, dados, chaves: [`venda:3:${dados.cidade_id}:${dia}`], descricao: `Venda ${i}` });
  }
  for (let i = 1; i <= 2; i++) {
    const dados = { id: uuidv7(), rota_id: 3, cidade_id: 5300000 + i, data: dia, registrado_em: `${dia}T12:00:00.000Z` };
    await enfileirar(bancoLocal, { tipo: 'visita.registrar', usuarioId: USUARIO, dados, chaves: [`venda:3:${dados.cidade_id}:${dia}`], descricao: `Visita ${i}` });
  }
  for (let i = 1; i <= 7; i++) {
    const dados = {
      operacao: 'criar',
      id: uuidv7(),
      rota_id: 3,
      cidade_id: 5200001,
      data_despesa: dia,
      tipo: 'alimentacao',
      tipo_outro: '',
      valor: 25.9,
      descricao: 'Almoço',
      registrado_em: `${dia}T12:00:00.000Z`,
      rota_nome: 'Rota 3',
      cidade_nome: 'Cidade',
      cidade_uf: 'GO',
      funcionario_nome: 'Ana',
      cupom: i <= 6 ? { nome: `foto-${i}.jpg`, tipo: 'image/jpeg' } : null,
    };
    // Six photo receipts (they go after the writes without files, in their own requests).
    const arquivos = i <= 6 ? [{ nome: `foto-${i}.jpg`, tipo: 'image/jpeg', conteudo: new Uint8Array(40_000).fill(0xff).buffer }] : undefined;
    await enfileirar(bancoLocal, { tipo: 'despesa.criar', usuarioId: USUARIO, dados, chaves: [`despesa:${dados.id}`], descricao: `Despesa ${i}`, ...(arquivos ? { arquivos } : {}) });
  }
}

beforeEach(async () => {
  lotes = 0;
  await bancoLocal.delete();
  await bancoLocal.open();
  salvarSessao('tok', { id: USUARIO, nome: 'Ana', email: 'ana@teste.com.br', tipo: 'funcionario' } as never);
  definirFetch(servidor);
});
afterEach(() => {
  motorSync.parar();
  definirFetch((...a) => fetch(...a));
});

describe('depois de uma passada de sincronização', () => {
  it('cada tela relê seus dados uma vez, não uma vez por escrita confirmada', async () => {
    await diaDeCampo();
    const queryClient = new QueryClient();
    const invalidar = vi.spyOn(queryClient, 'invalidateQueries');
    const envolver = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    render(<Telas />, { wrapper: envolver });
    await waitFor(() => expect(invalidar).toHaveBeenCalledTimes(0));

    await motorSync.sincronizarAgora();
    await waitFor(async () => expect(await itensDoUsuario(bancoLocal, USUARIO)).toHaveLength(0));
    // The writes travelled in more than one batch answer (text first, then the photos)...
    expect(lotes).toBeGreaterThan(1);
    expect(motorSync.estado().sincronizando).toBe(false);
    // ...and each screen's data was refreshed once for the whole pass.
    const chaves = () => invalidar.mock.calls.map(([filtro]) => JSON.stringify(filtro?.queryKey));
    await waitFor(() => expect(chaves()).toHaveLength(3));
    // Whatever the screens' live queries still had to say has been said (one more round of effects).
    await act(async () => {
      await bancoLocal.outbox.count();
    });
    expect(chaves()).toHaveLength(3);
    expect(chaves().sort()).toEqual([JSON.stringify(['despesas', 'lista']), JSON.stringify(['saldo']), JSON.stringify(['vendas', 'funcionario', USUARIO])].sort());
  });
});
