/**
 * The employee's estimated salary counting the work still on this phone. The server answers the
 * route's salary with its base (rent, visited cities, one sale per city and day); the phone lays its
 * own sales and visits over that base and computes with the one salary module (shared/payroll):
 *
 * - a local sale REPLACES the server's sale of the same city and day (one closing per city and
 *   day); among local writes of the same city and day the newest (registrado_em) wins, as on the
 *   server;
 * - a local sale or visit adds its city to the visited set (a set: no city counts twice);
 * - local means queued ('pendente'), refused ('erro': the person's work until fixed or discarded,
 *   as in 'Saldo projetado') or just sent ('enviado': the base read before it may not have it yet;
 *   replacing a sale with the same values changes nothing once it does).
 *
 * The base carries no recording time, so a local write always covers the server's sale of its
 * city and day: the device's own writes are its newest (one phone per person, docs/decisions/salario-e-acerto.md).
 * Pure: no React, no Dexie.
 */
import { reaisParaCentavos, somarCentavos } from '../../../shared/money';
import { calcularSalario, type CalculoSalario } from '../../../shared/payroll/salario';
import type { BaseSalario } from '../../../shared/schemas/relatorios';
import type { ItemLocal } from '../vendas/estadoCidades';
import { dadosVendaSchema, dadosVisitaSchema, OPERACAO_REGISTRAR_VISITA, OPERACAO_SALVAR_VENDA } from '../vendas/fila';

export interface Estimativa {
  calculo: CalculoSalario;
  valorAluguelCentavos: number;
  /** Cities of the route visited at least once, this device's work included. */
  cidadesAtendidas: number;
  /** This device's sales and visits of the route the server does not have yet (queued or refused). */
  naFila: number;
  /** Of those, the ones the server refused ('precisa de atenção'). */
  recusados: number;
}

interface VendaDaBase {
  totalCentavos: number;
  boletos: number;
  /** Of a local write: the newest one of the city and day wins. */
  registradoEm: string | null;
}

const chave = (cidadeId: number, data: string) => `${cidadeId}|${data}`;

/**
 * @param cidadesDaRota the route's city ids, when known: a local write for a city outside the
 * route is not counted (the server counts only the route's cities).
 */
export function estimarSalario(rotaId: number, base: BaseSalario, itens: readonly ItemLocal[], cidadesDaRota?: readonly number[]): Estimativa {
  const vendas = new Map<string, VendaDaBase>();
  for (const v of base.vendas) {
    vendas.set(chave(v.cidade_id, v.data_venda), { totalCentavos: reaisParaCentavos(v.total), boletos: v.boletos, registradoEm: null });
  }
  const visitadas = new Set(base.cidades_visitadas_ids);
  const naRota = cidadesDaRota ? new Set(cidadesDaRota) : null;
  let naFila = 0;
  let recusados = 0;

  for (const item of itens) {
    let cidadeId: number;
    if (item.tipo === OPERACAO_SALVAR_VENDA) {
      const d = dadosVendaSchema.safeParse(item.dados).data;
      if (!d || d.rota_id !== rotaId || (naRota && !naRota.has(d.cidade_id))) continue;
      cidadeId = d.cidade_id;
      const k = chave(d.cidade_id, d.data_venda);
      const anterior = vendas.get(k);
      if (!anterior?.registradoEm || d.registrado_em > anterior.registradoEm) {
        const totalCentavos = somarCentavos([d.valor_dinheiro, d.valor_pix, d.valor_cartao, d.valor_link]);
        vendas.set(k, { totalCentavos, boletos: d.valor_boletos, registradoEm: d.registrado_em });
      }
    } else if (item.tipo === OPERACAO_REGISTRAR_VISITA) {
      const d = dadosVisitaSchema.safeParse(item.dados).data;
      if (!d || d.rota_id !== rotaId || (naRota && !naRota.has(d.cidade_id))) continue;
      cidadeId = d.cidade_id;
    } else {
      continue;
    }
    visitadas.add(cidadeId);
    if (item.estado !== 'enviado') naFila += 1;
    if (item.estado === 'erro') recusados += 1;
  }

  let vendasCentavos = 0;
  let boletos = 0;
  for (const v of vendas.values()) {
    vendasCentavos += v.totalCentavos;
    boletos += v.boletos;
  }
  const valorAluguelCentavos = reaisParaCentavos(base.valor_aluguel);
  const calculo = calcularSalario({ vendasCentavos, boletos, cidadesVisitadas: visitadas.size, valorAluguelCentavos });
  return { calculo, valorAluguelCentavos, cidadesAtendidas: visitadas.size, naFila, recusados };
}
