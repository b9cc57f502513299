/**
 * The employee's queued sales writes (decisions.md, 'Sales and visits'):
 * - 'venda.salvar' -> POST /vendas: the city's closing of a date, with the client's UUIDv7 (reused when
 *   the city already has a closing that day, so an edit converges on the same record);
 * - 'visita.registrar' -> POST /rotas/{rota}/cidades/{cidade}/visitar: the city visited without a sale;
 * - 'visita.desfazer' -> POST /rotas/{rota}/cidades/{cidade}/desfazer-visita: the toast's 'Desfazer' of a
 *   visit that may already be on the server (one still in the queue just leaves it: desfazerVisita).
 * Amounts travel in centavos; an edit of a closing read from the server names the version it was
 * based on (versao_base). Both touch the (route, city, date): an edit waits behind a refused create.
 */
import { v7 as uuidv7 } from 'uuid';
import { formatarData } from '../../../shared/dates';
import { motorSync, registrarOperacao } from '../offline';
import type { BancoLocal, ItemOutbox } from '../offline/db';
import { enfileirar, enfileirarOuCorrigir } from '../offline/outbox';
import {
  chaveDoDia,
  dadosDesfazerVisitaSchema,
  dadosVendaSchema,
  dadosVisitaSchema,
  OPERACAO_DESFAZER_VISITA,
  OPERACAO_REGISTRAR_VISITA,
  OPERACAO_SALVAR_VENDA,
  type DadosVendaFila,
  type DadosVisitaFila,
} from './fila';

const ILEGIVEL = 'Registro ilegível (feito por outra versão do aplicativo). Descarte-o e registre de novo.';

registrarOperacao(OPERACAO_SALVAR_VENDA, {
  paraEnvio(dados) {
    const r = dadosVendaSchema.safeParse(dados);
    if (!r.success) throw new Error(ILEGIVEL);
    const d = r.data;
    // Amounts are centavos already: the form's reader converted them once (lerCampos.ts).
    return {
      id: d.id,
      rota_id: d.rota_id,
      cidade_id: d.cidade_id,
      data_venda: d.data_venda,
      valor_dinheiro: d.valor_dinheiro,
      valor_pix: d.valor_pix,
      valor_cartao: d.valor_cartao,
      valor_link: d.valor_link,
      valor_boletos: d.valor_boletos,
      observacoes: d.observacoes,
      registrado_em: d.registrado_em,
      versao_base: d.versao_base ?? null,
    };
  },
  editarEm: (dados) => {
    const r = dadosVendaSchema.safeParse(dados);
    return r.success ? `/vendas?data=${r.data.data_venda}&cidade=${r.data.cidade_id}` : null;
  },
});

registrarOperacao(OPERACAO_REGISTRAR_VISITA, {
  paraEnvio(dados) {
    const r = dadosVisitaSchema.safeParse(dados);
    if (!r.success) throw new Error(ILEGIVEL);
    const { id, data, registrado_em, rota_id, cidade_id } = r.data;
    return { id, rota_id, cidade_id, data, registrado_em };
  },
  editarEm: (dados) => {
    const r = dadosVisitaSchema.safeParse(dados);
    return r.success ? `/vendas?data=${r.data.data}&cidade=${r.data.cidade_id}` : null;
  },
});

registrarOperacao(OPERACAO_DESFAZER_VISITA, {
  paraEnvio(dados) {
    const r = dadosDesfazerVisitaSchema.safeParse(dados);
    if (!r.success) throw new Error(ILEGIVEL);
    const { id, rota_id, cidade_id, data } = r.data;
    return { id, rota_id, cidade_id, data };
  },
  editarEm: (dados) => {
    const r = dadosDesfazerVisitaSchema.safeParse(dados);
    return r.success ? `/vendas?data=${r.data.data}&cidade=${r.data.cidade_id}` : null;
  },
});

const nomeDaCidade = (d: { cidade_nome?: string | undefined; cidade_uf?: string | undefined; cidade_id: number }) =>
  d.cidade_nome ? `${d.cidade_nome}${d.cidade_uf ? ` (${d.cidade_uf})` : ''}` : `cidade ${d.cidade_id}`;

/** Saving a city's day again replaces what the server refused for it (sale or visit), in place. */
const MESMO_DIA = [OPERACAO_SALVAR_VENDA, OPERACAO_REGISTRAR_VISITA];

export function enfileirarVenda(banco: BancoLocal, usuarioId: number, dados: DadosVendaFila): Promise<ItemOutbox> {
  return enfileirarOuCorrigir(banco, {
    tipo: OPERACAO_SALVAR_VENDA,
    usuarioId,
    dados,
    chaves: [chaveDoDia(dados.rota_id, dados.cidade_id, dados.data_venda)],
    descricao: `Fechamento de ${nomeDaCidade(dados)} em ${formatarData(dados.data_venda)}`,
  }, MESMO_DIA);
}

export function enfileirarVisita(banco: BancoLocal, usuarioId: number, dados: DadosVisitaFila): Promise<ItemOutbox> {
  return enfileirarOuCorrigir(banco, {
    tipo: OPERACAO_REGISTRAR_VISITA,
    usuarioId,
    dados,
    chaves: [chaveDoDia(dados.rota_id, dados.cidade_id, dados.data)],
    descricao: `Visita a ${nomeDaCidade(dados)} em ${formatarData(dados.data)} (sem venda)`,
  }, MESMO_DIA);
}

/** How an undo went: the visit left the queue before being sent, or its removal was queued after it. */
export type VisitaDesfeita = 'tirada_da_fila' | 'remocao_na_fila';

/** How long an undo waits for a pass under way (usually the one the mark itself started) before queuing the removal. */
const ESPERA_PELA_PASSADA_MS = 3000;

/**
 * The toast's 'Desfazer' of a visit just marked. Still in the queue and no pass sending (any tab;
 * one under way is waited for a moment), the visit just leaves the queue: nothing reaches the server.
 * Otherwise it is, or may be, on the server: a 'visita.desfazer' is queued behind it (same day key,
 * so never before it).
 */
export async function desfazerVisita(
  banco: BancoLocal,
  usuarioId: number,
  visita: { itemId: string; dados: DadosVisitaFila },
  foraDaPassada: (mudar: () => Promise<void>) => Promise<boolean> = (mudar) => motorSync.foraDaPassada(mudar, ESPERA_PELA_PASSADA_MS),
): Promise<VisitaDesfeita> {
  let tirada = false;
  await foraDaPassada(async () => {
    tirada = (await banco.outbox.where('id').equals(visita.itemId).delete()) > 0;
  });
  if (tirada) return 'tirada_da_fila';
  const { rota_id, cidade_id, data, cidade_nome, cidade_uf } = visita.dados;
  await enfileirar(banco, {
    tipo: OPERACAO_DESFAZER_VISITA,
    usuarioId,
    dados: { id: uuidv7(), rota_id, cidade_id, data, cidade_nome, cidade_uf },
    chaves: [chaveDoDia(rota_id, cidade_id, data)],
    descricao: `Visita a ${nomeDaCidade(visita.dados)} em ${formatarData(data)} desfeita`,
  });
  return 'remocao_na_fila';
}
