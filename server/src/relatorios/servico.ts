/** Reports: turns the totals of relatorios/repositorio.ts and the shared salary rules into the API's shapes. */
import { formatarData } from '../../../shared/dates';
import { centavosParaReais } from '../../../shared/money';
import { calcularSalario, ROTULO_QUEM_PAGA_ALUGUEL, type CalculoSalario } from '../../../shared/payroll/salario';
import type {
  BaseSalario,
  CalculoSalarioApi,
  DashboardAdmin,
  DetalhesRota,
  LinhaRelatorioRota,
  ResultadoRota,
} from '../../../shared/schemas/relatorios';
import { TIPOS_DESPESA } from '../../../shared/schemas/despesas';
import type { Db } from '../db';
import { naoEncontrado } from '../errors';
import { apresentarRotas, listarLinhasRotas } from '../rotas/repositorio';
import {
  cidadesDoRelatorio,
  despesasDaRota,
  despesasPorTipo,
  funcionariosEmRota,
  resumoDoDia,
  totaisDasRotas,
  vendasDaRota,
  type FiltroTotais,
  type TotaisRota,
} from './repositorio';
import { celularesComFila } from '../dispositivos/servico';
import { calcularAcerto, saldoEmAberto, type FigurasAcerto } from '../../../shared/acerto';
import { acertoParaApi, type AcertoRotaApi } from '../../../shared/schemas/acerto';
import { entradasDoAcerto, type EntradaSemSalario } from '../acerto/repositorio';
import { contarTardiasPendentes } from '../tardias/repositorio';

const reais = centavosParaReais;

/** Where the browser fetches a receipt (checked there: admin or owner). */
export function urlDoCupom(despesaId: string): string {
  return `/api/despesas/${despesaId}/cupom`;
}

/** The route's identity as every report answers it (the list's row and the detail). */
function identificacaoDaRota(t: TotaisRota) {
  return {
    rota_id: t.rotaId,
    rota_nome: t.rotaNome,
    funcionario_id: t.funcionarioId,
    funcionario_nome: t.funcionarioNome,
    status: t.status,
    data_inicio: t.dataInicio,
    data_fim: t.dataFim,
  };
}

export function linhaDoRelatorio(t: TotaisRota, entrada: EntradaSemSalario): LinhaRelatorioRota {
  // The open balance does not read the salary (shared/acerto.ts): not computed for every row of the list.
  const f = calcularAcerto({ ...entrada, salarioCentavos: 0, descontoAluguelCentavos: 0 });
  return {
    ...identificacaoDaRota(t),
    total_vendas: reais(t.vendasCentavos),
    total_despesas: reais(t.despesasCentavos),
    total_creditos: reais(t.creditosCentavos),
    saldo_atual: reais(t.saldoAtualCentavos),
    creditos_sem_rota: reais(f.creditosSemRotaCentavos),
    a_devolver: reais(f.aDevolverCentavos),
    a_receber: reais(f.aReceberCentavos),
    acertada_em: f.acertadaEm,
  };
}

export async function relatorioDeRotas(db: Db, filtro: FiltroTotais): Promise<LinhaRelatorioRota[]> {
  const totais = await totaisDasRotas(db, filtro);
  const entradas = await entradasDoAcerto(
    db,
    totais.map((t) => t.rotaId),
  );
  return totais.map((t) => linhaDoRelatorio(t, entradas.get(t.rotaId)!));
}

/** The route's settlement (shared/acerto.ts) with its salary and rent share, shown beside it. */
export async function figurasDoAcerto(db: Db, rotaId: number, calculo?: CalculoSalario): Promise<FigurasAcerto> {
  const entrada = (await entradasDoAcerto(db, [rotaId])).get(rotaId);
  if (!entrada) throw naoEncontrado('Rota não encontrada.');
  const salario = calculo ?? (await salarioDaRota(db, rotaId)).calculo;
  return calcularAcerto({ ...entrada, salarioCentavos: salario.totalSalarioCentavos, descontoAluguelCentavos: salario.descontoAluguelFuncionarioCentavos });
}

