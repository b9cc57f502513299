/**
 * A route's settlement on the wire (shared/acerto.ts holds the rules): the `acerto` object of the route's
 * details and result, in the API's money format (reais with 2 decimals), and the admin's request to record
 * one. Converted once at each edge: `acertoParaApi` on the server, `acertoDaApi` on the client.
 */
import { z } from '../zod';
import { calcularAcerto, SENTIDOS_ACERTO, type FigurasAcerto } from '../acerto';
import { centavosParaReais, reaisParaCentavos } from '../money';
import { dinheiro, opcao, textoOpcional } from './campos';

export const OBSERVACAO_ACERTO_MAXIMA = 300;

export const acertoFeitoSchema = z.object({
  valor: z.number(),
  sentido: z.enum(SENTIDOS_ACERTO),
  /** When it was recorded (ISO instant). */
  data: z.string(),
  /** The admin who recorded it. */
  admin: z.string().nullable(),
  observacao: z.string(),
});

export const acertoRotaSchema = z.object({
  creditos: z.number(),
  /** The employee's credits without a route: theirs, not this route's; shown beside, never in the balance. */
  creditos_sem_rota: z.number(),
  despesas_aprovadas: z.number(),
  despesas_pendentes: z.number(),
  despesas_rejeitadas: z.number(),
  salario: z.number(),
  desconto_aluguel: z.number(),
  a_devolver: z.number(),
  a_receber: z.number(),
  /** When nothing was left open by the last acerto ('Acertada em'); null while something is open or nothing was recorded. */
  acertada_em: z.string().nullable(),
  acertos: z.array(acertoFeitoSchema),
});
export type AcertoRotaApi = z.infer<typeof acertoRotaSchema>;

const reais = centavosParaReais;

export function acertoParaApi(f: FigurasAcerto): AcertoRotaApi {
  return {
    creditos: reais(f.creditosCentavos),
    creditos_sem_rota: reais(f.creditosSemRotaCentavos),
    despesas_aprovadas: reais(f.despesasAprovadasCentavos),
    despesas_pendentes: reais(f.despesasPendentesCentavos),
    despesas_rejeitadas: reais(f.despesasRejeitadasCentavos),
    salario: reais(f.salarioCentavos),
    desconto_aluguel: reais(f.descontoAluguelCentavos),
    a_devolver: reais(f.aDevolverCentavos),
    a_receber: reais(f.aReceberCentavos),
    acertada_em: f.acertadaEm,
    acertos: f.acertos.map((a) => ({ valor: reais(a.valorCentavos), sentido: a.sentido, data: a.data, admin: a.adminNome, observacao: a.observacao })),
  };
}

/** The API's figures back in centavos, recomputed by the same rule (so the screen and the server cannot disagree). */
export function acertoDaApi(a: AcertoRotaApi): FigurasAcerto {
  const c = reaisParaCentavos;
  return calcularAcerto({
    creditosCentavos: c(a.creditos),
    creditosSemRotaCentavos: c(a.creditos_sem_rota),
    despesasAprovadasCentavos: c(a.despesas_aprovadas),
    despesasPendentesCentavos: c(a.despesas_pendentes),
    despesasRejeitadasCentavos: c(a.despesas_rejeitadas),
    salarioCentavos: c(a.salario),
    descontoAluguelCentavos: c(a.desconto_aluguel),
    acertos: a.acertos.map((x) => ({ valorCentavos: c(x.valor), sentido: x.sentido, data: x.data, adminNome: x.admin, observacao: x.observacao })),
  });
}

/** POST /api/rotas/:id/acerto (admin): the cash that changed hands (zero closes a route with nothing open). */
export const registrarAcertoSchema = z.object({
  valor: dinheiro('Valor'),
  sentido: opcao('Sentido', SENTIDOS_ACERTO),
  observacao: textoOpcional('Observação', OBSERVACAO_ACERTO_MAXIMA),
});
export type RegistrarAcertoPedido = z.input<typeof registrarAcertoSchema>;
