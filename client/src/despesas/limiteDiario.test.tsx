/**
 * The daily meal limit in the employee's expense form: above it the form says by how much and asks
 * before saving; any expense above 10 times the limit asks again with the amount written out. Both
 * from what the phone knows (the server's copy and its queue), offline too; never a refusal.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatarData } from '../../../shared/dates';
import type { Despesa, ListaDespesas } from '../../../shared/schemas/despesas';
import type { Rota } from '../../../shared/schemas/rotas';
import { hojeNoApp } from '../config/configApp';
import { motorSync } from '../offline';
import { bancoLocal } from '../offline/db';
import { despesaDeTeste, listaDeDespesas } from '../test/despesas';
import { definirLarguraDaJanela } from '../test/janela';
import { entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi, type ManipuladorApi } from '../test/renderizar';
import { rotaDeTeste } from '../test/rotas';
import { PaginaDespesas } from './PaginaDespesas';

const comprimir = vi.hoisted(() => vi.fn());
vi.mock('browser-image-compression', () => ({ default: comprimir }));

const CIDADES = [{ id: 5201108, nome: 'Anápolis', uf: 'GO' }];
const ROTA = rotaDeTeste({ nome: 'Rota Centro-Oeste', cidades: CIDADES });
const hoje = () => hojeNoApp();
const diaMes = () => formatarData(hoje()).slice(0, 5);
const refeicao = (id: string, valor: number, extra: Partial<Despesa> = {}) => despesaDeTeste(id, { valor, data_despesa: hoje(), ...extra }, ROTA);

function montar({ despesas = [] as Despesa[], rota = ROTA as Rota, extra = {} as Record<string, ManipuladorApi> } = {}) {
  entrarComo(FUNCIONARIO_TESTE);
  const api = simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: FUNCIONARIO_TESTE } }),
    'GET /despesas': (): { corpo: ListaDespesas } => ({ corpo: listaDeDespesas(despesas) }),
    'GET /rotas/ativas/funcionario': () => ({ corpo: { rotas: [rota] } }),
    'GET /saldo/resumo': () => ({ corpo: { saldo_atual: 500, data_ultima_atualizacao: '2026-11-20T10:00:00.000Z' } }),
    'POST /despesas': (corpo) => {
      const f = corpo as FormData;
      return { status: 201, corpo: { despesa: refeicao(String(f.get('id')), Number(f.get('valor'))) } };
    },
    'PUT /despesas/:id': (corpo, url) => {
      const f = corpo as FormData;
      return { corpo: { despesa: refeicao(url.pathname.split('/').at(-1)!, Number(f.get('valor'))) } };
    },
    ...extra,
  });
  renderizarApp([{ path: '/despesas', element: <PaginaDespesas /> }], { em: '/despesas' });
  return api;
}

beforeEach(async () => {
  await Promise.all([bancoLocal.outbox.clear(), bancoLocal.arquivos.clear(), bancoLocal.cache.clear(), bancoLocal.rascunhos.clear(), bancoLocal.sincronizados.clear()]);
  definirLarguraDaJanela(390);
});
afterEach(() => {
  motorSync.parar();
});

/** Opens Nova Despesa and fills a meal (or `tipo`) of `valor` today; returns the dialog. */
async function preencher(valor: string, tipo = 'alimentacao') {
  const usuario = userEvent.setup();
  await usuario.click(await screen.findByRole('button', { name: 'Nova Despesa' }));
  const modal = screen.getByRole('dialog', { name: 'Nova Despesa' });
  await usuario.selectOptions(within(modal).getByLabelText(/Tipo de Despesa/), tipo);
  await usuario.type(within(modal).getByLabelText(/Valor/), valor);
  await usuario.type(within(modal).getByLabelText('Descrição'), 'Jantar');
  return { usuario, modal };
}

const enviadas = (api: ReturnType<typeof simularApi>) => api.operacoes.filter((o) => o.tipo === 'despesa.criar' || o.tipo === 'despesa.editar');

