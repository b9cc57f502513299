/**
 * Offline, the dashboard counts what the server confirmed AFTER its copies were
 * read, not only what is still queued: the same day reads the same online and offline.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { reaisParaCentavos } from '../../../shared/money';
import type { BaseSalario } from '../../../shared/schemas/relatorios';
import type { Rota } from '../../../shared/schemas/rotas';
import { hojeNoApp } from '../config/configApp';
import { enfileirarCriacao } from '../despesas/operacoes';
import { motorSync } from '../offline';
import '../offline/operacoes';
import { bancoLocal } from '../offline/db';
import { entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi } from '../test/renderizar';
import { rotaDeTeste } from '../test/rotas';
import { enfileirarVenda } from '../vendas/operacoes';
import { PaginaDashboard } from './PaginaDashboard';

const HOJE = hojeNoApp();
const CIDADES = [
  { id: 5208707, nome: 'Goiânia', uf: 'GO' },
  { id: 5201108, nome: 'Anápolis', uf: 'GO' },
  { id: 5204508, nome: 'Caldas Novas', uf: 'GO' },
  { id: 5205109, nome: 'Catalão', uf: 'GO' },
];
const sp = (t: string | null | undefined) => (t ?? '').replace(/\u00a0/g, ' ');

/** A server that keeps what it takes: its answers always include the confirmed writes. */
function servidorCoerente() {
  const rota: Rota = rotaDeTeste({ valor_aluguel: 300, cidades: CIDADES });
  const estado = { offline: false, saldo: 500, base: { valor_aluguel: 300, cidades_visitadas_ids: [], vendas: [] } as BaseSalario };
  const seOnline =
    <T,>(f: () => T) =>
    () =>
      estado.offline ? ('offline' as const) : f();
  simularApi({
    'GET /auth/me': seOnline(() => ({ corpo: { usuario: FUNCIONARIO_TESTE } })),
    'GET /rotas/ativas/funcionario': seOnline(() => ({ corpo: { rotas: [rota] } })),
    'GET /rotas/finalizadas/funcionario': seOnline(() => ({ corpo: { rotas: [] } })),
    'GET /saldo/resumo': seOnline(() => ({ corpo: { saldo_atual: estado.saldo, data_ultima_atualizacao: '2026-11-20T10:00:00.000Z' } })),
    'GET /relatorios/rota/:id': seOnline(() => ({ corpo: { rota_id: rota.id, calculo_salario: {}, desconto_aluguel_funcionario: 0, base: estado.base } })),
    'POST /vendas': (corpo) => {
      if (estado.offline) return 'offline';
      const v = corpo as { cidade_id: number; data_venda: string; valor_dinheiro: number; valor_boletos: number };
      estado.base = {
        ...estado.base,
        cidades_visitadas_ids: [...new Set([...estado.base.cidades_visitadas_ids, v.cidade_id])],
        vendas: [...estado.base.vendas, { cidade_id: v.cidade_id, data_venda: v.data_venda, total: v.valor_dinheiro, boletos: v.valor_boletos }],
      };
      return { status: 201, corpo: { venda: { ...v, atualizado_em: new Date().toISOString() } } };
    },
    'POST /despesas': (corpo) => {
      if (estado.offline) return 'offline';
      const valor = Number((corpo as FormData).get('valor'));
      estado.saldo = Math.round((estado.saldo - valor) * 100) / 100;
      return { status: 201, corpo: { despesa: { recebido_em: new Date().toISOString() } } };
    },
  });
  return estado;
}

/** `dinheiro` in reais, as typed; queued in centavos, as the form leaves it. */
async function venda(cidade: (typeof CIDADES)[number], dinheiro: number) {
  await enfileirarVenda(bancoLocal, FUNCIONARIO_TESTE.id, {
    id: `venda-${cidade.id}`,
    rota_id: 7,
    cidade_id: cidade.id,
    data_venda: HOJE,
    valor_dinheiro: reaisParaCentavos(dinheiro),
    valor_pix: 0,
    valor_cartao: 0,
    valor_link: 0,
    valor_boletos: 1,
    observacoes: '',
    registrado_em: new Date().toISOString(),
    cidade_nome: cidade.nome,
    cidade_uf: cidade.uf,
  });
}

