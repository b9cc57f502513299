import { describe, expect, it } from 'vitest';
import { reaisParaCentavos } from '../../../shared/money';
import { calcularSalario } from '../../../shared/payroll/salario';
import type { BaseSalario } from '../../../shared/schemas/relatorios';
import type { ItemLocal } from '../vendas/estadoCidades';
import { OPERACAO_REGISTRAR_VISITA, OPERACAO_SALVAR_VENDA } from '../vendas/fila';
import { formatarDecimal, mensagemAluguel, saudacao } from './apresentacao';
import { estimarSalario } from './estimativa';

const ROTA = 7;
const GOIANIA = 5208707;
const ANAPOLIS = 5201108;
const CALDAS = 5204508;
const CATALAO = 5205109;
const CIDADES_DA_ROTA = [GOIANIA, ANAPOLIS, CALDAS, CATALAO];

/** What the server answered: Goiânia and Anápolis visited, one closing each; R$ 800,00 rent. */
const BASE: BaseSalario = {
  valor_aluguel: 800,
  cidades_visitadas_ids: [GOIANIA, ANAPOLIS],
  vendas: [
    { cidade_id: GOIANIA, data_venda: '2026-11-20', total: 1000, boletos: 1 },
    { cidade_id: ANAPOLIS, data_venda: '2026-11-21', total: 2000, boletos: 2 },
  ],
};

type Valores = Partial<Record<'dinheiro' | 'pix' | 'cartao' | 'link' | 'boletos', number>>;
let n = 0;

/** `v` in reais, as typed; queued in centavos, as the form leaves them. */
function venda(cidade: number, data: string, v: Valores, opcoes: { registrado?: string; estado?: ItemLocal['estado']; rota?: number } = {}): ItemLocal {
  return {
    id: `item-${++n}`,
    tipo: OPERACAO_SALVAR_VENDA,
    estado: opcoes.estado ?? 'pendente',
    erro: opcoes.estado === 'erro' ? 'Rota finalizada.' : null,
    dados: {
      id: `venda-${n}`,
      rota_id: opcoes.rota ?? ROTA,
      cidade_id: cidade,
      data_venda: data,
      valor_dinheiro: reaisParaCentavos(v.dinheiro ?? 0),
      valor_pix: reaisParaCentavos(v.pix ?? 0),
      valor_cartao: reaisParaCentavos(v.cartao ?? 0),
      valor_link: reaisParaCentavos(v.link ?? 0),
      valor_boletos: v.boletos ?? 0,
      observacoes: '',
      registrado_em: opcoes.registrado ?? '2026-11-22T14:00:00.000Z',
    },
  };
}

function visita(cidade: number, data: string, estado: ItemLocal['estado'] = 'pendente'): ItemLocal {
  return {
    id: `item-${++n}`,
    tipo: OPERACAO_REGISTRAR_VISITA,
    estado,
    erro: null,
    dados: { id: `visita-${n}`, rota_id: ROTA, cidade_id: cidade, data, registrado_em: '2026-11-22T14:00:00.000Z' },
  };
}

interface Caso {
  caso: string;
  itens: ItemLocal[];
  /** Expected: sales of the route in reais, boletos, cities visited, local items not on the server, refused. */
  vendas: number;
  boletos: number;
  cidades: number;
  naFila: number;
  recusados?: number;
}

