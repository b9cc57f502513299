/**
 * Closings being typed, kept on the device per route and date (decisions.md: a half-filled sale is
 * a draft; Android may unload the page while the person checks an amount in another app). Read
 * back with care: an older app version may have written it.
 */
import { bancoLocal, type BancoLocal } from '../offline/db';
import type { CamposVenda } from './formulario';

const chave = (usuarioId: number, rotaId: number, data: string) => `vendas-edicoes:${usuarioId}:${rotaId}:${data}`;
const CAMPOS: (keyof CamposVenda)[] = ['valor_dinheiro', 'valor_pix', 'valor_cartao', 'valor_link', 'valor_boletos', 'observacoes'];

export type EdicoesVenda = Record<number, CamposVenda>;

export async function salvarRascunhoVendas(usuarioId: number, rotaId: number, data: string, edicoes: EdicoesVenda, banco: BancoLocal = bancoLocal) {
  await banco.rascunhos.put({ chave: chave(usuarioId, rotaId, data), usuarioId, dados: edicoes, atualizadoEm: new Date().toISOString() });
}

export async function apagarRascunhoVendas(usuarioId: number, rotaId: number, data: string, banco: BancoLocal = bancoLocal) {
  await banco.rascunhos.delete(chave(usuarioId, rotaId, data));
}

/** The edits in progress for this route and date, repaired; null when there are none. */
export async function lerRascunhoVendas(usuarioId: number, rotaId: number, data: string, banco: BancoLocal = bancoLocal): Promise<EdicoesVenda | null> {
  const guardado = await banco.rascunhos.get(chave(usuarioId, rotaId, data));
  if (!guardado || guardado.usuarioId !== usuarioId || typeof guardado.dados !== 'object' || guardado.dados === null) return null;
  const edicoes: EdicoesVenda = {};
  for (const [cidade, campos] of Object.entries(guardado.dados as Record<string, Partial<CamposVenda>>)) {
    const id = Number(cidade);
    if (!Number.isInteger(id) || typeof campos !== 'object' || campos === null) continue;
    edicoes[id] = Object.fromEntries(CAMPOS.map((c) => [c, typeof campos[c] === 'string' ? campos[c] : ''])) as unknown as CamposVenda;
  }
  return Object.keys(edicoes).length > 0 ? edicoes : null;
}