export async function acertoDaRota(db: Db, rotaId: number): Promise<AcertoRotaApi> {
  return acertoParaApi(await figurasDoAcerto(db, rotaId));
}

export function calculoParaApi(c: CalculoSalario, valorAluguelCentavos: number): CalculoSalarioApi {
  return {
    total_vendas: reais(c.totalVendasCentavos),
    total_bolsas: c.totalBolsas,
    media_bolsas_cidade: c.mediaBolsasCidade,
    valor_por_bolsa: c.valorPorBolsa,
    valor_bolsas: reais(c.valorBolsasCentavos),
    valor_fixo_por_cidade: c.valorFixoPorCidade,
    cidades_visitadas: c.cidadesVisitadas,
    valor_cidades: reais(c.valorCidadesCentavos),
    boletos: c.boletos,
    valor_boletos: reais(c.valorBoletosCentavos),
    valor_aluguel: reais(valorAluguelCentavos),
    desconto_aluguel: reais(c.descontoAluguelFuncionarioCentavos),
    quem_paga_aluguel: c.quemPagaAluguel,
    total_salario: reais(c.totalSalarioCentavos),
  };
}

async function totaisDaRota(db: Db, rotaId: number): Promise<TotaisRota> {
  const [t] = await totaisDasRotas(db, { ids: [rotaId] });
  if (!t) throw naoEncontrado('Rota não encontrada.');
  return t;
}

/** The salary of a route as computed now, with the inputs the phone needs to add queued work. */
export async function salarioDaRota(db: Db, rotaId: number): Promise<{ calculo: CalculoSalario; base: BaseSalario; valorAluguelCentavos: number }> {
  const t = await totaisDaRota(db, rotaId);
  const vendas = await vendasDaRota(db, rotaId);
  const visitadas = (await cidadesDoRelatorio(db, rotaId)).filter((c) => c.visitada === 1);
  const calculo = calcularSalario({
    vendasCentavos: t.vendasCentavos,
    boletos: vendas.reduce((s, v) => s + v.boletos, 0),
    cidadesVisitadas: visitadas.length,
    valorAluguelCentavos: t.valorAluguelCentavos,
  });
  return {
    calculo,
    valorAluguelCentavos: t.valorAluguelCentavos,
    base: {
      valor_aluguel: reais(t.valorAluguelCentavos),
      cidades_visitadas_ids: visitadas.map((c) => c.cidadeId),
      vendas: vendas.map((v) => ({ cidade_id: v.cidadeId, data_venda: v.dataVenda, total: reais(v.totalCentavos), boletos: v.boletos })),
    },
  };
}

/** What the route came to for its employee: the money of the route around the salary, and its settlement. */
export async function resultadoDaRota(db: Db, rotaId: number, calculo: CalculoSalario): Promise<ResultadoRota> {
  const t = await totaisDaRota(db, rotaId);
  const acerto = await figurasDoAcerto(db, rotaId, calculo);
  const ordem = (tipo: string) => {
    const i = (TIPOS_DESPESA as readonly string[]).indexOf(tipo);
    return i < 0 ? TIPOS_DESPESA.length : i;
  };
  return {
    rota_nome: t.rotaNome,
    status: t.status,
    data_inicio: t.dataInicio,
    data_fim: t.dataFim,
    finalizada_em: t.finalizadaEm,
    total_cidades: (await cidadesDoRelatorio(db, rotaId)).length,
    cidades_visitadas: calculo.cidadesVisitadas,
    total_vendas: reais(t.vendasCentavos),
    total_despesas: reais(t.despesasCentavos),
    total_creditos: reais(t.creditosCentavos),
    saldo_final: reais(saldoEmAberto(acerto)),
    despesas_por_tipo: (await despesasPorTipo(db, rotaId))
      .sort((a, b) => ordem(a.tipo) - ordem(b.tipo))
      .map((d) => ({ tipo: d.tipo, quantidade: d.quantidade, total: reais(d.totalCentavos) })),
    acerto: acertoParaApi(acerto),
  };
}

