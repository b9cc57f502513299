/**
 * The phones in the field, seen from the server (docs/decisions/pendencias-e-celulares.md):
 * - every request of a signed-in employee that carries a report (X-Dispositivo, X-Versao-App, X-Fila...)
 *   updates that phone's row, but only when it says something new, or to refresh 'visto em' every few
 *   minutes: a write per request would change the database stamp and empty the read cache for everyone;
 * - the writes a phone queues (the batch and each single endpoint of the Escrita list) answer 426
 *   'Atualize o aplicativo...' to an app older than the minimum version. A request without
 *   X-Versao-App (scripts, tests, curl) is not gated.
 * Both run in one preValidation hook: after authentication (onRequest), before the body is validated
 * (an old app's body may not even fit today's schema) and before the read cache answers (preHandler).
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CABECALHO_VERSAO, lerRelato, type RelatoDispositivo } from '../../../shared/dispositivos';
import { abaixoDaMinima } from '../../../shared/versao';
import { versaoAntigaDoApp } from '../errors';
import { ESCRITAS } from '../sync/legado';
import type { App } from '../tipos';
import { carimboDaRequisicao, carimboDoBanco } from '../db';
import { buscarDispositivo, gravarDispositivoLimitado, type LinhaDispositivo } from './repositorio';

/** With nothing new to say, a phone's row is rewritten at most this often (only 'visto em' moves). */
export const INTERVALO_VISTO_MS = 5 * 60_000;
/**
 * A phone not seen for this long is forgotten (esquecerDispositivosParados), whatever its queue said.
 * Why a month: no stretch of road goes that long without a signal, and by then the admin has seen the
 * row in red ('Há mais de 24 horas', 'visto há N dias') for weeks; its sales come back through the
 * rescue file (Exportar pendências), not this row. Kept longer, a dead or forged id would hold one
 * of the employee's MAXIMO_CELULARES_POR_FUNCIONARIO places.
 */
export const DIAS_PARA_ESQUECER = 30;
/**
 * Phones (installs) kept per employee. One person carries one phone, maybe a spare or a reinstall:
 * five is room for that, and bounds what an employee's token can put on the admin's panel (50 invented
 * ids used to make 50 rows). See gravarDispositivoLimitado for who gives way to a sixth.
 */
export const MAXIMO_CELULARES_POR_FUNCIONARIO = 5;
/**
 * Largest count per kind kept from a report; above it the row says this much ('at least'). The outbox
 * has no cap of its own (client/src/offline/outbox.ts), so this is a sanity bound, not a copy of one:
 * 10,000 is years of one seller's sales or visits (a few dozen a day), while the header format alone
 * allows 999,999. Clamped, not refused: a real phone with a runaway queue must still show on the panel.
 */
export const MAXIMO_FILA_POR_TIPO = 10_000;
/** Ages are measured again on every request: instants this close are the same report. */
const TOLERANCIA_MS = 2 * 60_000;
const MAXIMO_EM_MEMORIA = 10_000;

export function mensagemVersaoAntiga(versao: string, minima: string): string {
  return (
    `Atualize o aplicativo para continuar sincronizando. Esta versão (${versao}) é anterior à mínima aceita pelo servidor (${minima}). ` +
    'Os registros continuam guardados no celular e serão enviados depois da atualização.'
  );
}

/** The row a report makes, with the server's clock: the phone's ages become instants. */
export function linhaDoRelato(r: RelatoDispositivo, usuarioId: number, agoraMs: number): LinhaDispositivo {
  const instante = (idadeS: number | null) => (idadeS === null ? null : new Date(agoraMs - idadeS * 1000).toISOString());
  const contagem = (n: number) => Math.min(MAXIMO_FILA_POR_TIPO, n);
  return {
    dispositivoId: r.dispositivoId,
    usuarioId,
    versao: r.versao,
    filaVendas: contagem(r.fila.venda),
    filaVisitas: contagem(r.fila.visita),
    filaDespesas: contagem(r.fila.despesa),
    filaRotas: contagem(r.fila.rota),
    maisAntigoEm: instante(r.filaIdadeS),
    ultimaSyncEm: instante(r.syncIdadeS),
    vistoEm: new Date(agoraMs).toISOString(),
  };
}

