/** The phones' queues as the admin dashboard shows them ('Pendências nos celulares'). */
import { z } from '../zod';

export const celularComFilaSchema = z.object({
  funcionario_id: z.number(),
  funcionario_nome: z.string(),
  dispositivo_id: z.string(),
  versao: z.string(),
  /** Older than the minimum the server accepts: its queue cannot go until the app is updated. */
  versao_antiga: z.boolean(),
  fila: z.object({ venda: z.number(), visita: z.number(), despesa: z.number(), rota: z.number() }),
  /** Instants (ISO, UTC): the screen says how long ago, so a cached answer never goes stale. */
  mais_antigo_em: z.string().nullable(),
  ultima_sync_em: z.string().nullable(),
  visto_em: z.string(),
});
export type CelularComFila = z.infer<typeof celularComFilaSchema>;
