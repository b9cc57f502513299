import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DetalhesRota } from '../../../shared/schemas/relatorios';
import type { Tardia } from '../../../shared/schemas/tardias';
import { describe, expect, it } from 'vitest';
import type { StatusRota } from '../../../shared/schemas/rotas';
import { detalhesDeRotaDeTeste } from '../test/relatorios';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi, type ManipuladorApi } from '../test/renderizar';
import { ModalDetalhesRota } from './ModalDetalhesRota';

function montar(status: StatusRota, { detalhes = detalhesDeRotaDeTeste(status), tardios = [] as Tardia[], extra = {} as Record<string, ManipuladorApi> } = {}) {
  entrarComo(ADMIN_TESTE);
  const api = simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    'GET /relatorios/rota/:id/detalhes': () => ({ corpo: detalhes }),
    'GET /rotas/:id/tardios': () => ({ corpo: { tardios } }),
    ...extra,
  });
  renderizarApp([{ path: '/relatorios', element: <ModalDetalhesRota rotaId={5} aoFechar={() => {}} /> }], { em: '/relatorios' });
  return api;
}

/** A finished route: R$ 1.000 of credits, R$ 300 approved, R$ 50 pending, R$ 100 rejected; R$ 900 credited without a route. */
function comAcerto(mudar: Partial<DetalhesRota['acerto']> = {}, tardiosPendentes = 0): DetalhesRota {
  return {
    ...detalhesDeRotaDeTeste('finalizada'),
    saldo_final: 650,
    tardios_pendentes: tardiosPendentes,
    acerto: {
      creditos: 1000,
      creditos_sem_rota: 900,
      despesas_aprovadas: 300,
      despesas_pendentes: 50,
      despesas_rejeitadas: 100,
      salario: 96,
      desconto_aluguel: 100,
      a_devolver: 650,
      a_receber: 0,
      acertada_em: null,
      acertos: [],
      ...mudar,
    },
  };
}

const sp = (t: string | null) => (t ?? '').replace(/\u00a0/g, ' ');

describe('Detalhes da rota (Relatórios)', () => {
  it('rota finalizada: "Salário pago" com o detalhamento do cálculo', async () => {
    montar('finalizada');
    const totais = await screen.findByRole('region', { name: 'Totais' });
    expect(totais).toHaveTextContent('Salário pagoR$ 96,00');
    const calculo = screen.getByRole('group', { name: 'Como o salário foi calculado' });
    expect(calculo).toHaveTextContent('Bolsas2,25 × R$ 60,00R$ 135,00');
    expect(calculo).toHaveTextContent('Bônus por cidade2 cidades visitadas × R$ 25,00R$ 50,00');
    expect(calculo).toHaveTextContent('Boletos2 × R$ 5,50R$ 11,00');
    expect(calculo).toHaveTextContent('Desconto do aluguelaluguel da rota: R$ 100,00− R$ 100,00');
    expect(calculo).toHaveTextContent('Salário pagoR$ 96,00');
  });

  for (const [status, rotulo] of [
    ['ativa', 'Salário estimado (até agora)'],
    ['cancelada', 'Salário até o cancelamento'],
  ] as const) {
    it(`rota ${status}: o salário não se chama "pago" ("${rotulo}")`, async () => {
      montar(status);
      const totais = await screen.findByRole('region', { name: 'Totais' });
      expect(totais).toHaveTextContent(`${rotulo}R$ 96,00`);
      expect(screen.getByRole('dialog')).not.toHaveTextContent('Salário pago');
      expect(within(screen.getByRole('group', { name: 'Como o salário foi calculado' })).getByText(rotulo)).toBeInTheDocument();
    });
  }
});

