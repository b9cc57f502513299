/**
 * What the sales writes store in the outbox, read back through these schemas (an item may have been
 * written by an older version of the app). No side effects: the screen's pure rules import it.
 */
import { z } from '../../../shared/zod';

export const OPERACAO_SALVAR_VENDA = 'venda.salvar';
export const OPERACAO_REGISTRAR_VISITA = 'visita.registrar';

const valorReais = z.number().finite().min(0);

/** What a queued sale stores (amounts in reais, as the API takes them); read back through this schema. */
export const dadosVendaSchema = z.object({
  id: z.string().min(1),
  rota_id: z.number().int().positive(),
  cidade_id: z.number().int().positive(),
  data_venda: z.string(),
  valor_dinheiro: valorReais,
  valor_pix: valorReais,
  valor_cartao: valorReais,
  valor_link: valorReais,
  valor_boletos: z.number().int().min(0),
  observacoes: z.string(),
  registrado_em: z.string(),
  /** For the sync panel and the card; not sent. */
  cidade_nome: z.string().optional(),
  cidade_uf: z.string().optional(),
});
export type DadosVendaFila = z.infer<typeof dadosVendaSchema>;

export const dadosVisitaSchema = z.object({
  id: z.string().min(1),
  rota_id: z.number().int().positive(),
  cidade_id: z.number().int().positive(),
  data: z.string(),
  registrado_em: z.string(),
  cidade_nome: z.string().optional(),
  cidade_uf: z.string().optional(),
});
export type DadosVisitaFila = z.infer<typeof dadosVisitaSchema>;

/** The entity both writes of a city's day touch. */
export const chaveDoDia = (rotaId: number, cidadeId: number, data: string) => `venda:${rotaId}:${cidadeId}:${data}`;