async function despesa(valor: number) {
  await enfileirarCriacao(
    FUNCIONARIO_TESTE.id,
    {
      id: `despesa-${valor}`,
      rota_id: 7,
      cidade_id: CIDADES[0]!.id,
      data_despesa: HOJE,
      tipo: 'alimentacao',
      tipo_outro: '',
      valor,
      descricao: 'Almoço',
      registrado_em: new Date().toISOString(),
      rota_nome: 'Rota Sul Goiano',
      cidade_nome: 'Goiânia',
      cidade_uf: 'GO',
      funcionario_nome: FUNCIONARIO_TESTE.nome,
    },
    null,
  );
}

beforeEach(async () => {
  await Promise.all(bancoLocal.tables.map((t) => t.clear()));
});

describe('Dashboard do funcionário: a cópia completa do aparelho', () => {
  it('offline conta o que o servidor confirmou depois da cópia, além da fila: os mesmos números de online', async () => {
    const servidor = servidorCoerente();
    entrarComo(FUNCIONARIO_TESTE);
    renderizarApp(
      [
        { path: '/dashboard', element: <PaginaDashboard /> },
        { path: '/vendas', element: <Link to="/dashboard">Voltar ao dashboard</Link> },
        { path: '/despesas', element: <h1>Tela de Despesas</h1> },
      ],
      { em: '/dashboard' },
    );
    const usuario = userEvent.setup();
    // The morning: the dashboard read with signal, nothing sold yet (these copies stay on the phone).
    await waitFor(() => expect(screen.getByRole('group', { name: 'Cidades Atendidas' })).toHaveTextContent('0 / 4'));
    await waitFor(() => expect(sp(screen.getByTestId('saldo-confirmado').textContent)).toBe('R$ 500,00'));

    // Away from the dashboard, two closings and an expense reach the server...
    await usuario.click(screen.getByRole('link', { name: /Nova Venda/ }));
    await screen.findByRole('link', { name: 'Voltar ao dashboard' });
    await venda(CIDADES[0]!, 1000);
    await venda(CIDADES[1]!, 500);
    await despesa(45.9);
    await motorSync.sincronizarAgora({ ignorarEspera: true });
    expect(await bancoLocal.outbox.count()).toBe(0);

    // ...then the signal goes, and one more closing waits on the phone.
    servidor.offline = true;
    await venda(CIDADES[2]!, 250);
    await usuario.click(screen.getByRole('link', { name: 'Voltar ao dashboard' }));

    // 3 cities and R$ 1.750,00 (3,9375 bags, rounded to 3,94; average 1,31): 3,94 × R$ 60 = R$ 236,40 + 3 × R$ 25 + 3 × R$ 5,50 − the whole R$ 300 rent.
    await waitFor(() => expect(screen.getByRole('group', { name: 'Cidades Atendidas' })).toHaveTextContent('3 / 4'));
    expect(sp(screen.getByTestId('salario-total').textContent)).toBe('R$ 27,90');
    expect(sp(screen.getByTestId('saldo-projetado').textContent)).toBe('R$ 454,10');

    // With signal again, the server's own figures are the same, to the centavo.
    const offline = { cidades: screen.getByRole('group', { name: 'Cidades Atendidas' }).textContent, salario: screen.getByTestId('salario-total').textContent };
    servidor.offline = false;
    await motorSync.sincronizarAgora({ ignorarEspera: true });
    expect(await bancoLocal.outbox.count()).toBe(0);
    await usuario.click(screen.getByRole('link', { name: /Nova Venda/ }));
    await usuario.click(await screen.findByRole('link', { name: 'Voltar ao dashboard' }));
    await waitFor(() => expect(sp(screen.getByTestId('saldo-confirmado').textContent)).toBe('R$ 454,10'));
    expect(servidor.base.vendas).toHaveLength(3);
    expect(screen.getByRole('group', { name: 'Cidades Atendidas' }).textContent).toBe(offline.cidades);
    expect(screen.getByTestId('salario-total').textContent).toBe(offline.salario);
    expect(sp(screen.getByTestId('saldo-projetado').textContent)).toBe('R$ 454,10');
  });
});