describe('Acerto da rota (detalhes)', () => {
  it('a rejeitada não baixa o que o funcionário devolve: linha própria; salário e créditos sem rota ficam ao lado', async () => {
    montar('finalizada', { detalhes: comAcerto() });
    const quadro = await screen.findByRole('region', { name: 'Acerto da rota' });
    expect(sp(within(quadro).getByTestId('acerto-em-aberto').textContent)).toBe('A devolvero funcionário devolve à empresaR$ 650,00');
    expect(sp(within(quadro).getByTestId('acerto-rejeitadas').textContent)).toContain('Despesas rejeitadas: R$ 100,00');
    expect(sp(quadro.textContent)).toContain('Créditos sem rotaenviados ao funcionário sem uma rota: ficam no saldo dele, fora deste acertoR$ 900,00');
    expect(sp(quadro.textContent)).toContain('Salário');
    expect(within(quadro).getByText('Aguardando acerto')).toBeInTheDocument();
  });

  it('registrar o acerto: vem preenchido com o que está em aberto, pergunta, envia valor e sentido, e mostra a recusa do servidor', async () => {
    const usuario = userEvent.setup();
    const api = montar('finalizada', {
      detalhes: comAcerto(),
      extra: { 'POST /rotas/:id/acerto': () => ({ status: 409, corpo: { error: 'O acerto de R$ 600,00 passa do que está em aberto nesta rota (R$ 550,00).', codigo: 'conflito' } }) },
    });
    const formulario = await screen.findByRole('form', { name: 'Registrar acerto' });
    const valor = within(formulario).getByLabelText(/Valor \(R\$\)/);
    expect(valor).toHaveValue('650,00');
    await usuario.clear(valor);
    await usuario.type(valor, '600,00');
    await usuario.type(within(formulario).getByLabelText('Observação'), 'Pix');
    await usuario.click(within(formulario).getByRole('button', { name: 'Registrar acerto' }));
    const pergunta = await screen.findByRole('dialog', { name: 'Registrar acerto' });
    expect(sp(pergunta.textContent)).toContain('Registrar que Bruno Campo devolveu R$ 600,00?');
    expect(sp(pergunta.textContent)).toContain('Acerto parcial: R$ 50,00 continuam em aberto.');
    await usuario.click(within(pergunta).getByRole('button', { name: 'Registrar' }));
    expect(await within(formulario).findByRole('alert')).toHaveTextContent('O acerto de R$ 600,00 passa do que está em aberto nesta rota (R$ 550,00).');
    expect(api.chamadas.find((c) => c.metodo === 'POST')?.corpo).toEqual({ valor: 600, sentido: 'devolvido', observacao: 'Pix' });
  });

  it('mais do que o aberto é recusado já no formulário; a receber registra o pagamento ao funcionário', async () => {
    const usuario = userEvent.setup();
    const api = montar('finalizada', {
      detalhes: comAcerto({ despesas_aprovadas: 1070.5, a_devolver: 0, a_receber: 120.5 }),
      extra: { 'POST /rotas/:id/acerto': () => ({ status: 201, corpo: { acerto: comAcerto({ a_devolver: 0, a_receber: 0 }).acerto } }) },
    });
    const formulario = await screen.findByRole('form', { name: 'Registrar acerto' });
    expect(within(formulario).getByRole('heading', { name: 'Registrar o pagamento ao funcionário' })).toBeInTheDocument();
    const valor = within(formulario).getByLabelText(/Valor \(R\$\)/);
    await usuario.clear(valor);
    await usuario.type(valor, '1.280,50');
    await usuario.click(within(formulario).getByRole('button', { name: 'Registrar acerto' }));
    expect(sp((await within(formulario).findByRole('alert')).textContent)).toBe('O acerto de R$ 1.280,50 passa do que está em aberto nesta rota (R$ 120,50).');
    await usuario.clear(valor);
    await usuario.type(valor, '120,50');
    await usuario.click(within(formulario).getByRole('button', { name: 'Registrar acerto' }));
    await usuario.click(within(await screen.findByRole('dialog', { name: 'Registrar acerto' })).getByRole('button', { name: 'Registrar' }));
    await waitFor(() => expect(api.chamadas.find((c) => c.metodo === 'POST')?.corpo).toEqual({ valor: 120.5, sentido: 'pago', observacao: '' }));
  });

  it('acertada: mostra a data e os acertos, sem formulário', async () => {
    montar('finalizada', {
      detalhes: comAcerto({ a_devolver: 0, acertada_em: '2026-12-05T15:00:00.000Z', acertos: [{ valor: 650, sentido: 'devolvido', data: '2026-12-05T15:00:00.000Z', admin: 'Administrador', observacao: 'Em dinheiro' }] }),
    });
    const quadro = await screen.findByRole('region', { name: 'Acerto da rota' });
    expect(within(quadro).getByText('Acertada em 05/12/2026')).toBeInTheDocument();
    expect(sp(within(quadro).getByRole('list', { name: 'Acertos registrados' }).textContent)).toContain('05/12/2026 · Devolvido pelo funcionário · AdministradorEm dinheiroR$ 650,00');
    expect(screen.queryByRole('form', { name: 'Registrar acerto' })).not.toBeInTheDocument();
  });
});

