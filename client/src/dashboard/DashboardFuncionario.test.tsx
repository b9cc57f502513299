import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formatarDataHora } from '../../../shared/dates';
import { reaisParaCentavos } from '../../../shared/money';
import type { BaseSalario } from '../../../shared/schemas/relatorios';
import type { Rota } from '../../../shared/schemas/rotas';
import { fusoDoApp, hojeNoApp } from '../config/configApp';
import { enfileirarCriacao } from '../despesas/operacoes';
import { bancoLocal } from '../offline/db';
import { entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi, type RespostaFalsa } from '../test/renderizar';
import { rotaDeTeste } from '../test/rotas';
import { enfileirarVenda, enfileirarVisita } from '../vendas/operacoes';
import { PaginaDashboard } from './PaginaDashboard';

const HOJE = hojeNoApp();
const GOIANIA = 5208707;
const ANAPOLIS = 5201108;
const CALDAS = 5204508;
const CATALAO = 5205109;
const sp = (t: string | null | undefined) => (t ?? '').replace(/\u00a0/g, ' ');

function rota(extra: Partial<Rota> = {}): Rota {
  return rotaDeTeste({
    valor_aluguel: 300,
    cidades: [
      { id: GOIANIA, nome: 'Goiânia', uf: 'GO' },
      { id: ANAPOLIS, nome: 'Anápolis', uf: 'GO' },
      { id: CALDAS, nome: 'Caldas Novas', uf: 'GO' },
      { id: CATALAO, nome: 'Catalão', uf: 'GO' },
    ],
    ...extra,
  });
}

/**
 * R$ 1.333,32 over 2 visited cities: 3 bags, average exactly 1,5 -> R$ 60 a bag, R$ 50 a city,
 * the R$ 300,00 rent split in half. 180 + 100 + 3 × 5,50 − 150 = R$ 146,50.
 */
const BASE: BaseSalario = {
  valor_aluguel: 300,
  cidades_visitadas_ids: [GOIANIA, ANAPOLIS],
  vendas: [
    { cidade_id: GOIANIA, data_venda: '2026-11-20', total: 1000, boletos: 2 },
    { cidade_id: ANAPOLIS, data_venda: '2026-11-21', total: 333.32, boletos: 1 },
  ],
};

interface Servidor {
  rota: Rota | null;
  base: BaseSalario;
  saldo: number;
  finalizadas: number;
  offline: boolean;
  salario?: () => RespostaFalsa;
  /** The active route's answer waits for this (a slow connection). */
  rotaChegaApos?: Promise<void>;
}

function montar(servidor: Partial<Servidor> = {}) {
  const s: Servidor = { rota: rota(), base: BASE, saldo: 500, finalizadas: 2, offline: false, ...servidor };
  entrarComo(FUNCIONARIO_TESTE);
  const seOnline = (f: () => RespostaFalsa) => () => (s.offline ? 'offline' : f());
  const api = simularApi({
    'GET /auth/me': seOnline(() => ({ corpo: { usuario: FUNCIONARIO_TESTE } })),
    'GET /rotas/ativas/funcionario': async () => {
      await s.rotaChegaApos;
      return s.offline ? 'offline' : { corpo: { rotas: s.rota ? [s.rota] : [] } };
    },
    'GET /rotas/finalizadas/funcionario': seOnline(() => ({
      corpo: { rotas: Array.from({ length: s.finalizadas }, (_, i) => rota({ id: 100 + i, nome: `Rota antiga ${i + 1}`, status: 'finalizada' })) },
    })),
    'GET /saldo/resumo': seOnline(() => ({ corpo: { saldo_atual: s.saldo, data_ultima_atualizacao: '2026-11-20T10:00:00.000Z' } })),
    'GET /relatorios/rota/:id': seOnline(() => s.salario?.() ?? { corpo: { rota_id: 7, calculo_salario: {}, desconto_aluguel_funcionario: 150, base: s.base } }),
    // The outbox replays when a screen asks: keep the queue on the device in these tests.
    'POST /vendas': () => 'offline',
    'POST /despesas': () => 'offline',
  });
  const tela = renderizarApp(
    [
      { path: '/dashboard', element: <PaginaDashboard /> },
      { path: '/vendas', element: <h1>Tela de Vendas</h1> },
      { path: '/despesas', element: <h1>Tela de Despesas</h1> },
      { path: '/rotas', element: <h1>Minhas Rotas</h1> },
    ],
    { em: '/dashboard' },
  );
  return { api, s, tela };
}

