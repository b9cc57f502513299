/**
 * 'Exportar pendências': when the phone cannot sync (no signal for days, the server unreachable),
 * the person saves the queue into ONE file and sends it by other means; an admin imports it on the
 * server (POST /api/sync/importar), which replays it with the batch sync's code.
 *
 * Each item goes in as the same operation the batch sends ({ id, tipo, seq, dados }), built by the
 * same `operacoes[tipo].paraEnvio`, with its receipt embedded (base64). Nothing leaves
 * the queue: the phone still sends its items later, and the server recognises them by id.
 * Works offline: it only reads IndexedDB.
 */
import { dataNoFuso, formatarHora } from '../../../shared/dates';
import {
  EXTENSAO_PENDENCIAS,
  FORMATO_PENDENCIAS,
  VERSAO_PENDENCIAS,
  plural,
  type ArquivoPendencia,
  type ArquivoPendenciasEntrada,
} from '../../../shared/schemas/pendencias';
import { versaoApp } from '../versaoApp';
import type { ArquivoLocal, BancoLocal } from './db';
import { idDoDispositivo } from './dispositivo';
import { arquivosDoItem, itensDoUsuario, type Operacoes } from './outbox';

export interface DonoExportacao {
  id: number;
  nome: string;
  email: string;
}

export interface OpcoesExportacao {
  agora?: Date;
  fuso?: string;
  /** This build's version by default. */
  versaoApp?: string;
}

export interface Exportacao {
  conteudo: ArquivoPendenciasEntrada;
  nomeArquivo: string;
  itens: number;
  comprovantes: number;
  /** Items this app version cannot turn into a request (written by another version): left out, named. */
  ignorados: string[];
}

export function paraBase64(bytes: Uint8Array): string {
  let binario = '';
  // In slices: spreading megabytes into one call overflows the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binario += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binario);
}

/** A queued receipt as the file carries it (base64). */
function arquivoDaPendencia(arquivo: ArquivoLocal): ArquivoPendencia {
  const bytes = new Uint8Array(arquivo.conteudo);
  return { nome: arquivo.nome, tipo: arquivo.tipo, tamanho: bytes.length, base64: paraBase64(bytes) };
}

/** 'Ana Souza' -> 'ana-souza' (a file name every phone and mail client keeps as is). */
export function nomeParaArquivo(nome: string): string {
  const limpo = nome
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return limpo || 'funcionario';
}

/** pendencias-<nome>-<AAAA-MM-DD-HHmm>.sgp, in the business time zone. */
export function nomeDoArquivoPendencias(nome: string, agora: Date, fuso: string): string {
  const hora = formatarHora(agora.toISOString(), fuso).replace(':', '');
  return `pendencias-${nomeParaArquivo(nome)}-${dataNoFuso(agora, fuso)}-${hora}.${EXTENSAO_PENDENCIAS}`;
}

/** The owner's whole queue (waiting and refused items), in queue order, as one file's content. */
export async function montarExportacao(banco: BancoLocal, operacoes: Operacoes, dono: DonoExportacao, opcoes: OpcoesExportacao = {}): Promise<Exportacao> {
  const agora = opcoes.agora ?? new Date();
  const fuso = opcoes.fuso ?? 'America/Sao_Paulo';
  const itens = await itensDoUsuario(banco, dono.id);
  const exportadas: ArquivoPendenciasEntrada['operacoes'] = [];
  const ignorados: string[] = [];
  let comprovantes = 0;
  for (const item of itens) {
    const definicao = operacoes[item.tipo];
    if (!definicao) {
      ignorados.push(item.descricao);
      continue;
    }
    let dados: unknown;
    try {
      dados = definicao.paraEnvio(item.dados);
    } catch {
      ignorados.push(item.descricao); // unreadable data from another version: the sync panel shows it as refused
      continue;
    }
    // Every receipt; `arquivo` is the first, for servers from before several receipts per expense.
    const todos = (await arquivosDoItem(banco, item)).map(arquivoDaPendencia);
    const arquivo = todos[0] ?? null;
    comprovantes += todos.length;
    exportadas.push({
      id: item.id,
      tipo: item.tipo,
      seq: item.seq ?? 0,
      dados,
      chaves: item.chaves,
      criadoEm: item.criadoEm,
      descricao: item.descricao,
      estado: item.estado,
      arquivo,
      ...(todos.length > 1 ? { arquivos: todos } : {}),
    });
  }
  return {
    conteudo: {
      formato: FORMATO_PENDENCIAS,
      versao: VERSAO_PENDENCIAS,
      exportadoEm: agora.toISOString(),
      funcionario: { id: dono.id, nome: dono.nome, email: dono.email },
      dispositivo: await idDoDispositivo(banco),
      versaoApp: opcoes.versaoApp ?? versaoApp(),
      operacoes: exportadas,
    },
    nomeArquivo: nomeDoArquivoPendencias(dono.nome, agora, fuso),
    itens: exportadas.length,
    comprovantes,
    ignorados,
  };
}

/** '12 itens e 3 comprovantes exportados' / '1 item exportado'. */
export function resumoDaExportacao(e: Pick<Exportacao, 'itens' | 'comprovantes'>): string {
  const itens = plural(e.itens, 'item', 'itens');
  if (e.comprovantes === 0) return `${itens} ${e.itens === 1 ? 'exportado' : 'exportados'}`;
  return `${itens} e ${plural(e.comprovantes, 'comprovante', 'comprovantes')} exportados`;
}

/** Saves the file through the browser's download (a Blob URL): works offline, on a phone too. */
export function baixarArquivo(blob: Blob, nome: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = nome;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Some browsers read the URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The file as the share sheet accepts it (Android: WhatsApp, e-mail, Drive...), or null where files
 * cannot be shared. Chrome shares only some file types, not .sgp: then it goes as the same JSON in
 * a .txt, which the import accepts too.
 */
export function arquivoParaCompartilhar(conteudo: string, nome: string): File | null {
  if (typeof navigator === 'undefined' || typeof navigator.canShare !== 'function' || typeof navigator.share !== 'function') return null;
  const candidatos = [new File([conteudo], nome, { type: 'application/json' }), new File([conteudo], `${nome}.txt`, { type: 'text/plain' })];
  for (const f of candidatos) {
    try {
      if (navigator.canShare({ files: [f] })) return f;
    } catch {
      // canShare throws on some platforms for unsupported data: try the next form
    }
  }
  return null;
}