export async function detalhesDaRota(db: Db, rotaId: number): Promise<DetalhesRota> {
  const t = await totaisDaRota(db, rotaId);
  const cidades = await cidadesDoRelatorio(db, rotaId);
  const { calculo } = await salarioDaRota(db, rotaId);
  const api = calculoParaApi(calculo, t.valorAluguelCentavos);
  const acerto = await figurasDoAcerto(db, rotaId, calculo);
  return {
    ...identificacaoDaRota(t),
    data_inicio_formatada: formatarData(t.dataInicio),
    data_fim_formatada: formatarData(t.dataFim),
    cidades: cidades.map((c) => ({
      cidade_id: c.cidadeId,
      cidade_nome: c.cidadeNome,
      uf: c.uf,
      visitada: c.visitada === 1,
      total_vendas: reais(c.vendasCentavos),
      total_despesas: reais(c.despesasCentavos),
    })),
    total_cidades: cidades.length,
    cidades_visitadas: calculo.cidadesVisitadas,
    media_bolsas_cidade: calculo.mediaBolsasCidade,
    calculo_salario: api,
    total_vendas: reais(t.vendasCentavos),
    total_despesas: reais(t.despesasCentavos),
    total_creditos: reais(t.creditosCentavos),
    total_salario: api.total_salario,
    valor_aluguel: reais(t.valorAluguelCentavos),
    desconto_aluguel_funcionario: reais(calculo.descontoAluguelFuncionarioCentavos),
    desconto_aluguel_escola: reais(calculo.descontoAluguelEscolaCentavos),
    quem_pagou_aluguel: ROTULO_QUEM_PAGA_ALUGUEL[calculo.quemPagaAluguel],
    saldo_final: reais(saldoEmAberto(acerto)),
    acerto: acertoParaApi(acerto),
    tardios_pendentes: await contarTardiasPendentes(db, rotaId),
    despesas: (await despesasDaRota(db, rotaId)).map((d) => ({
      id: d.id,
      data_despesa: d.dataDespesa,
      cidade_id: d.cidadeId,
      cidade_nome: d.cidadeNome,
      tipo: d.tipo,
      tipo_outro: d.tipoOutro,
      valor: reais(d.valorCentavos),
      descricao: d.descricao,
      status_aprovacao: d.statusAprovacao,
      cupom_url: d.arquivoCupom ? urlDoCupom(d.id) : null,
      cupom_mime: d.cupomMime,
      cupons_quantidade: d.cuponsQuantidade,
    })),
  };
}

export async function dashboardAdmin(db: Db, dia: string, versaoMinimaApp: string): Promise<DashboardAdmin> {
  const resumo = await resumoDoDia(db, dia);
  const ativas = await apresentarRotas(db, await listarLinhasRotas(db, { status: 'ativa' }), dia);
  const emRota = await funcionariosEmRota(db, dia);
  // Every active route's employee is in emRota (the same join): whether they are still active.
  const ativoPorRota = new Map(emRota.map((f) => [f.rotaId, f.ativo]));
  return {
    funcionariosEmRota: resumo.funcionariosEmRota,
    funcionariosSemRota: resumo.funcionariosSemRota,
    rotasAtivas: resumo.rotasAtivas,
    vendasDia: reais(resumo.vendasDiaCentavos),
    despesasDia: reais(resumo.despesasDiaCentavos),
    rotas: ativas.map((r) => ({
      id: r.id,
      nome: r.nome,
      funcionario_nome: r.funcionario_nome,
      funcionario_ativo: ativoPorRota.get(r.id) ?? true,
      vendasHoje: r.vendasHoje,
      despesasHoje: r.despesasHoje,
      status: r.status,
    })),
    funcionarios: emRota.map((f) => ({
      id: f.id,
      nome: f.nome,
      ativo: f.ativo,
      rota_id: f.rotaId,
      rota_nome: f.rotaNome,
      saldo: reais(f.saldoCentavos),
      vendas: reais(f.vendasHojeCentavos),
      cidadesAtendidas: f.cidadesAtendidas,
      totalCidades: f.totalCidades,
    })),
    celulares: await celularesComFila(db, versaoMinimaApp),
  };
}
