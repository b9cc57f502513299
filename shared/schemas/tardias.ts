/**
 * Writes that reached a route after its employee finished it (docs/decisions/rotas.md, 'A finalização
 * congela a rota; o que chega depois espera o admin'): held for the admin, never applied by themselves. Listed on the route for
 * the admin (accept or refuse) and for the employee (what became of them).
 */
import { z } from '../zod';
import { texto } from './campos';

/** How a batch answers a held write (status 202), and a replay of one: zod-free, the phone's sync engine reads them. */
export { MENSAGEM_CHEGOU_DEPOIS, SITUACAO_CHEGOU_DEPOIS } from '../sync/operacoes';

export const SITUACOES_TARDIA = ['pendente', 'aceita', 'recusada'] as const;
export type SituacaoTardia = (typeof SITUACOES_TARDIA)[number];

export const ROTULO_SITUACAO_TARDIA: Record<SituacaoTardia, string> = {
  pendente: 'Aguardando decisão',
  aceita: 'Aceito',
  recusada: 'Recusado',
};

export const MOTIVO_RECUSA_TARDIA_MAXIMO = 300;

export const tardiaSchema = z.object({
  /** The sync operation's id: what accept and refuse name. */
  operacao_id: z.string(),
  tipo: z.string(),
  /** The kind in words ('Fechamento do dia', 'Nova despesa'...). */
  rotulo: z.string(),
  /** The record in words: 'Itajubá (MG), 03/12/2026: R$ 240,00'. */
  descricao: z.string(),
  /** The record's own date ('yyyy-mm-dd'), when it has one. */
  data: z.string().nullable(),
  situacao: z.enum(SITUACOES_TARDIA),
  motivo: z.string().nullable(),
  /** When the server received it (ISO instant). */
  recebida_em: z.string(),
  decidida_em: z.string().nullable(),
  /** The admin who decided. */
  decidida_por: z.string().nullable(),
});
export type Tardia = z.infer<typeof tardiaSchema>;

export const tardiasRespostaSchema = z.object({ tardios: z.array(tardiaSchema) });
export const tardiaRespostaSchema = z.object({ tardio: tardiaSchema });

export const recusarTardiaSchema = z.object({ motivo: texto('Motivo', { min: 3, max: MOTIVO_RECUSA_TARDIA_MAXIMO }) });