describe('limite diário no formulário do funcionário', () => {
  it('acima do limite diz quanto passou e pergunta antes de salvar; confirmando, salva', async () => {
    const api = montar({ despesas: [refeicao('almoco', 120)] });
    await screen.findByText('R$ 120,00');
    const { usuario, modal } = await preencher('110,00');
    await usuario.click(within(modal).getByRole('button', { name: 'Registrar' }));

    const pergunta = await screen.findByRole('dialog', { name: 'Acima do limite diário' });
    expect(pergunta).toHaveTextContent(`Com esta despesa, a alimentação de ${diaMes()} soma R$ 230,00: R$ 50,00 acima do limite diário de R$ 180,00.`);
    expect(enviadas(api)).toEqual([]);
    expect(await bancoLocal.outbox.count()).toBe(0);

    await usuario.click(within(pergunta).getByRole('button', { name: 'Salvar mesmo assim' }));
    expect(await screen.findByText('Despesa registrada com sucesso!')).toBeInTheDocument();
    expect(enviadas(api).map((o) => (o.dados as { valor: number }).valor)).toEqual([11_000]);
    expect(screen.queryByRole('dialog', { name: 'Confirme o valor' })).not.toBeInTheDocument();
  });

  it('cancelar a pergunta volta ao formulário preenchido, sem salvar; depois ainda dá para salvar', async () => {
    const api = montar({ despesas: [refeicao('almoco', 120)] });
    await screen.findByText('R$ 120,00');
    const { usuario, modal } = await preencher('110,00');
    await usuario.click(within(modal).getByRole('button', { name: 'Registrar' }));
    await usuario.click(within(await screen.findByRole('dialog', { name: 'Acima do limite diário' })).getByRole('button', { name: 'Voltar ao formulário' }));

    expect(screen.queryByRole('dialog', { name: 'Acima do limite diário' })).not.toBeInTheDocument();
    const form = screen.getByRole('dialog', { name: 'Nova Despesa' });
    expect(within(form).getByLabelText(/Valor/)).toHaveValue('110,00');
    expect(within(form).getByLabelText(/Tipo de Despesa/)).toHaveValue('alimentacao');
    expect(within(form).getByLabelText('Descrição')).toHaveValue('Jantar');
    expect(enviadas(api)).toEqual([]);
    expect(await bancoLocal.outbox.count()).toBe(0);

    // Escape on the question closes only the question, too.
    await usuario.click(within(form).getByRole('button', { name: 'Registrar' }));
    await screen.findByRole('dialog', { name: 'Acima do limite diário' });
    await usuario.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Acima do limite diário' })).not.toBeInTheDocument());
    expect(screen.getByRole('dialog', { name: 'Nova Despesa' })).toBeInTheDocument();

    // Never a refusal: a smaller amount within the limit saves with no question.
    await usuario.clear(within(form).getByLabelText(/Valor/));
    await usuario.type(within(form).getByLabelText(/Valor/), '60,00');
    await usuario.click(within(form).getByRole('button', { name: 'Registrar' }));
    expect(await screen.findByText('Despesa registrada com sucesso!')).toBeInTheDocument();
    expect(enviadas(api).map((o) => (o.dados as { valor: number }).valor)).toEqual([6_000]);
  });

  it('exatamente no limite não pergunta; a rota com secretário tem R$ 220,00', async () => {
    const api = montar({ despesas: [refeicao('almoco', 120)], rota: rotaDeTeste({ ...ROTA, tem_secretario: true, secretario_nome: 'Davi' }) });
    await screen.findByText('R$ 120,00');
    const { usuario, modal } = await preencher('100,00');
    await usuario.click(within(modal).getByRole('button', { name: 'Registrar' }));
    expect(await screen.findByText('Despesa registrada com sucesso!')).toBeInTheDocument();
    expect(enviadas(api)).toHaveLength(1);
    expect(screen.queryByRole('dialog', { name: 'Acima do limite diário' })).not.toBeInTheDocument();
  });

  it('acima de 10 vezes o limite pede uma segunda confirmação com o valor por extenso', async () => {
    const api = montar();
    await screen.findByText('Nenhuma despesa encontrada.');
    const { usuario, modal } = await preencher('1.000.000,00');
    await usuario.click(within(modal).getByRole('button', { name: 'Registrar' }));
    const primeira = await screen.findByRole('dialog', { name: 'Acima do limite diário' });
    expect(primeira).toHaveTextContent(`a alimentação de ${diaMes()} soma R$ 1.000.000,00: R$ 999.820,00 acima do limite diário de R$ 180,00.`);
    await usuario.click(within(primeira).getByRole('button', { name: 'Salvar mesmo assim' }));

    const segunda = await screen.findByRole('dialog', { name: 'Confirme o valor' });
    expect(segunda).toHaveTextContent('Confirme o valor: R$ 1.000.000,00 (um milhão de reais)');
    expect(enviadas(api)).toEqual([]);
    await usuario.click(within(segunda).getByRole('button', { name: 'O valor está certo' }));
    expect(await screen.findByText('Despesa registrada com sucesso!')).toBeInTheDocument();
    expect(enviadas(api).map((o) => (o.dados as { valor: number }).valor)).toEqual([100_000_000]);
  });

  it('qualquer tipo acima de 10 vezes o limite pede só a confirmação do valor; corrigir volta ao formulário', async () => {
    const api = montar();
    await screen.findByText('Nenhuma despesa encontrada.');
    const { usuario, modal } = await preencher('2.000,00', 'combustivel');
    await usuario.click(within(modal).getByRole('button', { name: 'Registrar' }));
    const segunda = await screen.findByRole('dialog', { name: 'Confirme o valor' });
    expect(screen.queryByRole('dialog', { name: 'Acima do limite diário' })).not.toBeInTheDocument();
    expect(segunda).toHaveTextContent('Confirme o valor: R$ 2.000,00 (dois mil reais)');
    await usuario.click(within(segunda).getByRole('button', { name: 'Corrigir o valor' }));
    expect(screen.queryByRole('dialog', { name: 'Confirme o valor' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('dialog', { name: 'Nova Despesa' })).getByLabelText(/Valor/)).toHaveValue('2.000,00');
    expect(enviadas(api)).toEqual([]);
    expect(await bancoLocal.outbox.count()).toBe(0);
  });

  it('sem sinal: a refeição que ainda está na fila do aparelho conta', async () => {
    montar({ extra: { 'GET /despesas': () => 'offline', 'POST /despesas': () => 'offline' } });
    const primeira = await preencher('100,00');
    await primeira.usuario.click(within(primeira.modal).getByRole('button', { name: 'Registrar' }));
    expect(await screen.findByText('Despesa guardada neste aparelho. Ela será enviada assim que houver conexão.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Nova Despesa' })).not.toBeInTheDocument());

    const { usuario, modal } = await preencher('90,00');
    await usuario.click(within(modal).getByRole('button', { name: 'Registrar' }));
    const pergunta = await screen.findByRole('dialog', { name: 'Acima do limite diário' });
    expect(pergunta).toHaveTextContent(`a alimentação de ${diaMes()} soma R$ 190,00: R$ 10,00 acima do limite diário de R$ 180,00.`);
    await usuario.click(within(pergunta).getByRole('button', { name: 'Salvar mesmo assim' }));
    expect(await screen.findByText('Despesa guardada neste aparelho. Ela será enviada assim que houver conexão.')).toBeInTheDocument();
    await waitFor(async () => expect((await bancoLocal.outbox.toArray()).map((i) => (i.dados as { valor: number }).valor)).toEqual([100, 90]));
  });

  it('editar não soma a própria despesa duas vezes: conta o valor novo no lugar do antigo', async () => {
    const api = montar({ despesas: [refeicao('almoco', 150)] });
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: /^Ações: Alimentação de R\$\s150,00/ }));
    await usuario.click(screen.getByRole('menuitem', { name: 'Editar' }));
    const modal = screen.getByRole('dialog', { name: 'Editar Despesa' });
    const valor = within(modal).getByLabelText(/Valor/);
    await usuario.clear(valor);
    await usuario.type(valor, '170,00');
    await usuario.click(within(modal).getByRole('button', { name: 'Atualizar' }));
    expect(await screen.findByText('Despesa atualizada com sucesso!')).toBeInTheDocument();
    expect(enviadas(api).map((o) => (o.dados as { valor: number }).valor)).toEqual([17_000]);
  });

  it('na edição, as outras refeições do dia contam e a própria entra com o valor novo', async () => {
    montar({ despesas: [refeicao('almoco', 100, { descricao: 'Almoço' }), refeicao('lanche', 50, { descricao: 'Lanche', registrado_em: '2026-11-20T19:00:00.000Z' })] });
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: /^Ações: Alimentação de R\$\s100,00/ }));
    await usuario.click(screen.getByRole('menuitem', { name: 'Editar' }));
    const modal = screen.getByRole('dialog', { name: 'Editar Despesa' });
    const valor = within(modal).getByLabelText(/Valor/);
    await usuario.clear(valor);
    await usuario.type(valor, '140,00');
    await usuario.click(within(modal).getByRole('button', { name: 'Atualizar' }));
    expect(await screen.findByRole('dialog', { name: 'Acima do limite diário' })).toHaveTextContent(`soma R$ 190,00: R$ 10,00 acima do limite diário de R$ 180,00.`);
  });
});