const pertos = (a: string | null, b: string | null) => (a === null || b === null ? a === b : Math.abs(Date.parse(a) - Date.parse(b)) <= TOLERANCIA_MS);

/** Whether `nova` must be written over `anterior` (what the database has). */
export function precisaGravar(anterior: LinhaDispositivo | undefined, nova: LinhaDispositivo): boolean {
  if (!anterior) return true;
  const mesmo =
    anterior.versao === nova.versao &&
    anterior.filaVendas === nova.filaVendas &&
    anterior.filaVisitas === nova.filaVisitas &&
    anterior.filaDespesas === nova.filaDespesas &&
    anterior.filaRotas === nova.filaRotas &&
    pertos(anterior.maisAntigoEm, nova.maisAntigoEm) &&
    pertos(anterior.ultimaSyncEm, nova.ultimaSyncEm);
  return !mesmo || Date.parse(nova.vistoEm) - Date.parse(anterior.vistoEm) >= INTERVALO_VISTO_MS;
}

/** 'POST /api/vendas', 'PUT /api/despesas/:id'...: the route patterns of the writes a phone queues. */
function rotasDasEscritas(): Set<string> {
  const rotas = new Set(ESCRITAS.map((e) => `${e.metodo} /api${e.caminho}`));
  rotas.add('POST /api/sync/lote');
  return rotas;
}

async function dispositivos(app: App) {
  const gatedas = rotasDasEscritas();
  // What each (device, employee) row holds in the database, so an unchanged report costs no query.
  // Kept with the database stamp it was read at: another process behind the same proxy may have
  // written the row since, and a copy it no longer matches would skip a write.
  const conhecidas = new Map<string, { carimbo: string; linha: LinhaDispositivo | undefined }>();

  async function registrar(request: FastifyRequest) {
    const relato = lerRelato(request.headers);
    if (!relato) return;
    const usuarioId = request.usuario.id;
    const chave = `${relato.dispositivoId}|${usuarioId}`;
    let conhecida = conhecidas.get(chave);
    const carimbo = await carimboDaRequisicao(app.db, request);
    if (!conhecida || conhecida.carimbo !== carimbo) {
      if (conhecidas.size >= MAXIMO_EM_MEMORIA) conhecidas.clear();
      conhecida = { carimbo, linha: await buscarDispositivo(app.db, relato.dispositivoId, usuarioId) };
      conhecidas.set(chave, conhecida);
    }
    const agora = Date.now();
    const nova = linhaDoRelato(relato, usuarioId, agora);
    const anterior = conhecida.linha;
    if (!precisaGravar(anterior, nova)) return;
    // Stale rows are pruned here, where the table is written anyway (a few rows, at most every few
    // minutes per phone): no timer, and no write of its own to empty the read cache.
    const r = await gravarDispositivoLimitado(app.db, nova, {
      existe: anterior !== undefined,
      maximoPorUsuario: MAXIMO_CELULARES_POR_FUNCIONARIO,
      vistoAntesDe: new Date(agora - DIAS_PARA_ESQUECER * 86_400_000).toISOString(),
    });
    if (r.esquecidos > 0 || r.substituido !== null) conhecidas.clear();
    if (!r.gravado) {
      request.log.warn({ usuarioId, dispositivoId: relato.dispositivoId }, 'relato ignorado: o funcionário já tem o máximo de celulares com itens na fila');
      return;
    }
    conhecidas.set(chave, { carimbo: await carimboDoBanco(app.db), linha: nova });
  }

  app.addHook('preValidation', async (request) => {
    if (request.usuario?.tipo === 'funcionario') {
      try {
        await registrar(request);
      } catch (erro) {
        // The report is a side note: the request itself must go on.
        conhecidas.clear();
        request.log.warn({ err: erro }, 'relato do celular não gravado');
      }
    }
    if (request.method === 'GET') return;
    const versao = request.headers[CABECALHO_VERSAO.toLowerCase()];
    const minima = app.config.versaoMinimaApp;
    if (!abaixoDaMinima(versao, minima)) return;
    const rota = `${request.method} ${(request.routeOptions.url ?? '').replace(/\/$/, '')}`;
    if (gatedas.has(rota)) throw versaoAntigaDoApp(mensagemVersaoAntiga((versao as string).trim(), minima));
  });
}

export default fp(dispositivos, { name: 'dispositivos', dependencies: ['auth'] });
