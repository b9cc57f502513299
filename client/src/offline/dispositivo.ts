/**
 * What this phone tells the server on every request (shared/dispositivos.ts): its install id, the
 * app version, and a summary of the signed-in employee's outbox (count per kind, age of the oldest,
 * time since the last complete sync). The admin dashboard shows it as 'Pendências nos celulares'.
 * Requests are synchronous to build, so the summary is kept in memory, updated by a Dexie liveQuery.
 */
import { liveQuery, type Subscription } from 'dexie';
import { v4 as uuidv4 } from 'uuid';
import { cabecalhosDoRelato, dispositivoValido, filaVazia, type ContagemFila, type TipoFila } from '../../../shared/dispositivos';
import { ehTipoOperacao, OPERACOES, type GrupoOperacao } from '../../../shared/sync/operacoes';
import { definirCabecalhosExtras, requisitar } from '../api/client';
import { lerUsuarioSalvo } from '../auth/sessaoLocal';
import { versaoApp } from '../versaoApp';
import type { BancoLocal, ItemOutbox } from './db';
import { CHAVE_ULTIMA_SYNC } from './sync';

/** In `meta`, beside the outbox: the id lives and goes with the queue it describes. */
export const CHAVE_DISPOSITIVO = 'dispositivoId';

/** A queue that changed is told to the server this long after the last change (a burst is one report). */
export const ESPERA_RELATO_MS = 2000;

export interface ResumoFila {
  fila: ContagemFila;
  /** criadoEm of the oldest item (ms), null with an empty queue. */
  maisAntigoMs: number | null;
}

const FILA_DO_GRUPO: Record<GrupoOperacao, TipoFila> = { vendas: 'venda', visitas: 'visita', despesas: 'despesa', rotas: 'rota' };

/** The report's counter of a kind (its group in the registry, shared/sync/operacoes.ts); unknown kinds are left out. */
export function tipoDaFila(tipo: string): TipoFila | null {
  return ehTipoOperacao(tipo) ? FILA_DO_GRUPO[OPERACOES[tipo].grupo] : null;
}

/** The outbox per owner: items that need attention still wait on the phone, so they count too. */
export function resumirFila(itens: Pick<ItemOutbox, 'usuarioId' | 'tipo' | 'criadoEm'>[]): Map<number, ResumoFila> {
  const porUsuario = new Map<number, ResumoFila>();
  for (const item of itens) {
    let r = porUsuario.get(item.usuarioId);
    if (!r) {
      r = { fila: filaVazia(), maisAntigoMs: null };
      porUsuario.set(item.usuarioId, r);
    }
    const tipo = tipoDaFila(item.tipo);
    if (tipo) r.fila[tipo] += 1;
    const criado = Date.parse(item.criadoEm);
    if (Number.isFinite(criado) && (r.maisAntigoMs === null || criado < r.maisAntigoMs)) r.maisAntigoMs = criado;
  }
  return porUsuario;
}

interface Retrato {
  dispositivoId: string | null;
  porUsuario: Map<number, ResumoFila>;
  ultimaSyncMs: number | null;
}

let retrato: Retrato = { dispositivoId: null, porUsuario: new Map(), ultimaSyncMs: null };
/** The X-Fila each employee's requests last carried: what the server last heard. */
const filaEnviada = new Map<number, string>();

/** The report headers for `usuarioId` now; none until the device id is read. */
export function cabecalhosDoDispositivo(usuarioId: number, agoraMs = Date.now()): Record<string, string> {
  if (!retrato.dispositivoId) return {};
  const resumo = retrato.porUsuario.get(usuarioId) ?? { fila: filaVazia(), maisAntigoMs: null };
  const idade = (ms: number | null) => (ms === null ? null : Math.max(0, Math.floor((agoraMs - ms) / 1000)));
  return cabecalhosDoRelato({
    dispositivoId: retrato.dispositivoId,
    versao: versaoApp(),
    fila: resumo.fila,
    filaIdadeS: idade(resumo.maisAntigoMs),
    syncIdadeS: idade(retrato.ultimaSyncMs),
  });
}

