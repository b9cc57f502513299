import { describe, expect, it } from 'vitest';
import { reaisParaCentavos } from '../../../shared/money';
import type { CidadeStatus } from '../../../shared/schemas/rotas';
import type { VendaHistorico, VendaListada } from '../../../shared/schemas/vendas';
import { buscarCidades, cidadesDaAba, montarDia, paginar, type BaseDoDia, type ItemLocal } from './estadoCidades';
import { OPERACAO_DESFAZER_VISITA, OPERACAO_REGISTRAR_VISITA, OPERACAO_SALVAR_VENDA, type DadosVendaFila } from './fila';

const ROTA = 7;
const DIA = '2026-11-22';
const GOIANIA = { cidade_id: 5208707, cidade_nome: 'Goiânia', uf: 'GO' };
const ANAPOLIS = { cidade_id: 5201108, cidade_nome: 'Anápolis', uf: 'GO' };
const CALDAS = { cidade_id: 5204508, cidade_nome: 'Caldas Novas', uf: 'GO' };

function status(c: typeof GOIANIA, extra: Partial<CidadeStatus> = {}): CidadeStatus {
  return { cidade_id: c.cidade_id, cidade_nome: c.cidade_nome, uf: c.uf, rota_id: ROTA, rota_cidade_id: 1, fechada: 0, visitada: false, venda_id: null, ...extra };
}

function vendaServidor(c: typeof GOIANIA, extra: Partial<VendaListada> = {}): VendaListada {
  return {
    id: `srv-${c.cidade_id}`,
    rota_id: ROTA,
    cidade_id: c.cidade_id,
    funcionario_id: 2,
    data_venda: DIA,
    valor_dinheiro: 100,
    valor_pix: 0,
    valor_cartao: 0,
    valor_link: 0,
    valor_boletos: 0,
    observacoes: '',
    funcionario_nome: 'Bruno',
    rota_nome: 'Rota',
    rota_status: 'ativa',
    cidade_nome: c.cidade_nome,
    cidade_uf: c.uf,
    total_vendas: 100,
    registrado_em: '2026-11-22T12:00:00.000Z',
    recebido_em: '2026-11-22T12:00:05.000Z',
    atualizado_em: '2026-11-22T12:00:05.000Z',
    versao: 1,
    ...extra,
  };
}

function base(extra: Partial<BaseDoDia> = {}): BaseDoDia {
  return {
    rotaId: ROTA,
    data: DIA,
    cidades: [GOIANIA, ANAPOLIS, CALDAS],
    status: [status(GOIANIA), status(ANAPOLIS), status(CALDAS)],
    vendas: [],
    historico: [],
    ...extra,
  };
}

let n = 0;
/** The amounts in `valores` in reais, as typed; queued in centavos, as the form leaves them. */
function itemVenda(c: typeof GOIANIA, valores: Partial<DadosVendaFila> = {}, estado: ItemLocal['estado'] = 'pendente', erro: string | null = null): ItemLocal {
  const emCentavos = Object.fromEntries(
    (['valor_dinheiro', 'valor_pix', 'valor_cartao', 'valor_link'] as const).flatMap((k) => (valores[k] === undefined ? [] : [[k, reaisParaCentavos(valores[k])]])),
  );
  const dados: DadosVendaFila = {
    id: `local-${++n}`,
    rota_id: ROTA,
    cidade_id: c.cidade_id,
    data_venda: DIA,
    valor_dinheiro: 0,
    valor_pix: 0,
    valor_cartao: 0,
    valor_link: 0,
    valor_boletos: 0,
    observacoes: '',
    registrado_em: '2026-11-22T13:00:00.000Z',
    ...valores,
    ...emCentavos,
  };
  return { id: `item-${n}`, tipo: OPERACAO_SALVAR_VENDA, dados, estado, erro };
}

function itemVisita(c: typeof GOIANIA, extra: Record<string, unknown> = {}, estado: ItemLocal['estado'] = 'pendente'): ItemLocal {
  return { id: `visita-${++n}`, tipo: OPERACAO_REGISTRAR_VISITA, dados: { id: `v-${n}`, rota_id: ROTA, cidade_id: c.cidade_id, data: DIA, registrado_em: '2026-11-22T13:00:00.000Z', ...extra }, estado, erro: null };
}

const daCidade = (lista: ReturnType<typeof montarDia>, c: typeof GOIANIA) => lista.find((x) => x.cidade_id === c.cidade_id)!;