const cartao = (rotulo: string) => screen.getByRole('group', { name: rotulo });
const salario = () => screen.getByRole('region', { name: 'Salário Estimado' });
/** The salary card's placeholder: same rows as the card, figures hidden, named as still being calculated. */
const esqueletoSalario = () => screen.getByRole('region', { name: 'Salário Estimado (calculando...)' });
/** A line of the salary's sum: its label (with how it was reached) and its amount. */
const linha = (rotulo: string) => {
  const dt = within(salario()).getAllByText(rotulo, { selector: '.salario__linha dt' })[0]!;
  return { detalhe: sp(dt.querySelector('.salario__detalhe')?.textContent), valor: sp(dt.nextElementSibling?.textContent) };
};
const indicador = (rotulo: string) => sp(within(salario()).getByText(rotulo, { selector: '.salario__indicador dt' }).nextElementSibling?.querySelector('strong')?.textContent);

/** `valores.dinheiro` in reais, as typed; queued in centavos, as the form leaves it. */
async function venda(cidade: number, nome: string, valores: { dinheiro?: number; boletos?: number }, data = HOJE) {
  await enfileirarVenda(bancoLocal, FUNCIONARIO_TESTE.id, {
    id: `venda-${cidade}-${data}`,
    rota_id: 7,
    cidade_id: cidade,
    data_venda: data,
    valor_dinheiro: reaisParaCentavos(valores.dinheiro ?? 0),
    valor_pix: 0,
    valor_cartao: 0,
    valor_link: 0,
    valor_boletos: valores.boletos ?? 0,
    observacoes: '',
    registrado_em: new Date().toISOString(),
    cidade_nome: nome,
    cidade_uf: 'GO',
  });
}

beforeEach(async () => {
  await Promise.all(bancoLocal.tables.map((t) => t.clear()));
});