/** Each open database's install id, once read: the engine asks it on every pass, the report at start. */
const idsLidos = new WeakMap<BancoLocal, Promise<string>>();

/**
 * This install's id: made once (random, not tied to anyone) and kept. Read from IndexedDB once per
 * database opened (it never changes while the database exists): before, every sync pass opened a
 * read-write transaction on `meta` for it, one more in the crowd of the dashboard's first second.
 */
export function idDoDispositivo(banco: BancoLocal): Promise<string> {
  let id = idsLidos.get(banco);
  if (!id) {
    id = lerOuCriarId(banco);
    idsLidos.set(banco, id);
    // A failed read is tried again by the next caller.
    id.catch(() => idsLidos.delete(banco));
  }
  return id;
}

async function lerOuCriarId(banco: BancoLocal): Promise<string> {
  return banco.transaction('rw', banco.meta, async () => {
    const salvo = await banco.meta.get(CHAVE_DISPOSITIVO);
    if (typeof salvo?.valor === 'string' && dispositivoValido(salvo.valor)) return salvo.valor;
    const novo = uuidv4(); // not crypto.randomUUID: that one needs HTTPS, and a LAN install may not have it
    await banco.meta.put({ chave: CHAVE_DISPOSITIVO, valor: novo });
    return novo;
  });
}

/**
 * Starts keeping the summary and adds the report to every request of a signed-in employee
 * (admins' browsers are not phones in the field). Returns how to stop.
 */
export function iniciarRelatorioDoDispositivo(banco: BancoLocal): () => void {
  let ativo = true;
  let aviso: ReturnType<typeof setTimeout> | null = null;
  // The queue changed with no request going out (it just emptied after a sync, an item was discarded):
  // one small request tells the server, or the admin would see items that already arrived.
  const avisarServidor = () => {
    aviso = null;
    const usuario = lerUsuarioSalvo();
    if (!ativo || usuario?.tipo !== 'funcionario' || (typeof navigator !== 'undefined' && !navigator.onLine)) return;
    const fila = cabecalhosDoDispositivo(usuario.id)['X-Fila'];
    if (fila === undefined || fila === filaEnviada.get(usuario.id)) return;
    requisitar('POST', '/dispositivos/relato', { ignorarSessaoExpirada: true }).catch(() => undefined);
  };
  void idDoDispositivo(banco)
    .then((id) => {
      if (ativo) retrato = { ...retrato, dispositivoId: id };
    })
    .catch((erro: unknown) => console.error('Erro ao ler o id deste aparelho:', erro));
  const assinaturas: Subscription[] = [
    liveQuery(() => banco.outbox.toArray()).subscribe({
      next: (itens) => {
        retrato = { ...retrato, porUsuario: resumirFila(itens) };
        if (aviso) clearTimeout(aviso);
        aviso = setTimeout(avisarServidor, ESPERA_RELATO_MS);
      },
      error: (erro) => console.error('Erro ao resumir a fila para o servidor:', erro),
    }),
    liveQuery(() => banco.meta.get(CHAVE_ULTIMA_SYNC)).subscribe({
      next: (m) => {
        const ms = typeof m?.valor === 'string' ? Date.parse(m.valor) : NaN;
        retrato = { ...retrato, ultimaSyncMs: Number.isFinite(ms) ? ms : null };
      },
      error: (erro) => console.error('Erro ao ler a última sincronização:', erro),
    }),
  ];
  definirCabecalhosExtras(() => {
    const usuario = lerUsuarioSalvo();
    if (usuario?.tipo !== 'funcionario') return {};
    const cabecalhos = cabecalhosDoDispositivo(usuario.id);
    if (cabecalhos['X-Fila'] !== undefined) filaEnviada.set(usuario.id, cabecalhos['X-Fila']);
    return cabecalhos;
  });
  return () => {
    ativo = false;
    if (aviso) clearTimeout(aviso);
    filaEnviada.clear();
    assinaturas.forEach((a) => a.unsubscribe());
    definirCabecalhosExtras(null);
    retrato = { dispositivoId: null, porUsuario: new Map(), ultimaSyncMs: null };
  };
}
