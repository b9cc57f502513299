import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RelatorioSalarioRota } from '../../../shared/schemas/relatorios';
import type { Rota } from '../../../shared/schemas/rotas';
import { motorSync } from '../offline';
import { bancoLocal } from '../offline/db';
import { atualizarItem, itensDoUsuario } from '../offline/outbox';
import { definirLarguraDaJanela } from '../test/janela';
import { calculoSalarioDeTeste } from '../test/relatorios';
import { entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi, type RespostaFalsa } from '../test/renderizar';
import { rotaDeTeste } from '../test/rotas';
import { PaginaRotas } from './PaginaRotas';

const EU = FUNCIONARIO_TESTE;

function rota(extra: Partial<Rota> = {}): Rota {
  return rotaDeTeste({
    id: 10,
    nome: 'Rota Sul',
    cidades: [
      { id: 5208707, nome: 'Goiânia', uf: 'GO' },
      { id: 3170206, nome: 'Uberlândia', uf: 'MG' },
      { id: 5201108, nome: 'Anápolis', uf: 'GO' },
    ],
    criado_em: '2026-10-30T12:00:00.000Z',
    ...extra,
  });
}

/**
 * What GET /relatorios/rota/:id answers for a route: R$ 1.000,00 sold in 2 of 3 cities with 2 boletos,
 * R$ 100,00 rent paid by the employee (average below 1,5), R$ 195,50 of expenses, R$ 300,00 credited.
 */
function resultadoDe(r: Rota): RelatorioSalarioRota {
  return {
    rota_id: r.id,
    calculo_salario: calculoSalarioDeTeste(),
    desconto_aluguel_funcionario: 100,
    base: { valor_aluguel: 100, cidades_visitadas_ids: [5208707, 3170206], vendas: [] },
    resultado: {
      rota_nome: r.nome,
      status: r.status,
      data_inicio: r.data_inicio,
      data_fim: r.data_fim,
      finalizada_em: r.finalizada_em,
      total_cidades: 3,
      cidades_visitadas: 2,
      total_vendas: 1000,
      total_despesas: 195.5,
      total_creditos: 300,
      saldo_final: 104.5,
      despesas_por_tipo: [
        { tipo: 'alimentacao', quantidade: 2, total: 75.5 },
        { tipo: 'hospedagem', quantidade: 1, total: 120 },
      ],
    },
  };
}

interface Servidor {
  rotas: Rota[];
  /** What GET /relatorios/rota/:id answers (default: resultadoDe the route). */
  resultado?: (r: Rota) => RelatorioSalarioRota | RespostaFalsa;
  /** What PATCH /finalizar answers (default: finishes it). */
  finalizar?: () => RespostaFalsa | null;
  offline?: boolean;
}

function montar(servidor: Servidor) {
  entrarComo(EU);
  const lista = (status: Rota['status']) => (): RespostaFalsa => (servidor.offline ? 'offline' : { corpo: { rotas: servidor.rotas.filter((r) => r.status === status) } });
  const api = simularApi({
    'GET /auth/me': () => (servidor.offline ? 'offline' : { corpo: { usuario: EU } }),
    'GET /rotas/ativas/funcionario': lista('ativa'),
    'GET /rotas/finalizadas/funcionario': lista('finalizada'),
    'GET /relatorios/rota/:id': (_c, url): RespostaFalsa => {
      if (servidor.offline) return 'offline';
      const r = servidor.rotas.find((x) => x.id === Number(url.pathname.split('/')[4]));
      if (!r) return { status: 404, corpo: { error: 'Rota não encontrada.', codigo: 'nao_encontrado' } };
      const resposta = servidor.resultado?.(r) ?? resultadoDe(r);
      return 'rota_id' in (resposta as object) ? { corpo: resposta } : (resposta as RespostaFalsa);
    },
    'PATCH /rotas/:id/finalizar': (_c, url) => {
      if (servidor.offline) return 'offline';
      const recusa = servidor.finalizar?.();
      if (recusa) return recusa;
      const r = servidor.rotas.find((x) => x.id === Number(url.pathname.split('/')[3]))!;
      Object.assign(r, { status: 'finalizada', finalizada_em: r.finalizada_em ?? '2026-11-22T18:30:00.000Z' });
      return { corpo: { rota: r } };
    },
  });
  const tela = renderizarApp([{ path: '/rotas', element: <PaginaRotas /> }], { em: '/rotas' });
  return { api, tela };
}