const CASOS: Caso[] = [
  { caso: 'nada na fila: o mesmo que o servidor', itens: [], vendas: 3000, boletos: 3, cidades: 2, naFila: 0 },
  {
    caso: 'venda na fila substitui a do servidor da mesma cidade e dia (valor e boletos)',
    itens: [venda(GOIANIA, '2026-11-20', { dinheiro: 1500, boletos: 4 })],
    vendas: 3500,
    boletos: 6,
    cidades: 2,
    naFila: 1,
  },
  {
    caso: 'venda na fila em outro dia da mesma cidade soma: é outro fechamento',
    itens: [venda(GOIANIA, '2026-11-22', { pix: 500 })],
    vendas: 3500,
    boletos: 3,
    cidades: 2,
    naFila: 1,
  },
  {
    caso: 'venda na fila em cidade nova soma a venda e a cidade',
    itens: [venda(CALDAS, '2026-11-22', { cartao: 700.5, boletos: 1 })],
    vendas: 3700.5,
    boletos: 4,
    cidades: 3,
    naFila: 1,
  },
  { caso: 'visita na fila a cidade já visitada não conta de novo', itens: [visita(ANAPOLIS, '2026-11-22')], vendas: 3000, boletos: 3, cidades: 2, naFila: 1 },
  { caso: 'visita na fila a cidade nova conta a cidade, sem venda', itens: [visita(CATALAO, '2026-11-22')], vendas: 3000, boletos: 3, cidades: 3, naFila: 1 },
  {
    caso: 'venda e visita na fila da mesma cidade nova: uma cidade só',
    itens: [visita(CATALAO, '2026-11-21'), venda(CATALAO, '2026-11-22', { link: 10 })],
    vendas: 3010,
    boletos: 3,
    cidades: 3,
    naFila: 2,
  },
  {
    caso: 'duas edições na fila da mesma cidade e dia: vale a mais recente, em qualquer ordem',
    itens: [
      venda(CALDAS, '2026-11-22', { dinheiro: 100 }, { registrado: '2026-11-22T15:00:00.000Z' }),
      venda(CALDAS, '2026-11-22', { dinheiro: 50, boletos: 9 }, { registrado: '2026-11-22T14:00:00.000Z' }),
    ],
    vendas: 3100,
    boletos: 3,
    cidades: 3,
    naFila: 2,
  },
  {
    caso: 'recusada pelo servidor continua contando: é trabalho da pessoa até ela corrigir ou descartar',
    itens: [venda(CATALAO, '2026-11-22', { link: 1000 }, { estado: 'erro' }), visita(CALDAS, '2026-11-22', 'erro')],
    vendas: 4000,
    boletos: 3,
    cidades: 4,
    naFila: 2,
    recusados: 2,
  },
  {
    caso: 'recém-enviada que a base já traz não conta duas vezes',
    itens: [venda(ANAPOLIS, '2026-11-21', { dinheiro: 2000, boletos: 2 }, { estado: 'enviado' }), visita(GOIANIA, '2026-11-22', 'enviado')],
    vendas: 3000,
    boletos: 3,
    cidades: 2,
    naFila: 0,
  },
  {
    caso: 'recém-enviada que a base ainda não traz conta (a base foi lida antes dela)',
    itens: [venda(CALDAS, '2026-11-22', { pix: 250 }, { estado: 'enviado' })],
    vendas: 3250,
    boletos: 3,
    cidades: 3,
    naFila: 0,
  },
  {
    caso: 'fechamento zerado na fila (a pessoa apagou os valores): o valor sai, a cidade segue visitada',
    itens: [venda(ANAPOLIS, '2026-11-21', {})],
    vendas: 1000,
    boletos: 1,
    cidades: 2,
    naFila: 1,
  },
  {
    caso: 'de outra rota, de cidade fora da rota, ilegível ou de outro tipo: ignorado',
    itens: [
      venda(CALDAS, '2026-11-22', { dinheiro: 999 }, { rota: 8 }),
      venda(3550308, '2026-11-22', { dinheiro: 999 }),
      { id: 'x', tipo: OPERACAO_SALVAR_VENDA, estado: 'pendente', erro: null, dados: { cidade_id: CALDAS } },
      { id: 'y', tipo: 'despesa.criar', estado: 'pendente', erro: null, dados: { rota_id: ROTA, cidade_id: CATALAO } },
    ],
    vendas: 3000,
    boletos: 3,
    cidades: 2,
    naFila: 0,
  },
];

