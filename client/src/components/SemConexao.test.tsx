/**
 * Every admin screen without signal says 'Sem conexão' with 'Tentar novamente',
 * never an empty state that reads like data ('Nenhum funcionário ativo encontrado', zeros).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { DashboardAdmin } from '../dashboard/DashboardAdmin';
import { PaginaDespesas } from '../despesas/PaginaDespesas';
import { PaginaRelatorios } from '../relatorios/PaginaRelatorios';
import { PaginaRotasAdmin } from '../rotas/PaginaRotasAdmin';
import { PaginaSaldo } from '../saldo/PaginaSaldo';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi, type ManipuladorApi } from '../test/renderizar';
import { PaginaUsuarios } from '../usuarios/PaginaUsuarios';
import { VendasAdmin } from '../vendas/VendasAdmin';

const TELAS: [string, ReactElement][] = [
  ['Dashboard', <DashboardAdmin usuario={ADMIN_TESTE} />],
  ['Rotas', <PaginaRotasAdmin />],
  ['Usuários', <PaginaUsuarios />],
  ['Vendas', <VendasAdmin />],
  ['Despesas', <PaginaDespesas />],
  ['Saldo', <PaginaSaldo />],
  ['Relatórios', <PaginaRelatorios />],
];

/** Answers every call but /auth/me with `resposta` (by default: no answer at all). */
function montar(tela: ReactElement, resposta: () => ReturnType<ManipuladorApi> = () => 'offline') {
  entrarComo(ADMIN_TESTE);
  simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    'GET /.+': () => resposta(),
  });
  return renderizarApp([{ path: '/tela', element: tela }], { em: '/tela' });
}

function definirOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

afterEach(() => definirOnline(true));

async function avisoSemConexao() {
  const titulo = await screen.findByRole('heading', { name: 'Sem conexão' });
  const aviso = titulo.closest('[role="alert"]') as HTMLElement;
  expect(aviso).not.toBeNull();
  expect(within(aviso).getByRole('button', { name: 'Tentar novamente' })).toBeInTheDocument();
  return aviso;
}

describe('telas do admin sem conexão', () => {
  it.each(TELAS)('%s: o servidor não responde → "Sem conexão" com "Tentar novamente", nada de lista vazia', async (_nome, tela) => {
    montar(tela);
    await avisoSemConexao();
    expect(screen.queryByText(/^Nenhum|^Nenhuma/)).not.toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it.each(TELAS)('%s: o navegador diz offline → "Sem conexão"', async (_nome, tela) => {
    definirOnline(false);
    montar(tela);
    await avisoSemConexao();
    expect(screen.queryByText(/^Nenhum|^Nenhuma/)).not.toBeInTheDocument();
  });

  it('"Tentar novamente" lê de novo e mostra os dados quando o servidor responde', async () => {
    let online = false;
    montar(<PaginaSaldo />, () =>
      online
        ? { corpo: { saldos: [{ funcionario_id: 2, funcionario_nome: 'Bruno Campo', funcionario_email: 'b@x.com', funcionario_ativo: true, saldo_atual: 10, data_ultima_atualizacao: null }], total_funcionarios: 1, saldo_total: 10, movimentacoes_hoje: 0, movimentacoes: [], total: 0, relatorio: [] } }
        : 'offline',
    );
    const aviso = await avisoSemConexao();
    online = true;
    await userEvent.click(within(aviso).getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('cell', { name: 'Bruno Campo' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Sem conexão' })).not.toBeInTheDocument());
  });

  it('uma falha do servidor (500) não é falta de conexão: o dashboard segue a seção 8 (zeros)', async () => {
    montar(<DashboardAdmin usuario={ADMIN_TESTE} />, () => ({ status: 500, corpo: { error: 'falhou', codigo: 'erro_interno' } }));
    await screen.findByText('Nenhuma rota ativa');
    expect(screen.queryByRole('heading', { name: 'Sem conexão' })).not.toBeInTheDocument();
  });
});