const secao = (titulo: string) => screen.getByRole('region', { name: titulo });

beforeEach(async () => {
  await Promise.all([bancoLocal.outbox.clear(), bancoLocal.sincronizados.clear(), bancoLocal.cache.clear(), bancoLocal.meta.clear()]);
});
afterEach(() => motorSync.parar());

describe('Minhas Rotas (funcionário)', () => {
  it('mostra as ativas com "Finalizar Rota", as finalizadas, e as cidades da rota agrupadas por estado', async () => {
    montar({ rotas: [rota(), rota({ id: 9, nome: 'Rota Norte', status: 'finalizada', finalizada_em: '2026-10-31T21:00:00.000Z' })] });
    expect(await screen.findByRole('heading', { name: 'Minhas Rotas' })).toBeInTheDocument();
    const ativas = await waitFor(() => secao('Rotas Ativas'));
    const sul = await within(ativas).findByRole('listitem', { name: 'Rota Sul' });
    expect(within(sul).getByText('Ativa')).toHaveClass('selo--verde');
    expect(within(sul).getByText('01/11/2026 a 30/11/2026')).toBeInTheDocument();
    expect(within(sul).getByRole('button', { name: 'Finalizar Rota Rota Sul' })).toBeInTheDocument();
    const norte = within(secao('Rotas Finalizadas')).getByRole('listitem', { name: 'Rota Norte' });
    expect(within(norte).getByText('Finalizada')).toHaveClass('selo--cinza');
    expect(within(norte).getByText('31/10/2026 18:00')).toBeInTheDocument();
    expect(within(norte).queryByRole('button', { name: /Finalizar/ })).not.toBeInTheDocument();

    await userEvent.click(within(sul).getByRole('button', { name: 'Cidades da rota Rota Sul' }));
    const modal = screen.getByRole('dialog', { name: 'Cidades da Rota' });
    expect(modal).toHaveTextContent('Rota Sul · 3 cidades');
    expect(within(modal).getByRole('region', { name: 'Cidades de GO' })).toHaveTextContent('GoiâniaAnápolis');
    expect(within(modal).getByRole('region', { name: 'Cidades de MG' })).toHaveTextContent('Uberlândia');
  });

  it('sem rotas: os textos vazios da especificação', async () => {
    montar({ rotas: [rota({ status: 'cancelada' })] });
    expect(await screen.findByText('Nenhuma rota ativa no momento')).toBeInTheDocument();
    expect(screen.getByText('Nenhuma rota finalizada')).toBeInTheDocument();
    expect(screen.queryByText('Rota Sul')).not.toBeInTheDocument();
  });

  it('finalizar pede a confirmação irreversível; "Voltar" não faz nada; confirmado, a fila envia e a rota vai para as finalizadas', async () => {
    const { api } = montar({ rotas: [rota()] });
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Finalizar Rota Rota Sul' }));
    const pergunta = screen.getByRole('dialog', { name: 'Finalizar Rota' });
    expect(pergunta).toHaveTextContent('Tem certeza que deseja finalizar esta rota? Essa ação não pode ser desfeita.');
    await usuario.click(within(pergunta).getByRole('button', { name: 'Voltar' }));
    expect(await bancoLocal.outbox.count()).toBe(0);

    await usuario.click(screen.getByRole('button', { name: 'Finalizar Rota Rota Sul' }));
    await usuario.click(within(screen.getByRole('dialog', { name: 'Finalizar Rota' })).getByRole('button', { name: 'Finalizar' }));
    expect(await screen.findByText('Rota finalizada com sucesso!')).toBeInTheDocument();
    expect(api.chamadas.filter((c) => c.metodo === 'PATCH').map((c) => c.caminho)).toEqual(['/rotas/10/finalizar']);
    expect(await itensDoUsuario(bancoLocal, EU.id)).toEqual([]);
    const historico = await bancoLocal.sincronizados.toArray();
    expect(historico).toMatchObject([{ tipo: 'rota.finalizar', descricao: 'Finalizar rota Rota Sul', chaves: ['rota:10'], recebidoEm: '2026-11-22T18:30:00.000Z' }]);
    await waitFor(() => expect(within(secao('Rotas Ativas')).getByText('Nenhuma rota ativa no momento')).toBeInTheDocument());
    const finalizada = within(secao('Rotas Finalizadas')).getByRole('listitem', { name: 'Rota Sul' });
    expect(within(finalizada).getByText('Finalizada')).toBeInTheDocument();
    expect(within(finalizada).queryByText('Aguardando envio')).not.toBeInTheDocument();
  });

  it('sem conexão: a rota aparece finalizada na hora, aguardando envio; com a conexão de volta, chega ao servidor', async () => {
    const servidor: Servidor = { rotas: [rota()] };
    const { api } = montar(servidor);
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Finalizar Rota Rota Sul' }));
    servidor.offline = true;
    await usuario.click(within(screen.getByRole('dialog', { name: 'Finalizar Rota' })).getByRole('button', { name: 'Finalizar' }));
    expect(await screen.findByText('Sem conexão: a finalização ficou guardada neste aparelho e será enviada quando a internet voltar.')).toBeInTheDocument();
    const pendente = within(secao('Rotas Finalizadas')).getByRole('listitem', { name: 'Rota Sul' });
    expect(within(pendente).getByText('Aguardando envio')).toHaveClass('selo--amarelo');
    expect(within(pendente).getByText('Finalizada neste aparelho. Será enviada ao servidor assim que houver conexão.')).toBeInTheDocument();
    expect(within(pendente).queryByRole('button', { name: /Finalizar/ })).not.toBeInTheDocument();
    expect(within(secao('Rotas Ativas')).getByText('Nenhuma rota ativa no momento')).toBeInTheDocument();
    expect(servidor.rotas[0]!.status).toBe('ativa');

    servidor.offline = false;
    const [item] = await itensDoUsuario(bancoLocal, EU.id);
    await atualizarItem(bancoLocal, item!.id, { proximaTentativaEm: null }); // skip the backoff wait
    await motorSync.sincronizarAgora();
    expect(servidor.rotas[0]!.status).toBe('finalizada');
    await waitFor(() => expect(within(secao('Rotas Finalizadas')).queryByText('Aguardando envio')).not.toBeInTheDocument());
    expect(within(secao('Rotas Finalizadas')).getByText('Finalizada')).toBeInTheDocument();
    // The lists were read again after the server took it.
    await waitFor(() => expect(api.chamadas.filter((c) => c.caminho === '/rotas/finalizadas/funcionario').length).toBeGreaterThan(1));
  });

  it('recusada pelo servidor: a mensagem dele aparece e a rota fica nas ativas marcada como recusada', async () => {
    montar({ rotas: [rota()], finalizar: () => ({ status: 409, corpo: { error: 'Esta rota foi cancelada e não pode ser finalizada.', codigo: 'conflito' } }) });
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Finalizar Rota Rota Sul' }));
    await usuario.click(within(screen.getByRole('dialog', { name: 'Finalizar Rota' })).getByRole('button', { name: 'Finalizar' }));
    expect(await screen.findByText('Esta rota foi cancelada e não pode ser finalizada.', { selector: '.Toastify *' })).toBeInTheDocument();
    const recusada = within(secao('Rotas Ativas')).getByRole('listitem', { name: 'Rota Sul' });
    expect(within(recusada).getByText('Finalização recusada')).toHaveClass('selo--vermelho');
    expect(recusada).toHaveTextContent('Esta rota foi cancelada e não pode ser finalizada. Abra a sincronização para tentar novamente ou descartar.');
    expect(within(recusada).queryByRole('button', { name: /Finalizar/ })).not.toBeInTheDocument();
    expect((await itensDoUsuario(bancoLocal, EU.id))[0]).toMatchObject({ estado: 'erro' });
  });

  it('abre offline com as rotas guardadas da última visita, avisando de quando são', async () => {
    const servidor: Servidor = { rotas: [rota(), rota({ id: 9, nome: 'Rota Norte', status: 'finalizada', finalizada_em: '2026-10-31T21:00:00.000Z' })] };
    const primeira = montar(servidor);
    await screen.findByRole('listitem', { name: 'Rota Sul' });
    primeira.tela.unmount();

    servidor.offline = true;
    definirLarguraDaJanela(390);
    montar(servidor);
    expect(await screen.findByText(/Sem conexão: mostrando as rotas salvas neste aparelho em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}\./)).toBeInTheDocument();
    expect(within(secao('Rotas Ativas')).getByRole('listitem', { name: 'Rota Sul' })).toBeInTheDocument();
    expect(within(secao('Rotas Finalizadas')).getByRole('listitem', { name: 'Rota Norte' })).toBeInTheDocument();
  });

  it('offline sem nada guardado: diz o que fazer em vez de listas vazias enganosas', async () => {
    montar({ rotas: [rota()], offline: true });
    expect(await screen.findByText('Sem conexão e nenhuma cópia das suas rotas neste aparelho. Conecte-se à internet uma vez para que elas fiquem disponíveis offline.')).toBeInTheDocument();
  });
  it('rota finalizada: "Ver resultado" mostra o salário final com o detalhamento, as despesas, os créditos e o saldo a devolver', async () => {
    montar({ rotas: [rota({ id: 9, nome: 'Rota Norte', status: 'finalizada', finalizada_em: '2026-10-31T21:00:00.000Z' })] });
    const usuario = userEvent.setup();
    const norte = await within(await waitFor(() => secao('Rotas Finalizadas'))).findByRole('listitem', { name: 'Rota Norte' });
    await usuario.click(within(norte).getByRole('button', { name: 'Ver resultado da rota Rota Norte' }));
    const modal = await screen.findByRole('dialog', { name: 'Resultado da rota' });
    expect(modal).toHaveTextContent('Rota Norte');
    expect(modal).toHaveTextContent('Finalizada em 31/10/2026 18:00');
    const salario = await within(modal).findByRole('region', { name: 'Salário final' });
    expect(within(salario).getByTestId('resultado-salario-total')).toHaveTextContent('R$ 96,00');
    expect(salario).toHaveTextContent('Bolsas2,25 × R$ 60,00R$ 135,00');
    expect(salario).toHaveTextContent('Bônus por cidade2 cidades visitadas × R$ 25,00R$ 50,00');
    expect(salario).toHaveTextContent('Boletos2 × R$ 5,50R$ 11,00');
    expect(salario).toHaveTextContent('Desconto do aluguelaluguel da rota: R$ 100,00− R$ 100,00');
    expect(salario).toHaveTextContent('Média abaixo de 1,5: você paga o aluguel inteiro (R$ 100,00).');
    const dinheiro = within(modal).getByRole('region', { name: 'Dinheiro da rota' });
    expect(dinheiro).toHaveTextContent('Créditos recebidossaldo enviado pelo administrador para esta rotaR$ 300,00');
    expect(dinheiro).toHaveTextContent('DespesasR$ 195,50');
    expect(dinheiro).toHaveTextContent('Alimentação (2)R$ 75,50');
    expect(dinheiro).toHaveTextContent('Hospedagem (1)R$ 120,00');
    expect(within(dinheiro).getByTestId('resultado-saldo')).toHaveTextContent('Saldo a devolverR$ 104,50');
    expect(modal).toHaveTextContent('Vendas da rotaR$ 1.000,00');
    expect(modal).toHaveTextContent('Cidades visitadas2 de 3');
  });

  it('despesas acima dos créditos: o resultado diz quanto a pessoa tem a receber', async () => {
    const servidor: Servidor = { rotas: [rota({ id: 9, nome: 'Rota Norte', status: 'finalizada', finalizada_em: '2026-10-31T21:00:00.000Z' })] };
    servidor.resultado = (r) => {
      const base = resultadoDe(r);
      return { ...base, resultado: { ...base.resultado, total_creditos: 100, saldo_final: -95.5 } };
    };
    montar(servidor);
    await userEvent.click(await screen.findByRole('button', { name: 'Ver resultado da rota Rota Norte' }));
    const saldo = await screen.findByTestId('resultado-saldo');
    expect(saldo).toHaveTextContent('A receberR$ 95,50');
    expect(saldo).toHaveTextContent('As despesas passaram dos créditos: você pagou R$ 95,50 do próprio bolso.');
  });

  it('com o acerto: a rejeitada fica no que a pessoa devolve; acertada, mostra a data; o que chegou depois da finalização aparece com a decisão', async () => {
    const servidor: Servidor = { rotas: [rota({ id: 9, nome: 'Rota Norte', status: 'finalizada', finalizada_em: '2026-10-31T21:00:00.000Z' })] };
    servidor.resultado = (r) => {
      const base = resultadoDe(r);
      return {
        ...base,
        resultado: {
          ...base.resultado,
          saldo_final: 0,
          acerto: {
            creditos: 300,
            creditos_sem_rota: 0,
            despesas_aprovadas: 75.5,
            despesas_pendentes: 0,
            despesas_rejeitadas: 120,
            salario: 96,
            desconto_aluguel: 100,
            a_devolver: 0,
            a_receber: 0,
            acertada_em: '2026-11-03T14:00:00.000Z',
            acertos: [{ valor: 224.5, sentido: 'devolvido', data: '2026-11-03T14:00:00.000Z', admin: 'Administrador', observacao: '' }],
          },
        },
        tardios: [
          {
            operacao_id: 'op-1',
            tipo: 'despesa.criar',
            rotulo: 'Nova despesa',
            descricao: 'Alimentação em Goiânia (GO), 31/10/2026: R$ 48,00',
            data: '2026-10-31',
            situacao: 'recusada',
            motivo: 'Jantar depois do fim da rota não é reembolsado.',
            recebida_em: '2026-11-01T12:00:00.000Z',
            decidida_em: '2026-11-02T12:00:00.000Z',
            decidida_por: 'Administrador',
          },
        ],
      };
    };
    montar(servidor);
    await userEvent.click(await screen.findByRole('button', { name: 'Ver resultado da rota Rota Norte' }));
    const quadro = await screen.findByRole('region', { name: 'Acerto da rota' });
    expect(within(quadro).getByText('Acertada em 03/11/2026')).toBeInTheDocument();
    expect(within(quadro).getByTestId('acerto-rejeitadas').textContent?.replace(/\u00a0/g, ' ')).toContain('Despesas rejeitadas: R$ 120,00. Não são custo da empresa: não descontam do adiantamento e ficam para você devolver.');
    expect(within(quadro).getByTestId('acerto-em-aberto').textContent?.replace(/\u00a0/g, ' ')).toBe('Em abertonada a devolver nem a receberR$ 0,00');
    const tardios = screen.getByRole('region', { name: 'Registros que chegaram depois da finalização' });
    expect(tardios).toHaveTextContent('Alimentação em Goiânia (GO), 31/10/2026: R$ 48,00');
    expect(tardios).toHaveTextContent('Recusado');
    expect(tardios).toHaveTextContent('Motivo: Jantar depois do fim da rota não é reembolsado.');
    expect(within(tardios).queryByRole('button')).not.toBeInTheDocument();
    // The legacy 'Saldo a devolver' (créditos − todas as despesas) is gone when the settlement is known.
    expect(screen.queryByTestId('resultado-saldo')).not.toBeInTheDocument();
  });

  it('depois de "Finalizar Rota" o resultado abre na hora', async () => {
    const { api } = montar({ rotas: [rota()] });
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Finalizar Rota Rota Sul' }));
    await usuario.click(within(screen.getByRole('dialog', { name: 'Finalizar Rota' })).getByRole('button', { name: 'Finalizar' }));
    const modal = await screen.findByRole('dialog', { name: 'Resultado da rota' });
    expect(await within(modal).findByTestId('resultado-salario-total')).toHaveTextContent('R$ 96,00');
    expect(modal).toHaveTextContent('Rota Sul');
    expect(api.chamadas.some((c) => c.caminho === '/relatorios/rota/10')).toBe(true);
    await usuario.click(within(modal).getByRole('button', { name: 'Fechar' }));
    expect(within(secao('Rotas Finalizadas')).getByRole('button', { name: 'Ver resultado da rota Rota Sul' })).toBeInTheDocument();
  });

  it('offline: o resultado das rotas finalizadas abre da cópia do aparelho (guardada ao abrir a tela com internet), com a hora da cópia', async () => {
    const servidor: Servidor = {
      rotas: [
        rota({ id: 9, nome: 'Rota Norte', status: 'finalizada', finalizada_em: '2026-10-31T21:00:00.000Z' }),
        rota({ id: 8, nome: 'Rota Leste', status: 'finalizada', finalizada_em: '2026-09-30T21:00:00.000Z' }),
      ],
    };
    const primeira = montar(servidor);
    await screen.findByRole('listitem', { name: 'Rota Norte' });
    // Opening the list online keeps the finished routes' results on the device (none was opened).
    await waitFor(async () => expect(await bancoLocal.cache.where('chave').startsWith(`rotas:resultado:${EU.id}:`).count()).toBe(2));
    primeira.tela.unmount();

    servidor.offline = true;
    definirLarguraDaJanela(390);
    montar(servidor);
    await userEvent.click(await screen.findByRole('button', { name: 'Ver resultado da rota Rota Leste' }));
    const modal = await screen.findByRole('dialog', { name: 'Resultado da rota' });
    expect(await within(modal).findByText(/Sem conexão: resultado salvo neste aparelho em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}\./)).toBeInTheDocument();
    expect(within(modal).getByTestId('resultado-salario-total')).toHaveTextContent('R$ 96,00');
    expect(within(modal).getByTestId('resultado-saldo')).toHaveTextContent('Saldo a devolverR$ 104,50');
  });

  it('offline sem cópia do resultado: diz isso em vez de mostrar zeros; a cópia é de cada pessoa', async () => {
    const servidor: Servidor = { rotas: [rota({ id: 9, nome: 'Rota Norte', status: 'finalizada', finalizada_em: '2026-10-31T21:00:00.000Z' })] };
    const primeira = montar(servidor);
    await screen.findByRole('listitem', { name: 'Rota Norte' });
    await waitFor(async () => expect(await bancoLocal.cache.where('chave').startsWith(`rotas:resultado:${EU.id}:`).count()).toBe(1));
    primeira.tela.unmount();
    // Another person's copy on a shared phone is never shown.
    await bancoLocal.cache.where('chave').startsWith(`rotas:resultado:${EU.id}:`).modify({ usuarioId: 999 });

    servidor.offline = true;
    montar(servidor);
    await userEvent.click(await screen.findByRole('button', { name: 'Ver resultado da rota Rota Norte' }));
    const modal = await screen.findByRole('dialog', { name: 'Resultado da rota' });
    expect(await within(modal).findByText('Sem conexão e sem cópia deste resultado neste aparelho. Ele aparece quando você abrir Minhas Rotas com internet.')).toBeInTheDocument();
    expect(within(modal).queryByTestId('resultado-salario-total')).not.toBeInTheDocument();
  });
});
