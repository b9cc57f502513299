/**
 * Relatórios opened at a route's address ('/relatorios?rota=<id>', the audit trail's link): the route's
 * details open by themselves, whatever the filters list; closing them leaves the plain address.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { DetalhesRota } from '../../../shared/schemas/relatorios';
import type { StatusRota } from '../../../shared/schemas/rotas';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi } from '../test/renderizar';
import { PaginaRelatorios } from './PaginaRelatorios';

function detalhes(status: StatusRota): DetalhesRota {
  return {
    rota_id: 5,
    rota_nome: 'Rota Norte',
    funcionario_nome: 'Bruno Campo',
    status,
    data_inicio: '2026-11-01',
    data_fim: '2026-11-30',
    data_inicio_formatada: '01/11/2026',
    data_fim_formatada: '30/11/2026',
    cidades: [
      { cidade_id: 1, cidade_nome: 'Goiânia', uf: 'GO', visitada: true, total_vendas: 1000, total_despesas: 75.5 },
      { cidade_id: 2, cidade_nome: 'Anápolis', uf: 'GO', visitada: true, total_vendas: 0, total_despesas: 120 },
      { cidade_id: 3, cidade_nome: 'Catalão', uf: 'GO', visitada: false, total_vendas: 0, total_despesas: 0 },
    ],
    total_cidades: 3,
    cidades_visitadas: 2,
    media_bolsas_cidade: 1.125,
    calculo_salario: {
      total_vendas: 1000,
      total_bolsas: 2.25,
      media_bolsas_cidade: 1.125,
      valor_por_bolsa: 60,
      valor_bolsas: 135,
      valor_fixo_por_cidade: 25,
      cidades_visitadas: 2,
      valor_cidades: 50,
      boletos: 2,
      valor_boletos: 11,
      valor_aluguel: 100,
      desconto_aluguel: 100,
      quem_paga_aluguel: 'funcionario',
      total_salario: 96,
    },
    total_vendas: 1000,
    total_despesas: 195.5,
    total_creditos: 300,
    total_salario: 96,
    valor_aluguel: 100,
    desconto_aluguel_funcionario: 100,
    desconto_aluguel_escola: 0,
    quem_pagou_aluguel: 'Funcionário',
    saldo_final: 104.5,
    despesas: [],
  };
}

function Endereco() {
  const local = useLocation();
  return <p data-testid="endereco">{`${local.pathname}${local.search}`}</p>;
}

function montar(em: string) {
  entrarComo(ADMIN_TESTE);
  const pedidos: string[] = [];
  simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    // The default filter lists no route: the details do not depend on the table.
    'GET /relatorios/rotas': () => ({ corpo: { rotas: [] } }),
    'GET /usuarios/funcionarios': () => ({ corpo: { funcionarios: [] } }),
    'GET /relatorios/tendencias': () => ({ status: 400, corpo: { error: 'Sem tendências neste teste.', codigo: 'dados_invalidos' } }),
    'GET /relatorios/rota/:id/detalhes': (_c, url) => {
      pedidos.push(url.pathname);
      return { corpo: detalhes('finalizada') };
    },
  });
  renderizarApp(
    [
      {
        path: '/relatorios',
        element: (
          <>
            <PaginaRelatorios />
            <Endereco />
          </>
        ),
      },
    ],
    { em },
  );
  return pedidos;
}

describe('Relatórios aberta no endereço de uma rota', () => {
  it('abre os detalhes da rota; fechar tira o endereço', async () => {
    const pedidos = montar('/relatorios?rota=5');
    const modal = await screen.findByRole('dialog', { name: 'Rota Norte' });
    expect(await within(modal).findByText('Bruno Campo')).toBeInTheDocument();
    expect(pedidos).toEqual(['/api/relatorios/rota/5/detalhes']);
    await userEvent.setup().click(within(modal).getAllByRole('button', { name: 'Fechar' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Rota Norte' })).not.toBeInTheDocument());
    expect(screen.getByTestId('endereco')).toHaveTextContent(/^\/relatorios$/);
  });

  it('um endereço sem um id de rota válido não abre nada', async () => {
    const pedidos = montar('/relatorios?rota=abc');
    expect(await screen.findByText('Nenhuma rota encontrada')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(pedidos).toEqual([]);
  });
});