describe('montarDia: o servidor com a fila do aparelho por cima', () => {
  it('sem nada na fila, mostra o que o servidor respondeu', () => {
    const dia = montarDia(base({ vendas: [vendaServidor(GOIANIA)], status: [status(GOIANIA, { fechada: 1, visitada: true }), status(ANAPOLIS, { visitada: true }), status(CALDAS)] }), []);
    expect(daCidade(dia, GOIANIA)).toMatchObject({ fechada: true, semVenda: false, venda: { total: 100 }, envio: { estado: 'servidor', recebidoEm: '2026-11-22T12:00:05.000Z' } });
    expect(daCidade(dia, ANAPOLIS)).toMatchObject({ fechada: true, semVenda: true, venda: null });
    expect(daCidade(dia, CALDAS)).toMatchObject({ fechada: false, envio: null });
  });

  it('uma venda na fila fecha a cidade na hora, com os seus valores e "Aguardando envio"', () => {
    const dia = montarDia(base(), [itemVenda(CALDAS, { valor_pix: 0.1, valor_cartao: 0.2, valor_boletos: 2, observacoes: 'praça' })]);
    expect(daCidade(dia, CALDAS)).toMatchObject({
      fechada: true,
      visitada: true,
      semVenda: false,
      venda: { valor_pix: 0.1, valor_cartao: 0.2, valor_boletos: 2, total: 0.3, observacoes: 'praça' },
      envio: { estado: 'pendente' },
    });
    expect(cidadesDaAba(dia, 'fechadas').map((c) => c.cidade_nome)).toEqual(['Caldas Novas']);
    expect(cidadesDaAba(dia, 'abertas')).toHaveLength(2);
  });

  it('uma visita na fila marca a cidade visitada, sem venda', () => {
    const dia = montarDia(base(), [itemVisita(ANAPOLIS)]);
    expect(daCidade(dia, ANAPOLIS)).toMatchObject({ fechada: true, semVenda: true, venda: null, envio: { estado: 'pendente' } });
  });

  it('a visita desfeita (na fila ou recém-confirmada) devolve a cidade às abertas, sobre a cópia do servidor ou a visita da fila', () => {
    const desfazer = (c: typeof GOIANIA, estado: ItemLocal['estado'] = 'pendente'): ItemLocal => ({
      id: `desfazer-${c.cidade_id}`,
      tipo: OPERACAO_DESFAZER_VISITA,
      dados: { id: `d-${c.cidade_id}`, rota_id: ROTA, cidade_id: c.cidade_id, data: DIA },
      estado,
      erro: null,
    });
    const dia = montarDia(base({ status: [status(GOIANIA), status(ANAPOLIS, { visitada: true }), status(CALDAS)] }), [
      desfazer(ANAPOLIS, 'enviado'),
      itemVisita(CALDAS, {}, 'enviado'),
      desfazer(CALDAS),
    ]);
    expect(daCidade(dia, ANAPOLIS)).toMatchObject({ fechada: false, visitada: false, envio: null });
    expect(daCidade(dia, CALDAS)).toMatchObject({ fechada: false, visitada: false, envio: null });
    // Marked again after the undo: the later visit wins.
    expect(daCidade(montarDia(base(), [desfazer(CALDAS, 'enviado'), itemVisita(CALDAS)]), CALDAS)).toMatchObject({ fechada: true, semVenda: true });
  });

  it('a edição na fila cobre a venda do servidor, mantendo o id do registro', () => {
    const dia = montarDia(base({ vendas: [vendaServidor(GOIANIA)] }), [itemVenda(GOIANIA, { valor_dinheiro: 80, valor_link: 5 })]);
    expect(daCidade(dia, GOIANIA).venda).toMatchObject({ id: 'srv-5208707', valor_dinheiro: 80, total: 85 });
    expect(daCidade(dia, GOIANIA).envio).toEqual({ estado: 'pendente' });
  });

  it('vale a gravação mais nova: o servidor já tem algo registrado depois do item (outro aparelho), e ele aparece', () => {
    const servidor = vendaServidor(GOIANIA, { valor_dinheiro: 300, total_vendas: 300, registrado_em: '2026-11-22T15:00:00.000Z' });
    const dia = montarDia(base({ vendas: [servidor] }), [itemVenda(GOIANIA, { valor_dinheiro: 1, registrado_em: '2026-11-22T14:00:00.000Z' }, 'enviado')]);
    expect(daCidade(dia, GOIANIA).venda).toMatchObject({ valor_dinheiro: 300 });
    expect(daCidade(dia, GOIANIA).envio).toMatchObject({ estado: 'servidor' });
  });

  it('um item já enviado continua valendo até a resposta nova chegar, com a hora do servidor', () => {
    const enviado = { ...itemVenda(CALDAS, { valor_dinheiro: 10 }, 'enviado'), recebidoEm: '2026-11-22T13:00:02.000Z' };
    const dia = montarDia(base(), [enviado]);
    expect(daCidade(dia, CALDAS)).toMatchObject({ fechada: true, envio: { estado: 'enviado', recebidoEm: '2026-11-22T13:00:02.000Z' } });
  });

  it('um item recusado mostra a mensagem do servidor', () => {
    const dia = montarDia(base(), [itemVenda(CALDAS, { valor_dinheiro: 10 }, 'erro', 'Esta rota já foi finalizada e não aceita novos registros.')]);
    expect(daCidade(dia, CALDAS).envio).toEqual({ estado: 'erro', erro: 'Esta rota já foi finalizada e não aceita novos registros.' });
  });

  it('itens de outra data ou de outra rota não mudam o dia; dados ilegíveis são ignorados', () => {
    const dia = montarDia(base(), [
      itemVenda(CALDAS, { data_venda: '2026-11-21', valor_dinheiro: 5 }),
      itemVenda(CALDAS, { rota_id: 99, valor_dinheiro: 5 }),
      itemVisita(ANAPOLIS, { data: '2026-11-20' }),
      { id: 'x', tipo: OPERACAO_SALVAR_VENDA, dados: { lixo: true }, estado: 'pendente', erro: null },
    ]);
    expect(cidadesDaAba(dia, 'fechadas')).toEqual([]);
  });

  it('uma venda zerada (tudo em branco numa edição) aparece como visitada sem venda', () => {
    const dia = montarDia(base({ vendas: [vendaServidor(GOIANIA)] }), [itemVenda(GOIANIA)]);
    expect(daCidade(dia, GOIANIA)).toMatchObject({ fechada: true, semVenda: true });
  });

  it('só boletos ou só observação já é uma venda', () => {
    const dia = montarDia(base(), [itemVenda(GOIANIA, { valor_boletos: 1 }), itemVenda(ANAPOLIS, { observacoes: 'Volta amanhã' })]);
    expect(daCidade(dia, GOIANIA).semVenda).toBe(false);
    expect(daCidade(dia, ANAPOLIS).semVenda).toBe(false);
  });

  it('sem a resposta do dia (offline, nunca aberta), as cidades aparecem em aberto e a fila ainda vale', () => {
    const dia = montarDia(base({ status: null }), [itemVisita(GOIANIA)]);
    expect(cidadesDaAba(dia, 'abertas').map((c) => c.cidade_nome)).toEqual(['Anápolis', 'Caldas Novas']);
  });
});

