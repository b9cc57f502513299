/**
 * The half-filled expense form kept on the device (decisions.md: while the camera or the file
 * chooser is open, Android may unload the page). One draft per person; read back with care, since
 * an older app version may have written it.
 */
import { TIPOS_DESPESA, type TipoDespesa } from '../../../shared/schemas/despesas';
import { bancoLocal, type BancoLocal } from '../offline/db';
import type { DespesaExibida } from './fila';
import type { CupomPreparado } from './operacoes';

export interface FormularioDespesa {
  cidade_id: number | null;
  data_despesa: string;
  tipo: TipoDespesa | '';
  tipo_outro: string;
  valor: string;
  descricao: string;
  /** As typed or read from the receipt's QR; '' without one. */
  chave_nfce: string;
}

export interface RascunhoDespesa {
  /** The expense being edited (as it was shown), or null for a new one. */
  editando: DespesaExibida | null;
  /** The id a new expense will keep, so a restored draft is still the same expense. */
  id: string;
  form: FormularioDespesa;
  /** The first receipt chosen (what an older app's draft has). */
  cupom: CupomPreparado | null;
  excluirCupom: boolean;
  /** Every receipt chosen, in order. */
  cupons?: CupomPreparado[];
  /** The server's receipts marked for removal, by id. */
  removerCupons?: number[];
  /** Receipts still only on the device (files of the expense's queued items) marked for removal, by file id. */
  removerLocais?: string[];
}

const chave = (usuarioId: number) => `despesa-formulario:${usuarioId}`;

export async function salvarRascunho(usuarioId: number, rascunho: RascunhoDespesa, banco: BancoLocal = bancoLocal): Promise<void> {
  await banco.rascunhos.put({ chave: chave(usuarioId), usuarioId, dados: rascunho, atualizadoEm: new Date().toISOString() });
}

export async function apagarRascunho(usuarioId: number, banco: BancoLocal = bancoLocal): Promise<void> {
  await banco.rascunhos.delete(chave(usuarioId));
}

function restaurarFormulario(bruto: Partial<FormularioDespesa> | undefined): FormularioDespesa | null {
  if (!bruto || typeof bruto !== 'object') return null;
  const texto = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    cidade_id: typeof bruto.cidade_id === 'number' ? bruto.cidade_id : null,
    data_despesa: texto(bruto.data_despesa),
    tipo: (TIPOS_DESPESA as readonly string[]).includes(bruto.tipo ?? '') ? (bruto.tipo as TipoDespesa) : '',
    tipo_outro: texto(bruto.tipo_outro),
    valor: texto(bruto.valor),
    descricao: texto(bruto.descricao),
    chave_nfce: texto(bruto.chave_nfce),
  };
}

/** The person's draft, repaired; null when there is none or it cannot be read. */
export async function lerRascunho(usuarioId: number, banco: BancoLocal = bancoLocal): Promise<RascunhoDespesa | null> {
  const guardado = await banco.rascunhos.get(chave(usuarioId));
  if (!guardado || guardado.usuarioId !== usuarioId) return null;
  const d = guardado.dados as Partial<RascunhoDespesa> | null;
  const form = restaurarFormulario(d?.form);
  if (!d || !form || typeof d.id !== 'string') return null;
  // Bytes come back as an ArrayBuffer of IndexedDB's realm: compare by tag, not instanceof.
  const ehBytes = (v: unknown) => Object.prototype.toString.call(v) === '[object ArrayBuffer]';
  const valido = (c: Partial<CupomPreparado> | null | undefined): c is CupomPreparado => !!c && typeof c.nome === 'string' && typeof c.tipo === 'string' && ehBytes(c.conteudo);
  const cupom = valido(d.cupom) ? d.cupom : null;
  const cupons = Array.isArray(d.cupons) ? d.cupons.filter(valido) : cupom ? [cupom] : [];
  const removerCupons = Array.isArray(d.removerCupons) ? d.removerCupons.filter((id): id is number => Number.isSafeInteger(id)) : [];
  const removerLocais = Array.isArray(d.removerLocais) ? d.removerLocais.filter((id): id is string => typeof id === 'string') : [];
  const editando = d.editando && typeof d.editando === 'object' && typeof d.editando.id === 'string' ? d.editando : null;
  return { editando, id: d.id, form, cupom, excluirCupom: d.excluirCupom === true, cupons, removerCupons, removerLocais };
}
