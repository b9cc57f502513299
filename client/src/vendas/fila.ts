/**
 * What the sales writes store in the outbox, read back through these readers (an item may have been
 * written by an older version of the app). No side effects: the screen's pure rules import it.
 */
import type { ValoresEmConflito } from '../../../shared/api/errors';
import { ehInteiroNaoNegativo, ehInteiroPositivo, ehObjeto, ehTexto, ehTextoOpcional, ehTextoPreenchido, leitor, opcional } from '../offline/leitor';

export const OPERACAO_SALVAR_VENDA = 'venda.salvar';
export const OPERACAO_REGISTRAR_VISITA = 'visita.registrar';
export const OPERACAO_DESFAZER_VISITA = 'visita.desfazer';

/**
 * The amounts (integer centavos, as the form's reader leaves them and the sync sends them; boletos a
 * count) and note of a closing: the same fields a version conflict reports. Queues written before the
 * local database's version 4 held reais: its upgrade converted them (offline/db.ts).
 */
export type ValoresVendaCentavos = ValoresEmConflito;

/** What a queued sale stores; read back through dadosVendaSchema. */
export interface DadosVendaFila extends ValoresVendaCentavos {
  id: string;
  rota_id: number;
  cidade_id: number;
  data_venda: string;
  registrado_em: string;
  /**
   * The server's version of this closing when the person edited it (from the listing), so the server
   * can tell an edit of a copy someone else changed since; null for a new closing or one only this
   * device has written.
   */
  versao_base?: number | null | undefined;
  /** For the sync panel and the card; not sent. */
  cidade_nome?: string | undefined;
  cidade_uf?: string | undefined;
}

export interface DadosVisitaFila {
  id: string;
  rota_id: number;
  cidade_id: number;
  data: string;
  registrado_em: string;
  cidade_nome?: string | undefined;
  cidade_uf?: string | undefined;
}

/** The 'Desfazer' of a visit the server may already have: the city back to open on that date. */
export interface DadosDesfazerVisitaFila {
  id: string;
  rota_id: number;
  cidade_id: number;
  data: string;
  cidade_nome?: string | undefined;
  cidade_uf?: string | undefined;
}

// Hand-written readers, not zod: the dashboard reads the queue on the employee's first screen, which
// loads no schema library (offline/leitor.ts). Rules as the zod schemas they replaced (fila.test.ts).
export const dadosVendaSchema = leitor<DadosVendaFila>((v) => {
  if (!ehObjeto(v)) return null;
  const { id, rota_id, cidade_id, data_venda, valor_dinheiro, valor_pix, valor_cartao, valor_link, valor_boletos, observacoes, registrado_em, versao_base, cidade_nome, cidade_uf } = v;
  const valido =
    ehTextoPreenchido(id) &&
    ehInteiroPositivo(rota_id) &&
    ehInteiroPositivo(cidade_id) &&
    ehTexto(data_venda) &&
    ehInteiroNaoNegativo(valor_dinheiro) &&
    ehInteiroNaoNegativo(valor_pix) &&
    ehInteiroNaoNegativo(valor_cartao) &&
    ehInteiroNaoNegativo(valor_link) &&
    ehInteiroNaoNegativo(valor_boletos) &&
    ehTexto(observacoes) &&
    ehTexto(registrado_em) &&
    (versao_base === undefined || versao_base === null || ehInteiroPositivo(versao_base)) &&
    ehTextoOpcional(cidade_nome) &&
    ehTextoOpcional(cidade_uf);
  if (!valido) return null;
  return {
    id, rota_id, cidade_id, data_venda, valor_dinheiro, valor_pix, valor_cartao, valor_link, valor_boletos, observacoes, registrado_em,
    ...(typeof versao_base === 'number' ? { versao_base } : {}),
    ...opcional('cidade_nome', cidade_nome),
    ...opcional('cidade_uf', cidade_uf),
  };
});

export const dadosVisitaSchema = leitor<DadosVisitaFila>((v) => {
  if (!ehObjeto(v)) return null;
  const { id, rota_id, cidade_id, data, registrado_em, cidade_nome, cidade_uf } = v;
  const valido =
    ehTextoPreenchido(id) &&
    ehInteiroPositivo(rota_id) &&
    ehInteiroPositivo(cidade_id) &&
    ehTexto(data) &&
    ehTexto(registrado_em) &&
    ehTextoOpcional(cidade_nome) &&
    ehTextoOpcional(cidade_uf);
  if (!valido) return null;
  return { id, rota_id, cidade_id, data, registrado_em, ...opcional('cidade_nome', cidade_nome), ...opcional('cidade_uf', cidade_uf) };
});

export const dadosDesfazerVisitaSchema = leitor<DadosDesfazerVisitaFila>((v) => {
  if (!ehObjeto(v)) return null;
  const { id, rota_id, cidade_id, data, cidade_nome, cidade_uf } = v;
  const valido = ehTextoPreenchido(id) && ehInteiroPositivo(rota_id) && ehInteiroPositivo(cidade_id) && ehTexto(data) && ehTextoOpcional(cidade_nome) && ehTextoOpcional(cidade_uf);
  if (!valido) return null;
  return { id, rota_id, cidade_id, data, ...opcional('cidade_nome', cidade_nome), ...opcional('cidade_uf', cidade_uf) };
});

/** The entity every write of a city's day touches. */
export const chaveDoDia = (rotaId: number, cidadeId: number, data: string) => `venda:${rotaId}:${cidadeId}:${data}`;