describe('Registros que chegaram depois da finalização (detalhes)', () => {
  const tardio: Tardia = {
    operacao_id: 'op-1',
    tipo: 'venda.salvar',
    rotulo: 'Fechamento do dia',
    descricao: 'Anápolis (GO), 03/12/2026: R$ 1.201,01',
    data: '2026-12-03',
    situacao: 'pendente',
    motivo: null,
    recebida_em: '2026-12-05T15:00:00.000Z',
    decidida_em: null,
    decidida_por: null,
  };

  it('o acerto espera a decisão; aceitar chama o endpoint; recusar pede o motivo antes de enviar', async () => {
    const usuario = userEvent.setup();
    const api = montar('finalizada', {
      detalhes: comAcerto({}, 1),
      tardios: [tardio, { ...tardio, operacao_id: 'op-2', descricao: 'Goiânia (GO), 04/12/2026: visitada sem venda', tipo: 'visita.registrar', rotulo: 'Visita sem venda' }],
      extra: {
        'PATCH /rotas/:id/tardios/:op/aceitar': () => ({ corpo: { tardio: { ...tardio, situacao: 'aceita' } } }),
        'PATCH /rotas/:id/tardios/:op/recusar': () => ({ corpo: { tardio: { ...tardio, operacao_id: 'op-2', situacao: 'recusada', motivo: 'Visita repetida' } } }),
      },
    });
    const lista = await screen.findByRole('region', { name: 'Registros que chegaram depois da finalização' });
    expect(screen.getByText(/Antes do acerto, decida o registro que chegou depois da finalização/)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Registrar acerto' })).not.toBeInTheDocument();
    const [primeiro, segundo] = within(lista).getAllByRole('listitem');
    expect(primeiro).toHaveTextContent('Anápolis (GO), 03/12/2026: R$ 1.201,01');
    await usuario.click(within(primeiro!).getByRole('button', { name: 'Aceitar' }));
    await waitFor(() => expect(api.chamadas.some((c) => c.metodo === 'PATCH' && c.caminho === '/rotas/5/tardios/op-1/aceitar')).toBe(true));

    await usuario.click(within(segundo!).getByRole('button', { name: 'Recusar' }));
    await usuario.click(within(segundo!).getByRole('button', { name: 'Confirmar recusa' }));
    expect(await within(segundo!).findByRole('alert')).toHaveTextContent('Escreva o motivo da recusa');
    await usuario.type(within(segundo!).getByLabelText(/Motivo da recusa/), 'Visita repetida');
    await usuario.click(within(segundo!).getByRole('button', { name: 'Confirmar recusa' }));
    await waitFor(() => expect(api.chamadas.find((c) => c.caminho === '/rotas/5/tardios/op-2/recusar')?.corpo).toEqual({ motivo: 'Visita repetida' }));
  });
});
