/**
 * Receipt files (cupons). The type comes from the file's own first bytes, never from its name or the
 * browser's claim; the stored name is random (the original name never touches the path or the key).
 * The rule is shared/tipoDoCupom.ts (the phone checks the same bytes when the file is chosen).
 * A receipt arrives as a temporary file (arquivos/temporarios.ts). Under DATA_DIR/uploads (the local
 * storage of arquivos/armazenamento.ts) it is put in place (`colocarCupom`) just before the
 * transaction that points at it and removed again when that transaction does not commit; files are
 * only removed after the database change that stops pointing at them committed.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MENSAGEM_TIPO_ARQUIVO } from '../../../shared/schemas/despesas';
import { detectarTipoCupom, type TipoCupom } from '../../../shared/tipoDoCupom';
import { mesmosBytes, type ArquivoRecebido } from '../arquivos/temporarios';
import { tipoNaoSuportado } from '../errors';

export { detectarTipoCupom, type TipoCupom };

/** A receipt received (to a temporary file) and checked: where it is, its size, what it is. What the services take. */
export interface CupomRecebido extends TipoCupom {
  /** The temporary file (DATA_DIR/uploads-tmp), removed by its request when not moved into place. */
  caminhoTemporario: string;
  tamanho: number;
  /** As the device named it (shown to people, never used for the path). */
  nomeOriginal: string;
}

/** Checks a received file by its first (and last) bytes: 415 with a clear message unless they are an accepted type. */
export function lerCupom(arquivo: ArquivoRecebido, nomeOriginal: string): CupomRecebido {
  const tipo = detectarTipoCupom(arquivo.inicio, arquivo.fim);
  if (!tipo) throw tipoNaoSuportado(MENSAGEM_TIPO_ARQUIVO);
  return { ...tipo, caminhoTemporario: arquivo.caminho, tamanho: arquivo.tamanho, nomeOriginal: nomeSeguro(nomeOriginal, tipo.extensao) };
}

/** Extensions a shown name may keep for a detected type (besides the type's own). */
const SINONIMOS_EXTENSAO: Record<string, string[]> = {
  jpg: ['jpeg', 'jpe', 'jfif'],
  heic: ['heif', 'hif'],
  heif: ['heic', 'hif'],
};

const NOME_MAXIMO = 120;

/**
 * The device's file name reduced to something safe to show, to put in a header and to save with:
 * no folders, no control or invisible characters (a bidi override shows 'cupom\u202egpj.exe' as
 * 'cupomexe.jpg'), not '.' or '..', at most 120 characters, and ending in the type the bytes are
 * (a DOCX named 'recibo.html' is offered as 'recibo.html.docx', never saved as a page).
 */
export function nomeSeguro(nome: string, extensao: string): string {
  const base = path.basename(nome.replace(/\\/g, '/')).normalize('NFC');
  const limpo = base.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}"<>|:*?]/gu, '').trim();
  if (/^\.*$/.test(limpo)) return `cupom.${extensao}`;
  const atual = /\.([^.]+)$/.exec(limpo)?.[1]?.toLowerCase();
  const comTipo = atual === extensao || (atual && SINONIMOS_EXTENSAO[extensao]?.includes(atual)) ? limpo : `${limpo}.${extensao}`;
  // Cut by characters, not UTF-16 units: half an emoji would break the header (encodeURIComponent throws).
  return Array.from(comTipo).slice(-NOME_MAXIMO).join('');
}

const NOME_ARMAZENADO = /^[0-9a-f]{32}\.[a-z]{3,4}$/;

export function pastaUploads(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

/** A name we gave a stored receipt (random hex and the type's extension): anything else is never used as a path or key. */
export function nomeCupomValido(arquivo: string): boolean {
  return NOME_ARMAZENADO.test(arquivo);
}

/** The path of a stored receipt; null for a name that is not one of ours (never a path from outside). */
export function caminhoCupom(pasta: string, arquivo: string): string | null {
  return nomeCupomValido(arquivo) ? path.join(pasta, arquivo) : null;
}

/** A new random name for a receipt of this type (never an existing one: 128 random bits). */
export function nomeNovoCupom(cupom: TipoCupom): string {
  return `${randomBytes(16).toString('hex')}.${cupom.extensao}`;
}

/**
 * Puts the received file in place under `nome`, just before the transaction that points the row at
 * it; the caller removes it again if that transaction does not commit. A hard link (same filesystem:
 * no bytes copied; a copy where the filesystem has no links): the received file stays where it was
 * until its request removes it, so a write refused inside its transaction leaves an upload sent in
 * parts in place for the corrected try, as when the rename was the transaction's last step. Its
 * modification time becomes now: the orphan sweep spares files younger than an hour, and this one
 * may still be on its way to its commit (a received file can be older than that).
 */
export async function colocarCupom(pasta: string, cupom: CupomRecebido, nome: string): Promise<void> {
  const destino = caminhoCupom(pasta, nome);
  if (!destino) throw new Error(`nome de cupom inválido: ${nome}`);
  try {
    await fs.promises.link(cupom.caminhoTemporario, destino);
  } catch (erro) {
    const codigo = (erro as { code?: unknown }).code;
    if (codigo !== 'EPERM' && codigo !== 'ENOTSUP' && codigo !== 'EOPNOTSUPP' && codigo !== 'EXDEV' && codigo !== 'EMLINK') throw erro;
    await fs.promises.copyFile(cupom.caminhoTemporario, destino, fs.constants.COPYFILE_EXCL);
  }
  const agora = new Date();
  await fs.promises.utimes(destino, agora, agora);
}

/** Removes a stored receipt; a file already gone is fine (a replay, a crash after the commit). */
export async function removerCupom(pasta: string, arquivo: string | null | undefined): Promise<void> {
  if (!arquivo) return;
  const caminho = caminhoCupom(pasta, arquivo);
  if (!caminho) return;
  await fs.promises.rm(caminho, { force: true });
}

/** True when the stored receipt has exactly the received bytes (a replayed edit sends the same file again). */
export async function mesmoConteudo(pasta: string, arquivo: string | null, cupom: CupomRecebido): Promise<boolean> {
  if (!arquivo) return false;
  const caminho = caminhoCupom(pasta, arquivo);
  if (!caminho) return false;
  return mesmosBytes(caminho, cupom.caminhoTemporario);
}