describe('montarDia: histórico de vendas', () => {
  const historico = (c: typeof GOIANIA, datas: string[]): VendaHistorico[] =>
    datas.map((d, i) => ({ id: `h${i}`, cidade_id: c.cidade_id, data_venda: d, total_vendas: 10 * (i + 1), valor_boletos: 0, registrado_em: `${d}T12:00:00.000Z` }));

  it('as 6 mais recentes, da mais nova para a mais antiga, com as da fila incluídas', () => {
    const servidor = historico(GOIANIA, ['2026-11-21', '2026-11-20', '2026-11-19', '2026-11-18', '2026-11-17', '2026-11-16']);
    const dia = montarDia(base({ historico: servidor }), [itemVenda(GOIANIA, { valor_dinheiro: 0.1, valor_pix: 0.2 })]);
    const h = daCidade(dia, GOIANIA).historico;
    expect(h.map((x) => x.data_venda)).toEqual(['2026-11-22', '2026-11-21', '2026-11-20', '2026-11-19', '2026-11-18', '2026-11-17']);
    expect(h[0]).toEqual({ data_venda: '2026-11-22', total_vendas: 0.3, local: true });
    expect(h[1]).toEqual({ data_venda: '2026-11-21', total_vendas: 10, local: false });
    expect(daCidade(dia, ANAPOLIS).historico).toEqual([]);
  });

  it('uma edição na fila de um dia passado troca o total desse dia', () => {
    const dia = montarDia(base({ historico: historico(GOIANIA, ['2026-11-20']) }), [
      itemVenda(GOIANIA, { data_venda: '2026-11-20', valor_dinheiro: 99, registrado_em: '2026-11-21T08:00:00.000Z' }),
    ]);
    expect(daCidade(dia, GOIANIA).historico).toEqual([{ data_venda: '2026-11-20', total_vendas: 99, local: true }]);
  });
});

describe('busca, abas e páginas', () => {
  it('a busca ignora acentos e maiúsculas e também acha pela uf', () => {
    const dia = montarDia(base({ cidades: [...base().cidades, { cidade_id: 3106200, cidade_nome: 'Belo Horizonte', uf: 'MG' }] }), []);
    expect(buscarCidades(dia, 'ANAPO').map((c) => c.cidade_nome)).toEqual(['Anápolis']);
    expect(buscarCidades(dia, 'goiania').map((c) => c.cidade_nome)).toEqual(['Goiânia']);
    expect(buscarCidades(dia, 'mg').map((c) => c.cidade_nome)).toEqual(['Belo Horizonte']);
    expect(buscarCidades(dia, '  ')).toHaveLength(4);
  });

  it('pagina em blocos e mantém a página dentro dos limites', () => {
    const lista = Array.from({ length: 25 }, (_, i) => i);
    expect(paginar(lista, 1, 12)).toEqual({ itens: lista.slice(0, 12), pagina: 1, totalPaginas: 3 });
    expect(paginar(lista, 3, 12).itens).toEqual([24]);
    expect(paginar(lista, 9, 10)).toMatchObject({ pagina: 3, itens: [20, 21, 22, 23, 24] });
    expect(paginar([], 2, 12)).toEqual({ itens: [], pagina: 1, totalPaginas: 1 });
  });
});