describe('estimarSalario: a base do servidor com o trabalho deste aparelho', () => {
  it.each(CASOS)('$caso', ({ itens, vendas, boletos, cidades, naFila, recusados = 0 }) => {
    const e = estimarSalario(ROTA, BASE, itens, CIDADES_DA_ROTA);
    expect(e.calculo.totalVendasCentavos).toBe(Math.round(vendas * 100));
    expect(e.calculo.boletos).toBe(boletos);
    expect(e.calculo.cidadesVisitadas).toBe(cidades);
    expect(e.cidadesAtendidas).toBe(cidades);
    expect(e.naFila).toBe(naFila);
    expect(e.recusados).toBe(recusados);
    // Everything else comes from the one salary module, with the rent of the base.
    expect(e.calculo).toEqual(calcularSalario({ vendasCentavos: Math.round(vendas * 100), boletos, cidadesVisitadas: cidades, valorAluguelCentavos: 80_000 }));
    expect(e.valorAluguelCentavos).toBe(80_000);
  });

  it('sem a lista de cidades da rota, a cidade da fila conta como o aparelho a registrou', () => {
    expect(estimarSalario(ROTA, BASE, [visita(3550308, '2026-11-22')]).cidadesAtendidas).toBe(3);
  });

  it('uma venda na fila que leva a média exatamente a 1,5 muda o valor por cidade e divide o aluguel', () => {
    // R$ 664,43 in one city: 1,49499 bags, rounded to 1,49, below 1,5 -> R$ 25 per city and the whole rent.
    const base: BaseSalario = { valor_aluguel: 800, cidades_visitadas_ids: [GOIANIA], vendas: [{ cidade_id: GOIANIA, data_venda: '2026-11-20', total: 664.43, boletos: 0 }] };
    const antes = estimarSalario(ROTA, base, []);
    expect(antes.calculo).toMatchObject({ valorFixoPorCidade: 25, quemPagaAluguel: 'funcionario', descontoAluguelFuncionarioCentavos: 80_000 });
    // One centavo more on another day: R$ 664,44 are 1,495 bags, rounded to 1,50: average 1,5.
    const depois = estimarSalario(ROTA, base, [venda(GOIANIA, '2026-11-21', { pix: 0.01 })]);
    expect(depois.calculo.mediaBolsasCidade).toBe(1.5);
    expect(depois.calculo).toMatchObject({ valorFixoPorCidade: 50, valorPorBolsa: 60, quemPagaAluguel: 'metade', descontoAluguelFuncionarioCentavos: 40_000 });
  });
});

describe('mensagemAluguel: quem paga o aluguel pela média', () => {
  it.each([
    { quem: 'funcionario' as const, aluguel: 80_000, texto: 'Média abaixo de 1,5: você paga o aluguel inteiro (R$ 800,00).' },
    { quem: 'metade' as const, aluguel: 80_001, texto: 'Média entre 1,5 e 2: o aluguel de R$ 800,01 é dividido, e você paga a metade (R$ 400,01).' },
    { quem: 'escola' as const, aluguel: 80_000, texto: 'Média de 2 ou mais: a escola paga o aluguel (R$ 800,00); nada é descontado.' },
    { quem: 'funcionario' as const, aluguel: 0, texto: 'Esta rota não tem aluguel: nada é descontado.' },
  ])('$quem, aluguel $aluguel centavos', ({ quem, aluguel, texto }) => {
    expect(mensagemAluguel(quem, aluguel).replace(/\u00a0/g, ' ')).toBe(texto);
  });
});

describe('saudacao e formatarDecimal', () => {
  it.each([
    [0, 'Boa noite'],
    [4, 'Boa noite'],
    [5, 'Bom dia'],
    [11, 'Bom dia'],
    [12, 'Boa tarde'],
    [17, 'Boa tarde'],
    [18, 'Boa noite'],
    [23, 'Boa noite'],
  ])('às %ih: %s', (hora, texto) => {
    expect(saudacao(hora)).toBe(texto);
  });

  it('duas casas à moda pt-BR', () => {
    expect(formatarDecimal(1.5)).toBe('1,50');
    expect(formatarDecimal(15.000_675)).toBe('15,00');
    expect(formatarDecimal(1234.5)).toBe('1.234,50');
    expect(formatarDecimal(Number.NaN)).toBe('0,00');
  });
});