describe('Dashboard do funcionário', () => {
  it('enquanto a rota ativa não chega: o painel já desenhado, com cada cartão no tamanho final, sem deslocar nada quando os dados chegam', async () => {
    let chegar!: () => void;
    montar({ rotaChegaApos: new Promise<void>((r) => (chegar = r)) });
    expect(await screen.findByTestId('esqueleto-painel')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Carregando o dashboard...');
    for (const rotulo of ['Rota Ativa', 'Cidades Atendidas', 'Rotas Concluídas']) expect(cartao(rotulo)).toHaveAttribute('aria-busy', 'true');
    // The balance does not wait for the route: once read it shows, and its card is no longer busy.
    await waitFor(() => expect(sp(screen.getByTestId('saldo-confirmado').textContent)).toBe('R$ 500,00'));
    expect(cartao('Saldo Disponível')).not.toHaveAttribute('aria-busy');
    expect(cartao('Rota Ativa')).toHaveAttribute('aria-busy', 'true');
    // The bar is there before its count, and the salary card has every row it will have.
    expect(within(cartao('Cidades Atendidas')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
    expect(esqueletoSalario()).toHaveAttribute('aria-busy', 'true');
    const linhasNoEsqueleto = esqueletoSalario().querySelectorAll('.salario__linha, .salario__indicador, .salario__aluguel, .salario__total').length;
    expect(linhasNoEsqueleto).toBeGreaterThanOrEqual(9);
    expect(screen.getByRole('navigation', { name: 'Ações rápidas' })).toBeInTheDocument();
    expect(screen.queryByTestId('salario-total')).toBeNull();
    chegar();
    await waitFor(() => expect(sp(screen.getByTestId('salario-total').textContent)).toBe('R$ 146,50'));
    expect(salario()).not.toHaveAttribute('aria-busy');
    expect(salario().querySelectorAll('.salario__linha, .salario__indicador, .salario__aluguel, .salario__total').length).toBe(linhasNoEsqueleto);
    expect(cartao('Cidades Atendidas')).toHaveTextContent('2 / 4');
  });

  it('quando a rota chega, os mesmos cartões são preenchidos no lugar: nada da moldura é desfeito e desenhado de novo', async () => {
    // Replacing the whole frame was the dashboard's longest task in the Lighthouse trace.
    let chegar!: () => void;
    montar({ rotaChegaApos: new Promise<void>((r) => (chegar = r)) });
    await screen.findByTestId('esqueleto-painel');
    const antes = { rota: cartao('Rota Ativa'), saldo: cartao('Saldo Disponível'), salario: esqueletoSalario(), atalhos: screen.getByRole('navigation', { name: 'Ações rápidas' }) };
    chegar();
    await waitFor(() => expect(sp(screen.getByTestId('salario-total').textContent)).toBe('R$ 146,50'));
    expect(screen.queryByTestId('esqueleto-painel')).toBeNull();
    expect(screen.queryByText('Carregando o dashboard...')).toBeNull();
    expect(cartao('Rota Ativa')).toBe(antes.rota);
    expect(antes.rota).toHaveTextContent('Rota Sul Goiano');
    expect(antes.rota).not.toHaveAttribute('aria-busy');
    expect(cartao('Saldo Disponível')).toBe(antes.saldo);
    expect(salario()).toBe(antes.salario);
    expect(screen.getByRole('navigation', { name: 'Ações rápidas' })).toBe(antes.atalhos);
  });

  it('o salário estimado ainda sem base ocupa o lugar do cartão pronto (esqueleto), e "Pronto para viajar" vem depois dos atalhos', async () => {
    montar({ salario: () => new Promise<RespostaFalsa>(() => undefined) as unknown as RespostaFalsa });
    await waitFor(() => expect(cartao('Rota Ativa')).toHaveTextContent('Rota Sul Goiano'));
    await waitFor(() => expect(esqueletoSalario()).toHaveAttribute('aria-busy', 'true'));
    expect(within(esqueletoSalario()).getByText('Bolsas', { selector: '.salario__linha dt' })).toBeInTheDocument();
    // The late card goes last: arriving (and growing with its checklist) it pushes nothing down.
    const viagem = await screen.findByRole('region', { name: 'Pronto para viajar' });
    const atalhos = screen.getByRole('navigation', { name: 'Ações rápidas' });
    expect(atalhos.compareDocumentPosition(viagem) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('com rota ativa: os quatro cartões, o salário estimado com todo o detalhamento e os atalhos', async () => {
    montar();
    await waitFor(() => expect(sp(screen.getByTestId('salario-total').textContent)).toBe('R$ 146,50'));
    expect(cartao('Rota Ativa')).toHaveTextContent('Rota Sul Goiano');
    expect(cartao('Rota Ativa')).toHaveTextContent('01/11/2026 a 30/11/2026');
    expect(cartao('Cidades Atendidas')).toHaveTextContent('2 / 4');
    expect(within(cartao('Cidades Atendidas')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '2');
    expect(within(cartao('Rotas Concluídas')).getByText('2')).toBeInTheDocument();
    await waitFor(() => expect(sp(screen.getByTestId('saldo-confirmado').textContent)).toBe('R$ 500,00'));
    expect(screen.getByTestId('saldo-confirmado')).toHaveClass('valor-positivo');
    expect(sp(screen.getByTestId('saldo-projetado').textContent)).toBe('R$ 500,00');

    expect(indicador('Média de desempenho')).toBe('1,50');
    expect(indicador('Bolsas')).toBe('3,00');
    expect(indicador('Valor por bolsa')).toBe('R$ 60,00');
    expect(linha('Bolsas')).toEqual({ detalhe: '3,00 × R$ 60,00', valor: 'R$ 180,00' });
    expect(linha('Bônus por cidade')).toEqual({ detalhe: '2 cidades visitadas × R$ 50,00', valor: 'R$ 100,00' });
    expect(linha('Boletos')).toEqual({ detalhe: '3 × R$ 5,50', valor: 'R$ 16,50' });
    expect(linha('Desconto do aluguel')).toEqual({ detalhe: 'aluguel da rota: R$ 300,00', valor: '− R$ 150,00' });
    expect(linha('Total estimado').valor).toBe('R$ 146,50');
    expect(sp(screen.getByTestId('mensagem-aluguel').textContent).trim()).toBe('Média entre 1,5 e 2: o aluguel de R$ 300,00 é dividido, e você paga a metade (R$ 150,00).');
    expect(within(salario()).queryByText(/ainda não/)).not.toBeInTheDocument();

    expect(screen.getByRole('link', { name: /^Nova Venda/ })).toHaveAttribute('href', '/vendas');
    expect(screen.getByRole('link', { name: /^Nova Despesa/ })).toHaveAttribute('href', '/despesas');
    await userEvent.setup().click(screen.getByRole('link', { name: /^Nova Venda/ }));
    expect(await screen.findByRole('heading', { name: 'Tela de Vendas' })).toBeInTheDocument();
  });

  it('o que está na fila do aparelho entra na hora: venda em cidade nova, visita a cidade já visitada, despesa no saldo projetado', async () => {
    montar();
    await waitFor(() => expect(sp(screen.getByTestId('salario-total').textContent)).toBe('R$ 146,50'));

    // Caldas Novas, R$ 666,66 and a boleto: R$ 1.999,98 in 3 cities, 4,5 bags, average 1,5 still.
    await venda(CALDAS, 'Caldas Novas', { dinheiro: 666.66, boletos: 1 });
    await enfileirarVisita(bancoLocal, FUNCIONARIO_TESTE.id, { id: 'visita-1', rota_id: 7, cidade_id: GOIANIA, data: HOJE, registrado_em: new Date().toISOString() });
    await enfileirarCriacao(
      FUNCIONARIO_TESTE.id,
      {
        id: 'despesa-1',
        rota_id: 7,
        cidade_id: CALDAS,
        data_despesa: HOJE,
        tipo: 'alimentacao',
        tipo_outro: '',
        valor: 45.9,
        descricao: 'Almoço',
        registrado_em: new Date().toISOString(),
        rota_nome: 'Rota Sul Goiano',
        cidade_nome: 'Caldas Novas',
        cidade_uf: 'GO',
        funcionario_nome: FUNCIONARIO_TESTE.nome,
      },
      null,
    );

    // 4,5 × 60 + 3 × 50 + 4 × 5,50 − 150 = R$ 292,00
    await waitFor(() => expect(sp(screen.getByTestId('salario-total').textContent)).toBe('R$ 292,00'));
    expect(cartao('Cidades Atendidas')).toHaveTextContent('3 / 4');
    expect(linha('Bônus por cidade')).toEqual({ detalhe: '3 cidades visitadas × R$ 50,00', valor: 'R$ 150,00' });
    expect(linha('Boletos').valor).toBe('R$ 22,00');
    expect(within(salario()).getByText('Inclui 2 registros deste aparelho que ainda não chegaram ao servidor.')).toBeInTheDocument();
    await waitFor(() => expect(sp(screen.getByTestId('saldo-projetado').textContent)).toBe('R$ 454,10'));
    expect(sp(screen.getByTestId('saldo-confirmado').textContent)).toBe('R$ 500,00');
  });

  it('saldo zero fica sem cor (zero não é problema); negativo aparece em vermelho', async () => {
    const primeira = montar({ saldo: 0 });
    await waitFor(() => expect(sp(screen.getByTestId('saldo-confirmado').textContent)).toBe('R$ 0,00'));
    expect(screen.getByTestId('saldo-confirmado')).not.toHaveClass('valor-negativo');
    expect(screen.getByTestId('saldo-projetado')).not.toHaveClass('valor-negativo');
    expect(screen.getByTestId('saldo-confirmado')).not.toHaveClass('valor-positivo');
    primeira.tela.unmount();
    montar({ saldo: -10 });
    await waitFor(() => expect(sp(screen.getByTestId('saldo-confirmado').textContent)).toBe('-R$ 10,00'));
    expect(screen.getByTestId('saldo-confirmado')).toHaveClass('valor-negativo');
  });

  it('sem rota ativa: diz que não há rota agora e leva a Minhas Rotas', async () => {
    montar({ rota: null });
    expect(await screen.findByRole('heading', { name: 'Você não tem nenhuma rota ativa no momento.' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Salário Estimado' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ver Minhas Rotas' })).toHaveAttribute('href', '/rotas');
  });

  it('offline depois de uma visita online: abre com os dados guardados no aparelho, diz de quando são, e soma a fila', async () => {
    const primeira = montar();
    await waitFor(() => expect(sp(screen.getByTestId('salario-total').textContent)).toBe('R$ 146,50'));
    await waitFor(async () => expect(await bancoLocal.cache.count()).toBe(4));
    const guardado = (await bancoLocal.cache.toArray()).map((c) => c.atualizadoEm).sort()[0]!;
    primeira.tela.unmount();

    await venda(CATALAO, 'Catalão', { dinheiro: 0.06 }, '2026-11-21');
    montar({ offline: true });
    // R$ 1.333,38 in 3 cities: 3,000135 bags, rounded to 3,00 (average 1) -> R$ 60 a bag, R$ 25 a city, the whole rent:
    // 3,00 × 60 + 75 + 16,50 − 300 = −R$ 28,50.
    await waitFor(() => expect(sp(screen.getByTestId('salario-total').textContent)).toBe('-R$ 28,50'));
    // The device's copy may first show as a preview ("atualizando..."); the failed request then says offline.
    await waitFor(() => {
      const aviso = screen.getAllByRole('status').find((e) => e.textContent?.includes('Sem conexão'));
      expect(aviso?.textContent?.trim()).toBe(`Sem conexão: dados guardados neste aparelho em ${formatarDataHora(guardado, fusoDoApp())}.`);
    });
    expect(cartao('Rota Ativa')).toHaveTextContent('Rota Sul Goiano');
    expect(cartao('Cidades Atendidas')).toHaveTextContent('3 / 4');
    expect(within(cartao('Rotas Concluídas')).getByText('2')).toBeInTheDocument();
    expect(sp(screen.getByTestId('saldo-confirmado').textContent)).toBe('R$ 500,00');
    expect(linha('Bolsas').valor).toBe('R$ 180,00');
    expect(linha('Bônus por cidade').valor).toBe('R$ 75,00');
    expect(linha('Desconto do aluguel').valor).toBe('− R$ 300,00');
    expect(sp(screen.getByTestId('mensagem-aluguel').textContent).trim()).toBe('Média abaixo de 1,5: você paga o aluguel inteiro (R$ 300,00).');
  });

  it('offline sem nunca ter aberto com internet: explica o que fazer', async () => {
    montar({ offline: true });
    expect(await screen.findByText(/Abra o dashboard uma vez com internet/)).toBeInTheDocument();
  });

  it('falha do servidor no salário: zeros sem aviso (o erro vai para o console), o resto da tela segue', async () => {
    const erro = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    montar({ salario: () => ({ status: 500, corpo: { error: 'Erro interno', codigo: 'erro_interno' } }) });
    await waitFor(() => expect(linha('Bolsas').valor).toBe('R$ 0,00'));
    expect(cartao('Cidades Atendidas')).toHaveTextContent('0 / 4');
    // Nothing done yet: the average is 0 and the rule puts the whole rent on the employee.
    expect(sp(screen.getByTestId('salario-total').textContent)).toBe('-R$ 300,00');
    expect(screen.getByTestId('salario-total')).toHaveClass('valor-negativo');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(erro).toHaveBeenCalledWith('Erro ao carregar o salário estimado:', expect.anything());
    erro.mockRestore();
  });
});
