/**
 * The field-day network benchmark: a day recorded with no signal on the employee's
 * phone, then the signal comes back on an emulated link, and the REAL built client (service worker,
 * Dexie outbox, sync engine) sends it to the REAL server on a temporary database.
 *
 * - Browser: Debian's Chromium through playwright-core, phone screen, service worker on. The link is
 *   Chromium's own emulation (CDP `Network.emulateNetworkConditions`: latency per request, upload and
 *   download rates), the phone's CPU `Emulation.setCPUThrottlingRate`. The offline period is the same
 *   CDP call with `offline: true` (Chromium then fires `offline`/`online` as a phone does).
 * - The day is written into the app's own IndexedDB outbox, item by item as `enfileirar`
 *   (client/src/offline/outbox.ts) writes them, with the data the screens queue (vendas/operacoes.ts,
 *   despesas/operacoes.ts), while the app is open offline; then the app is reloaded with no signal (the
 *   service worker serves it) so it starts with that queue, tries, and fails, as a phone does. Not typed
 *   through the screens: 21 forms per run would make the runs minutes longer. The server taking every
 *   item (checked in its database) is what proves the items are the ones the screens write.
 * - Clocks: the bench process (which also runs the server) marks the signal's return; it polls the
 *   server's database every 100 ms (never through the emulated page); the page records each change of
 *   the header's sync indicator with its time (a MutationObserver), so "the queue shows empty" is the
 *   moment the phone's indicator says "Sincronizado".
 * - LIMIT of a run = bytes of the write requests the server took (their bodies: what Chromium's
 *   emulation meters on the uplink) / the uplink rate + those requests x the latency (one emulated
 *   round trip each), counted by the server per request (Content-Length). Failed or cut attempts are
 *   not in the limit (they are the engine's waste). A run that does not finish is cut at its cap and
 *   compared with the limit its payload would have ("previsto": files + JSON in one request).
 */
import { execFileSync } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { v7 as uuidv7 } from 'uuid';
import { hoje, somarDias } from '../shared/dates';
import { normalizarBusca } from '../shared/texto';
import { entrarComSinal } from '../e2e/suporte/celular';
import { abrirNavegador, CELULAR, temChromium } from '../e2e/suporte/navegador';
import { iniciarServidor, PASTA_CLIENTE, type ServidorDeTeste } from '../e2e/suporte/servidor';
import { jpegDeTamanho, pdfComImagem } from './campo-arquivos';

export interface Link {
  latenciaMs: number;
  descidaKbps: number;
  subidaKbps: number;
}

export const LINKS = {
  '3g': { latenciaMs: 300, descidaKbps: 1_600, subidaKbps: 750 },
  ruim: { latenciaMs: 600, descidaKbps: 500, subidaKbps: 250 },
} satisfies Record<string, Link>;

export type NomeCenario = '3g-1x' | '3g-4x' | 'ruim-1x' | 'ruim-4x' | 'pdfs-1x' | 'pdfs-4x';

interface Cenario {
  nome: NomeCenario;
  rotulo: string;
  link: keyof typeof LINKS;
  cpu: number;
  dia: 'campo' | 'pdfs';
  meta: number;
}

export const CENARIOS: Cenario[] = [
  { nome: '3g-1x', rotulo: 'Dia de campo no 3G', link: '3g', cpu: 1, dia: 'campo', meta: 1.05 },
  { nome: 'ruim-1x', rotulo: 'Dia de campo no link ruim', link: 'ruim', cpu: 1, dia: 'campo', meta: 1.05 },
  { nome: '3g-4x', rotulo: 'Dia de campo no 3G, CPU 4x', link: '3g', cpu: 4, dia: 'campo', meta: 1.1 },
  { nome: 'ruim-4x', rotulo: 'Dia de campo no link ruim, CPU 4x', link: 'ruim', cpu: 4, dia: 'campo', meta: 1.1 },
  { nome: 'pdfs-1x', rotulo: '5 PDFs de ~1 MB no link ruim', link: 'ruim', cpu: 1, dia: 'pdfs', meta: 1.2 },
  { nome: 'pdfs-4x', rotulo: '5 PDFs de ~1 MB no link ruim, CPU 4x', link: 'ruim', cpu: 4, dia: 'pdfs', meta: 1.2 },
];

/** The signal back with no `online` event: the meta is the first write taken within 15 s. */
export const META_SEM_EVENTO_MS = 15_000;

export interface ExecucaoCampo {
  /** 1-minute load average of the machine at the run's start (2 cores: above 3 the run is marked disturbed). */
  carga: number;
  perturbada: boolean;
  terminou: boolean;
  /** From the signal's return: the server has every item (receipts with their full size). */
  servidorCompletoMs: number | null;
  /** ...the phone's indicator says "Sincronizado". */
  filaVaziaMs: number | null;
  /** ...the 12 closings and 2 visits are all on the server; the first of them. */
  pequenasMs: number | null;
  primeiraPequenaMs: number | null;
  /** Items on the server when the run ended (an unfinished run says what landed). */
  chegaram: { vendas: number; visitas: number; despesas: number };
  esperados: { vendas: number; visitas: number; despesas: number };
  /** GET requests the page made from the signal's return until 3 s of quiet after the sync; those after the server had everything. */
  gets: number;
  getsDepois: number;
  caminhosGet: Record<string, number>;
  /** Write requests the server took: count and body bytes (the limit's inputs). */
  requisicoes: number;
  bytes: number;
  /** Write attempts that failed or were cut (not in the limit). */
  tentativasPerdidas: number;
  limiteMs: number;
  /** The limit of the payload alone (files + JSON, one request), for runs that did not finish. */
  limitePrevistoMs: number;
  /** filaVaziaMs / limiteMs (the phone's view); servidorCompletoMs / limiteMs. */
  razao: number | null;
  razaoServidor: number | null;
  tetoMs: number;
  /**
   * From the signal's return until the server had everything, the time no write request was open at
   * the server: the link idle between one request's answer and the next request (the phone's own work,
   * plus the emulated latency of each request).
   */
  ociosoMs?: number | null;
  /** Each write request after the signal's return, as the server saw it (ms from the signal's return). */
  envios?: { inicioMs: number; fimMs: number | null; metodo: string; caminho: string; bytes: number; status: number | null; cortada: boolean }[];
}

export interface ResultadoCenario {
  nome: NomeCenario;
  /** The client build this scenario was measured on (runs of some scenarios only keep the others' figures). */
  commit?: string;
  rotulo: string;
  link: Link;
  cpu: number;
  meta: number;
  execucoes: ExecucaoCampo[];
  /** Median of the runs that finished (null when none did); min and max. */
  razaoMediana: number | null;
  razaoMin: number | null;
  razaoMax: number | null;
  terminaram: number;
}

export interface ExecucaoSemEvento {
  carga: number;
  perturbada: boolean;
  offlineS: number;
  /** The first queued item's failed attempts and its next try (s after the signal's return) when the signal came back. */
  tentativasAntes: number | null;
  proximaTentativaS: number | null;
  /** From the signal's return to the first request reaching the server and the first write it took. */
  primeiraRequisicaoMs: number | null;
  primeiroEnvioMs: number | null;
  tetoMs: number;
}

export interface ResultadoCampo {
  /** The client build measured (commit written beside it, else this checkout's HEAD). */
  commit: string;
  gravacao: string;
  dias: { campo: ArquivoDia[]; pdfs: ArquivoDia[] };
  cenarios: ResultadoCenario[];
  semEvento: { link: Link; execucoes: ExecucaoSemEvento[]; medianaMs: number | null; meta: number; commit?: string } | null;
}

interface ArquivoDia {
  nome: string;
  tipo: string;
  bytes: number;
}

/**
 * The two clients measured alternately in one window (bench/campo-par.ts): the same machine load for
 * both, where the 'Today' and 'Now' columns were measured half an hour apart on a shared machine.
 */
export interface ParCampo {
  medidoEm: string;
  rodadas: { cliente: 'antes' | 'depois'; commit: string; cenarios: ResultadoCenario[] }[];
}

/** What an earlier run measured, kept as the 'Today' column (resultados.json campo.antes). */
export type ResumoCampo = Pick<ResultadoCampo, 'commit' | 'cenarios' | 'semEvento'> & { medidoEm: string };

const mediana = (v: number[]) => {
  const o = [...v].sort((a, b) => a - b);
  const m = Math.floor(o.length / 2);
  return o.length % 2 ? o[m]! : (o[m - 1]! + o[m]!) / 2;
};
const esperar = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bytesPorSegundo = (kbps: number) => (kbps * 1000) / 8;
const CARGA_PERTURBADA = 3;
const PASTA_ARQUIVOS = path.join('bench', '.results', 'campo');
/**
 * The photos: 600x800 JPEGs at quality 0.85. The app sends a photo under 1 MB as it is and reduces a
 * larger one to 800 px at 0.7 (despesas/compressao.ts); 150-300 KB is what either leaves of a receipt.
 */
const QUALIDADE_FOTO = 0.85;

// ---------------------------------------------------------------------------------------------
// Server side: what each request carried and how it ended.

interface Registro {
  inicio: number;
  metodo: string;
  caminho: string;
  bytes: number;
  status: number | null;
  fim: number | null;
  cortada: boolean;
}

function registrarRequisicoes(servidor: ServidorDeTeste): Registro[] {
  const registros: Registro[] = [];
  servidor.app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const r: Registro = {
      inicio: Date.now(),
      metodo: req.method ?? '?',
      caminho: (req.url ?? '').split('?')[0]!,
      bytes: Number(req.headers['content-length'] ?? 0) || 0,
      status: null,
      fim: null,
      cortada: false,
    };
    registros.push(r);
    res.on('finish', () => {
      r.status = res.statusCode;
      r.fim = Date.now();
    });
    res.on('close', () => {
      if (r.fim === null) r.cortada = true;
    });
  });
  return registros;
}

/**
 * The day's write requests: the sync engine's (/api/sync/: batches, parts of a receipt). The phone's queue
 * report (POST /api/dispositivos/relato, no body) is not the day's payload: counted, each would add a
 * latency to the limit while it travels beside an upload.
 */
const ehEscrita = (r: Registro) => r.caminho.startsWith('/api/sync/') && !['GET', 'HEAD', 'OPTIONS'].includes(r.metodo);

// ---------------------------------------------------------------------------------------------
// The day: what the employee recorded with no signal.

interface ItemDia {
  tipo: 'venda.salvar' | 'visita.registrar' | 'despesa.criar';
  dados: Record<string, unknown>;
  chaves: string[];
  descricao: string;
  arquivo?: { id: string; nome: string; tipo: string; base64: string; bytes: number };
}

interface DiaPreparado {
  itens: ItemDia[];
  rotaId: number;
  data: string;
  vendas: string[];
  cidadesVisita: number[];
  despesas: Map<string, number>;
  funcionario: { email: string; senha: string };
  payloadBytes: number;
}

let proximaCidade = 9_300_000;

async function prepararDia(servidor: ServidorDeTeste, arquivos: { nome: string; tipo: string; conteudo: Buffer }[]): Promise<DiaPreparado> {
  const sqlite = servidor.db.$client;
  const inserir = sqlite.prepare('insert into cidades (id, nome, nome_busca, uf) values (?, ?, ?, ?)');
  const cidades = Array.from({ length: 14 }, (_, i) => ({ id: proximaCidade++, nome: `Município ${proximaCidade} ${i + 1}` }));
  sqlite.transaction(() => cidades.forEach((c) => inserir.run(c.id, c.nome, normalizarBusca(c.nome), 'GO')))();
  const f = await servidor.criarFuncionario({ nome: 'Célia Campo' });
  const data = hoje('America/Sao_Paulo');
  const r = await servidor.chamar({
    method: 'POST',
    url: '/api/rotas',
    token: await servidor.tokenAdmin(),
    payload: { nome: `Rota do campo ${cidades[0]!.id}`, funcionario_id: f.id, tem_secretario: false, valor_aluguel: 0, data_inicio: somarDias(data, -3), data_fim: somarDias(data, 20), observacoes: '', cidades: cidades.map((c) => c.id) },
  });
  if (r.statusCode !== 201) throw new Error(`rota: ${r.statusCode} ${r.body}`);
  const rotaId = r.json().rota.id as number;
  const agora = new Date().toISOString();
  const dataBr = data.split('-').reverse().join('/');
  const vendasIds: string[] = [];
  const despesas = new Map<string, number>();
  const pequenas: ItemDia[] = cidades.map((c, i) => {
    const chave = `venda:${rotaId}:${c.id}:${data}`;
    if (i === 5 || i === 11) {
      return {
        tipo: 'visita.registrar',
        dados: { id: uuidv7(), rota_id: rotaId, cidade_id: c.id, data, registrado_em: agora, cidade_nome: c.nome, cidade_uf: 'GO' },
        chaves: [chave],
        descricao: `Visita a ${c.nome} (GO) em ${dataBr} (sem venda)`,
      };
    }
    const id = uuidv7();
    vendasIds.push(id);
    return {
      tipo: 'venda.salvar',
      dados: {
        id,
        rota_id: rotaId,
        cidade_id: c.id,
        data_venda: data,
        // Centavos, as the sales form queues them.
        valor_dinheiro: (150 + i) * 100,
        valor_pix: 32050,
        valor_cartao: 8990,
        valor_link: 0,
        valor_boletos: 2,
        observacoes: i % 3 === 0 ? 'Cliente pediu retorno na próxima semana' : '',
        registrado_em: agora,
        versao_base: null,
        cidade_nome: c.nome,
        cidade_uf: 'GO',
      },
      chaves: [chave],
      descricao: `Fechamento de ${c.nome} (GO) em ${dataBr}`,
    };
  });
  const tipos = ['alimentacao', 'combustivel', 'hospedagem', 'pedagio', 'alimentacao', 'combustivel', 'outro'] as const;
  const comArquivo: ItemDia[] = arquivos.map((a, i) => {
    const cidade = cidades[(i * 2 + 1) % cidades.length]!;
    const id = uuidv7();
    despesas.set(id, a.conteudo.length);
    const tipo = tipos[i % tipos.length]!;
    const valor = 25 + i * 7.5;
    return {
      tipo: 'despesa.criar',
      dados: {
        id,
        rota_id: rotaId,
        cidade_id: cidade.id,
        data_despesa: data,
        tipo,
        tipo_outro: tipo === 'outro' ? 'Xerox' : '',
        valor,
        descricao: `Comprovante ${i + 1}`,
        registrado_em: agora,
        rota_nome: `Rota do campo ${cidades[0]!.id}`,
        cidade_nome: cidade.nome,
        cidade_uf: 'GO',
        funcionario_nome: 'Célia Campo',
        operacao: 'criar',
        cupom: { nome: a.nome, tipo: a.tipo },
      },
      chaves: [`despesa:${id}`],
      descricao: `Despesa: ${tipo} de R$ ${valor.toFixed(2).replace('.', ',')} em ${cidade.nome}`,
      arquivo: { id: uuidv7(), nome: a.nome, tipo: a.tipo, base64: a.conteudo.toString('base64'), bytes: a.conteudo.length },
    };
  });
  // The day in the order it happens: a receipt after every second city.
  const itens: ItemDia[] = [];
  let k = 0;
  pequenas.forEach((p, i) => {
    itens.push(p);
    if (i % 2 === 1 && k < comArquivo.length) itens.push(comArquivo[k++]!);
  });
  while (k < comArquivo.length) itens.push(comArquivo[k++]!);
  const payloadBytes = arquivos.reduce((s, a) => s + a.conteudo.length, 0) + Buffer.byteLength(JSON.stringify(itens.map((i) => i.dados)));
  return { itens, rotaId, data, vendas: vendasIds, cidadesVisita: [cidades[5]!.id, cidades[11]!.id], despesas, funcionario: { email: f.email, senha: f.senha }, payloadBytes };
}

/** Writes the day into the app's outbox (as `enfileirar`: files and item, in one transaction). */
async function gravarNoAparelho(pagina: Page, usuarioId: number, itens: ItemDia[]): Promise<number> {
  return pagina.evaluate(
    async ({ usuarioId, itens }) => {
      const banco = await new Promise<IDBDatabase>((ok, erro) => {
        const r = indexedDB.open('sistema-de-gestao');
        r.onsuccess = () => ok(r.result);
        r.onerror = () => erro(r.error);
      });
      const bytes = (b64: string) => {
        const s = atob(b64);
        const u = new Uint8Array(s.length);
        for (let i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
        return u.buffer;
      };
      for (const it of itens) {
        await new Promise<void>((ok, erro) => {
          const tx = banco.transaction(['outbox', 'arquivos'], 'readwrite');
          const criadoEm = new Date().toISOString();
          if (it.arquivo) {
            tx.objectStore('arquivos').put({ id: it.arquivo.id, nome: it.arquivo.nome, tipo: it.arquivo.tipo, tamanho: it.arquivo.bytes, conteudo: bytes(it.arquivo.base64), criadoEm });
          }
          tx.objectStore('outbox').add({
            id: crypto.randomUUID(),
            usuarioId,
            tipo: it.tipo,
            dados: it.dados,
            arquivos: it.arquivo ? [it.arquivo.id] : [],
            // As enfileirar writes it (the engine sizes its requests by it; older clients ignore it).
            bytesArquivos: it.arquivo ? it.arquivo.bytes : 0,
            chaves: it.chaves,
            descricao: it.descricao,
            estado: 'pendente',
            tentativas: 0,
            proximaTentativaEm: null,
            erro: null,
            conflito: null,
            criadoEm,
          });
          tx.oncomplete = () => ok();
          tx.onerror = () => erro(tx.error);
        });
      }
      const total = await new Promise<number>((ok) => {
        const r = banco.transaction('outbox').objectStore('outbox').count();
        r.onsuccess = () => ok(r.result);
      });
      banco.close();
      return total;
    },
    { usuarioId, itens },
  );
}

/** The outbox as the page has it: count and the first item's retry state. */
async function filaNoAparelho(pagina: Page): Promise<{ total: number; tentativas: number | null; proxima: number | null }> {
  return pagina.evaluate(async () => {
    const banco = await new Promise<IDBDatabase>((ok, erro) => {
      const r = indexedDB.open('sistema-de-gestao');
      r.onsuccess = () => ok(r.result);
      r.onerror = () => erro(r.error);
    });
    const itens = await new Promise<{ tentativas?: number; proximaTentativaEm?: number | null }[]>((ok) => {
      const r = banco.transaction('outbox').objectStore('outbox').getAll();
      r.onsuccess = () => ok(r.result as { tentativas?: number; proximaTentativaEm?: number | null }[]);
    });
    banco.close();
    const primeiro = itens[0];
    return { total: itens.length, tentativas: primeiro?.tentativas ?? null, proxima: primeiro?.proximaTentativaEm ?? null };
  });
}

/** In every page of the context: the header's sync indicator, each change with its time; optionally, no `online` event reaches the app. */
function observarIndicador({ semOnline }: { semOnline: boolean }) {
  const w = window as unknown as { __campo: { textos: { t: number; texto: string }[] } };
  w.__campo = { textos: [] };
  if (semOnline) window.addEventListener('online', (e) => e.stopImmediatePropagation(), true);
  const ler = () => {
    const texto = document.querySelector('.indicador-sync span')?.textContent ?? null;
    const ultimo = w.__campo.textos[w.__campo.textos.length - 1];
    if (texto !== null && ultimo?.texto !== texto) w.__campo.textos.push({ t: Date.now(), texto });
  };
  new MutationObserver(ler).observe(document, { subtree: true, childList: true, characterData: true });
}

const textosDoIndicador = (pagina: Page) => pagina.evaluate(() => (window as unknown as { __campo: { textos: { t: number; texto: string }[] } }).__campo.textos);

/** The helper esbuild's keepNames calls in code sent to the page. */
const SEM_NOMES = 'globalThis.__name = (f) => f;';

interface Aparelho {
  pagina: Page;
  cdp: CDPSession;
  fechar(): Promise<void>;
}

/** A phone that signed in with signal (service worker in control), then lost it and recorded the day. */
async function aparelhoComODia(navegador: Browser, servidor: ServidorDeTeste, dia: DiaPreparado, semOnline: boolean): Promise<Aparelho> {
  const contexto = await navegador.newContext({ viewport: CELULAR, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
  try {
    // tsx (esbuild, keepNames) wraps the named inner functions of page callbacks in `__name(...)`.
    await contexto.addInitScript({ content: SEM_NOMES });
    await contexto.addInitScript(observarIndicador, { semOnline });
    const pagina = await contexto.newPage();
    pagina.setDefaultTimeout(60_000);
    await entrarComSinal(pagina, servidor.url, dia.funcionario.email, dia.funcionario.senha);
    await pagina.getByText('Rota Ativa').first().waitFor();
    const usuarioId = await pagina.evaluate(() => (JSON.parse(localStorage.getItem('user') ?? 'null') as { id: number } | null)?.id ?? 0);
    const cdp = await contexto.newCDPSession(pagina);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const total = await gravarNoAparelho(pagina, usuarioId, dia.itens);
    if (total !== dia.itens.length) throw new Error(`a fila tem ${total} itens, esperados ${dia.itens.length}`);
    // The app opened again with no signal (served by its service worker), its queue full.
    await pagina.goto(`${servidor.url}/dashboard`);
    await pagina.getByText(`Offline · ${dia.itens.length} aguardando`).first().waitFor();
    return { pagina, cdp, fechar: () => contexto.close() };
  } catch (erro) {
    await contexto.close();
    throw erro;
  }
}

function contarNoServidor(servidor: ServidorDeTeste, dia: DiaPreparado) {
  const sqlite = servidor.db.$client;
  const marcas = (n: number) => Array.from({ length: n }, () => '?').join(',');
  const vendas = (sqlite.prepare(`select count(*) as n from vendas where id in (${marcas(dia.vendas.length)})`).get(...dia.vendas) as { n: number }).n;
  const visitas = (
    sqlite
      .prepare(`select count(*) as n from visitas where rota_id = ? and data = ? and cidade_id in (${marcas(dia.cidadesVisita.length)})`)
      .get(dia.rotaId, dia.data, ...dia.cidadesVisita) as { n: number }
  ).n;
  const ids = [...dia.despesas.keys()];
  const linhas = sqlite.prepare(`select id, cupom_tamanho as tamanho from despesas where id in (${marcas(ids.length)})`).all(...ids) as { id: string; tamanho: number | null }[];
  const despesas = linhas.filter((l) => l.tamanho === dia.despesas.get(l.id)).length;
  return { vendas, visitas, despesas };
}

// ---------------------------------------------------------------------------------------------

/** The signal back on the emulated link (Chromium fires `online` unless the page hides it). */
function ligarSinal(cdp: CDPSession, link: Link): Promise<unknown> {
  return cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: link.latenciaMs,
    downloadThroughput: bytesPorSegundo(link.descidaKbps),
    uploadThroughput: bytesPorSegundo(link.subidaKbps),
  });
}

async function executarCenario(
  navegador: Browser,
  servidor: ServidorDeTeste,
  registros: Registro[],
  c: Cenario,
  arquivos: { nome: string; tipo: string; conteudo: Buffer }[],
): Promise<ExecucaoCampo> {
  const carga = os.loadavg()[0]!;
  const link = LINKS[c.link];
  const dia = await prepararDia(servidor, arquivos);
  const limitePrevistoMs = (dia.payloadBytes / bytesPorSegundo(link.subidaKbps)) * 1000 + link.latenciaMs;
  const tetoMs = Number(process.env.BENCH_CAMPO_TETO_S ?? 0) * 1000 || Math.min(15 * 60_000, Math.max(120_000, 2 * limitePrevistoMs + 60_000));
  const aparelho = await aparelhoComODia(navegador, servidor, dia, false);
  const { pagina, cdp } = aparelho;
  try {
    const gets: { t: number; caminho: string }[] = [];
    pagina.on('request', (r) => {
      if (r.method() === 'GET') gets.push({ t: Date.now(), caminho: new URL(r.url()).pathname });
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: c.cpu });
    registros.length = 0;
    const t0 = Date.now();
    await ligarSinal(cdp, link);
    const esperados = { vendas: dia.vendas.length, visitas: dia.cidadesVisita.length, despesas: dia.despesas.size };
    let chegaram = { vendas: 0, visitas: 0, despesas: 0 };
    let primeiraPequena: number | null = null;
    let pequenas: number | null = null;
    let completo: number | null = null;
    let filaVazia: number | null = null;
    let ultimaLeituraPagina = 0;
    while (Date.now() - t0 < tetoMs) {
      chegaram = contarNoServidor(servidor, dia);
      const agora = Date.now();
      if (primeiraPequena === null && chegaram.vendas + chegaram.visitas > 0) primeiraPequena = agora;
      if (pequenas === null && chegaram.vendas === esperados.vendas && chegaram.visitas === esperados.visitas) pequenas = agora;
      if (completo === null && pequenas !== null && chegaram.despesas === esperados.despesas) completo = agora;
      if (agora - ultimaLeituraPagina > 500) {
        ultimaLeituraPagina = agora;
        const textos = await textosDoIndicador(pagina);
        filaVazia = textos.find((x) => x.t >= t0 && x.texto === 'Sincronizado')?.t ?? null;
        const atencao = textos.find((x) => x.t >= t0 && /precisa|precisam|Atualize/.test(x.texto));
        if (atencao) throw new Error(`o aparelho recusou itens: "${atencao.texto}"`);
      }
      if (completo !== null && filaVazia !== null) break;
      await esperar(100);
    }
    // GETs: until 3 s pass with no new one (at most 20 s after the sync).
    const fimSync = Date.now();
    while (Date.now() - fimSync < 20_000) {
      const ultimo = Math.max(fimSync, gets[gets.length - 1]?.t ?? 0);
      if (Date.now() - ultimo > 3_000) break;
      await esperar(250);
    }
    const terminou = completo !== null && filaVazia !== null;
    const feitas = registros.filter((r) => ehEscrita(r) && r.status !== null && r.status < 300);
    const perdidas = registros.filter((r) => ehEscrita(r) && (r.cortada || (r.status !== null && r.status >= 300)));
    const bytes = feitas.reduce((s, r) => s + r.bytes, 0);
    let ociosoMs: number | null = null;
    if (completo !== null) {
      // The union of the open intervals of every write request, up to the server having everything.
      const intervalos = registros
        .filter(ehEscrita)
        .map((r) => [Math.max(t0, r.inicio), Math.min(completo!, r.fim ?? completo!)] as const)
        .filter(([a, b]) => b > a)
        .sort((a, b) => a[0] - b[0]);
      let ocupado = 0;
      let ate = t0;
      for (const [a, b] of intervalos) {
        if (b <= ate) continue;
        ocupado += b - Math.max(a, ate);
        ate = b;
      }
      ociosoMs = completo - t0 - ocupado;
    }
    const limiteMs = terminou ? (bytes / bytesPorSegundo(link.subidaKbps)) * 1000 + feitas.length * link.latenciaMs : limitePrevistoMs;
    const depoisDe = (t: number | null) => (t === null ? null : t - t0);
    const caminhosGet: Record<string, number> = {};
    for (const g of gets) caminhosGet[g.caminho] = (caminhosGet[g.caminho] ?? 0) + 1;
    const apiGets = gets.filter((g) => g.caminho.startsWith('/api/'));
    return {
      carga,
      perturbada: carga > CARGA_PERTURBADA,
      terminou,
      servidorCompletoMs: depoisDe(completo),
      filaVaziaMs: depoisDe(filaVazia),
      pequenasMs: depoisDe(pequenas),
      primeiraPequenaMs: depoisDe(primeiraPequena),
      chegaram,
      esperados,
      gets: apiGets.length,
      getsDepois: completo === null ? 0 : apiGets.filter((g) => g.t >= completo!).length,
      caminhosGet,
      requisicoes: feitas.length,
      bytes,
      tentativasPerdidas: perdidas.length,
      limiteMs,
      limitePrevistoMs,
      razao: terminou ? (filaVazia! - t0) / limiteMs : null,
      razaoServidor: completo !== null ? (completo - t0) / limiteMs : null,
      tetoMs,
      ociosoMs,
      envios: registros
        .filter(ehEscrita)
        .map((r) => ({ inicioMs: r.inicio - t0, fimMs: r.fim === null ? null : r.fim - t0, metodo: r.metodo, caminho: r.caminho.replace(/[0-9a-f-]{36}/g, ':id'), bytes: r.bytes, status: r.status, cortada: r.cortada })),
    };
  } finally {
    await aparelho.fechar();
  }
}

async function executarSemEvento(navegador: Browser, servidor: ServidorDeTeste, registros: Registro[], offlineS: number, arquivos: { nome: string; tipo: string; conteudo: Buffer }[]): Promise<ExecucaoSemEvento> {
  const carga = os.loadavg()[0]!;
  const link = LINKS['3g'];
  const dia = await prepararDia(servidor, arquivos);
  const inicioOffline = Date.now();
  const aparelho = await aparelhoComODia(navegador, servidor, dia, true);
  const { pagina, cdp } = aparelho;
  const tetoMs = 6 * 60_000;
  try {
    // The offline period, the engine trying and failing meanwhile.
    await esperar(Math.max(0, inicioOffline + offlineS * 1000 - Date.now()));
    const fila = await filaNoAparelho(pagina);
    registros.length = 0;
    const t0 = Date.now();
    await ligarSinal(cdp, link);
    let primeiraRequisicao: number | null = null;
    let primeiroEnvio: number | null = null;
    while (Date.now() - t0 < tetoMs && primeiroEnvio === null) {
      primeiraRequisicao ??= registros.find((r) => r.caminho.startsWith('/api/'))?.inicio ?? null;
      primeiroEnvio = registros.find((r) => ehEscrita(r) && r.status !== null && r.status < 300)?.inicio ?? null;
      await esperar(100);
    }
    return {
      carga,
      perturbada: carga > CARGA_PERTURBADA,
      offlineS,
      tentativasAntes: fila.tentativas,
      proximaTentativaS: fila.proxima === null ? null : Math.round((fila.proxima - t0) / 100) / 10,
      primeiraRequisicaoMs: primeiraRequisicao === null ? null : primeiraRequisicao - t0,
      primeiroEnvioMs: primeiroEnvio === null ? null : primeiroEnvio - t0,
      tetoMs,
    };
  } finally {
    await aparelho.fechar();
  }
}

function commitDoCliente(pasta: string): string {
  const marca = path.join(pasta, '.commit');
  if (fs.existsSync(marca)) return fs.readFileSync(marca, 'utf8').trim();
  try {
    return `${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()} (HEAD; a pasta do cliente não diz de que commit foi compilada)`;
  } catch {
    return '?';
  }
}

const fmtS = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`);

/**
 * BENCH_CAMPO_CENARIOS=3g-1x,pdfs-1x,sem-evento limits the scenarios; `repeticoes` runs each short
 * one (the big-PDF days run once: minutes each).
 */
export async function medirCampo({
  rapido = false,
  repeticoes = 3,
  pastaCliente = PASTA_CLIENTE,
}: { rapido?: boolean; repeticoes?: number; pastaCliente?: string } = {}): Promise<ResultadoCampo> {
  if (!temChromium) throw new Error('Chromium não encontrado em /usr/bin/chromium: instale com `apt-get install -y chromium`.');
  if (!fs.existsSync(path.join(pastaCliente, 'index.html'))) throw new Error('Cliente não compilado: rode `npm run build:client` (ou aponte E2E_PASTA_CLIENTE).');
  const escolhidos = new Set((process.env.BENCH_CAMPO_CENARIOS ?? (rapido ? '3g-1x' : [...CENARIOS.map((c) => c.nome), 'sem-evento'].join(','))).split(',').map((s) => s.trim()));
  const commit = commitDoCliente(pastaCliente);
  const servidor = await iniciarServidor({}, pastaCliente);
  const registros = registrarRequisicoes(servidor);
  let navegador: Browser | null = null;
  try {
    navegador = await abrirNavegador();
    // The receipts, drawn once by this browser (same bytes every run).
    // Kept in bench/.results/campo (generating them takes a minute on a busy machine).
    const fabrica = await navegador.newPage();
    await fabrica.evaluate(SEM_NOMES);
    fs.mkdirSync(PASTA_ARQUIVOS, { recursive: true });
    const arquivo = async (nome: string, tipo: string, gerar: () => Promise<Buffer>) => {
      const caminho = path.join(PASTA_ARQUIVOS, nome);
      if (!fs.existsSync(caminho)) fs.writeFileSync(caminho, await gerar());
      return { nome, tipo, conteudo: fs.readFileSync(caminho) };
    };
    const fotos = [150, 180, 210, 240, 270, 300].map((kb) => kb * 1024);
    const campo: { nome: string; tipo: string; conteudo: Buffer }[] = [];
    for (const [i, alvo] of fotos.entries()) campo.push(await arquivo(`cupom-${i + 1}.jpg`, 'image/jpeg', () => jpegDeTamanho(fabrica, alvo, 1000 + i, 600, 800, QUALIDADE_FOTO)));
    campo.push(await arquivo('nota-hotel.pdf', 'application/pdf', async () => pdfComImagem(await jpegDeTamanho(fabrica, 200 * 1024, 2000, 700, 990, 0.8))));
    const pdfs: { nome: string; tipo: string; conteudo: Buffer }[] = [];
    for (let i = 0; i < 5; i++) {
      pdfs.push(await arquivo(`digitalizado-${i + 1}.pdf`, 'application/pdf', async () => pdfComImagem(await jpegDeTamanho(fabrica, 1024 * 1024 - 4096, 3000 + i, 1240, 1754, 0.85))));
    }
    await fabrica.close();
    const descrever = (a: { nome: string; tipo: string; conteudo: Buffer }) => ({ nome: a.nome, tipo: a.tipo, bytes: a.conteudo.length });
    console.log(`  Comprovantes: ${campo.map((a) => `${a.nome} ${(a.conteudo.length / 1024).toFixed(0)} KB`).join(', ')}; PDFs digitalizados: ${pdfs.map((a) => `${(a.conteudo.length / 1024).toFixed(0)} KB`).join(', ')}`);

    const cenarios: ResultadoCenario[] = [];
    for (const c of CENARIOS.filter((x) => escolhidos.has(x.nome))) {
      const vezes = rapido ? 1 : c.dia === 'pdfs' ? 1 : repeticoes;
      const execucoes: ExecucaoCampo[] = [];
      for (let i = 0; i < vezes; i++) {
        const e = await executarCenario(navegador, servidor, registros, c, c.dia === 'pdfs' ? pdfs : campo);
        execucoes.push(e);
        console.log(
          `  ${c.rotulo} #${i + 1} (carga ${e.carga.toFixed(1)}${e.perturbada ? ', perturbada' : ''}): ` +
            (e.terminou
              ? `fila vazia em ${fmtS(e.filaVaziaMs)}, servidor completo em ${fmtS(e.servidorCompletoMs)}, limite ${fmtS(e.limiteMs)} → ${e.razao!.toFixed(2)}x (servidor ${e.razaoServidor!.toFixed(2)}x)`
              : `NÃO TERMINOU em ${fmtS(e.tetoMs)} (limite previsto ${fmtS(e.limitePrevistoMs)}); chegaram ${e.chegaram.vendas}/${e.esperados.vendas} vendas, ${e.chegaram.visitas}/${e.esperados.visitas} visitas, ${e.chegaram.despesas}/${e.esperados.despesas} comprovantes`) +
            `; pequenas em ${fmtS(e.pequenasMs)}; link ocioso ${fmtS(e.ociosoMs ?? null)}; ${e.requisicoes} envios (${(e.bytes / 1024).toFixed(0)} KB), ${e.tentativasPerdidas} perdidos; ${e.gets} GETs (${e.getsDepois} depois do servidor completo)`,
        );
      }
      const razoes = execucoes.filter((e) => e.razao !== null).map((e) => e.razao!);
      cenarios.push({
        nome: c.nome,
        commit,
        rotulo: c.rotulo,
        link: LINKS[c.link],
        cpu: c.cpu,
        meta: c.meta,
        execucoes,
        razaoMediana: razoes.length ? mediana(razoes) : null,
        razaoMin: razoes.length ? Math.min(...razoes) : null,
        razaoMax: razoes.length ? Math.max(...razoes) : null,
        terminaram: razoes.length,
      });
    }

    let semEvento: ResultadoCampo['semEvento'] = null;
    if (escolhidos.has('sem-evento')) {
      const periodos = rapido ? [30] : [30, 60, 90].slice(0, Math.max(3, repeticoes));
      const execucoes: ExecucaoSemEvento[] = [];
      for (const s of periodos) {
        const e = await executarSemEvento(navegador, servidor, registros, s, campo);
        execucoes.push(e);
        console.log(
          `  Sinal de volta sem evento \`online\`, depois de ${s} s offline (carga ${e.carga.toFixed(1)}${e.perturbada ? ', perturbada' : ''}): ` +
            `primeiro envio aceito em ${fmtS(e.primeiroEnvioMs)} (primeira requisição ${fmtS(e.primeiraRequisicaoMs)}); o 1º item tinha ${e.tentativasAntes ?? '—'} tentativas, a próxima em ${e.proximaTentativaS ?? '—'} s`,
        );
      }
      const tempos = execucoes.map((e) => e.primeiroEnvioMs ?? e.tetoMs);
      semEvento = { link: LINKS['3g'], execucoes, medianaMs: mediana(tempos), meta: META_SEM_EVENTO_MS, commit };
    }
    return {
      commit,
      gravacao: 'fila gravada direto no IndexedDB do app (formato de enfileirar), app reaberto offline pelo service worker',
      dias: { campo: campo.map(descrever), pdfs: pdfs.map(descrever) },
      cenarios,
      semEvento,
    };
  } finally {
    await navegador?.close();
    await servidor.fechar();
  }
}

// ---------------------------------------------------------------------------------------------
// docs/performance.md

const x = (r: number | null) => (r === null ? '—' : `${r.toFixed(2)}x`);
const kbps = (k: number) => (k >= 1000 ? `${(k / 1000).toLocaleString('pt-BR')} Mbit/s` : `${k} kbit/s`);

function celulaCenario(c: ResultadoCenario | undefined, commitGeral?: string): string {
  if (!c) return 'não medido';
  const n = c.execucoes.length;
  const doCommit = c.commit && commitGeral && c.commit !== commitGeral ? ` [cliente ${c.commit}]` : '';
  if (c.terminaram === 0) {
    const e = c.execucoes[0]!;
    return `${doCommit ? `${doCommit.trim()} ` : ''}**não terminou** em ${fmtS(e.tetoMs)} (${(e.tetoMs / e.limitePrevistoMs).toFixed(1)}x o limite previsto de ${fmtS(e.limitePrevistoMs)}); chegaram ${e.chegaram.vendas + e.chegaram.visitas} de ${e.esperados.vendas + e.esperados.visitas} escritas pequenas, ${e.chegaram.despesas} de ${e.esperados.despesas} comprovantes`;
  }
  const gets = mediana(c.execucoes.map((e) => e.gets));
  const servidor = c.execucoes.filter((e) => e.razaoServidor !== null).map((e) => e.razaoServidor!);
  const pequenas = c.execucoes.filter((e) => e.pequenasMs !== null).map((e) => e.pequenasMs!);
  const atraso = c.execucoes.filter((e) => e.filaVaziaMs !== null && e.servidorCompletoMs !== null).map((e) => e.filaVaziaMs! - e.servidorCompletoMs!);
  return (
    `${doCommit ? `${doCommit.trim()} ` : ''}${x(c.razaoMediana)}${n > 1 ? ` (${x(c.razaoMin)}–${x(c.razaoMax)}, ${n} execuções${c.terminaram < n ? `, ${n - c.terminaram} não terminaram` : ''})` : ' (1 execução)'}; ` +
    `servidor completo a ${servidor.length ? x(mediana(servidor)) : '—'}; fila vazia ${atraso.length ? fmtS(mediana(atraso)) : '—'} depois do servidor; escritas pequenas em ${pequenas.length ? fmtS(mediana(pequenas)) : '—'}; ${gets} GETs`
  );
}

function celulaSemEvento(s: ResultadoCampo['semEvento'] | undefined, commitGeral?: string): string {
  if (!s) return 'não medido';
  const doCommit = s.commit && commitGeral && s.commit !== commitGeral ? `[cliente ${s.commit}] ` : '';
  const tempos = s.execucoes.map((e) => (e.primeiroEnvioMs === null ? `>${fmtS(e.tetoMs)}` : fmtS(e.primeiroEnvioMs)));
  return `${doCommit}${s.medianaMs === null ? '—' : fmtS(s.medianaMs)} (mediana; ${tempos.join(', ')} depois de ${s.execucoes.map((e) => `${e.offlineS} s`).join(', ')} offline)`;
}

/** '/api/despesas 3x, ...': the API reads of a run, ids of routes kept as ':id'. */
function caminhosApi(e: ExecucaoCampo): string {
  const contagem = new Map<string, number>();
  for (const [caminho, n] of Object.entries(e.caminhosGet)) {
    if (!caminho.startsWith('/api/')) continue;
    const chave = `\`${caminho.replace(/\/\d+(?=\/|$)/g, '/:id')}\``;
    contagem.set(chave, (contagem.get(chave) ?? 0) + n);
  }
  return [...contagem].map(([c, n]) => `${c} ${n}x`).join(', ') || 'nenhum';
}

function linhasExecucoes(r: ResultadoCampo): string {
  const linhas: string[] = [];
  for (const c of r.cenarios) {
    c.execucoes.forEach((e, i) => {
      linhas.push(
        `| ${c.rotulo} | ${i + 1} | ${e.carga.toFixed(1)}${e.perturbada ? ' (perturbada)' : ''} | ${e.terminou ? fmtS(e.filaVaziaMs) : `não terminou (${fmtS(e.tetoMs)})`} | ${fmtS(e.servidorCompletoMs)} | ${fmtS(e.primeiraPequenaMs)} / ${fmtS(e.pequenasMs)} | ${e.requisicoes} · ${(e.bytes / 1024).toFixed(0)} KB | ${e.tentativasPerdidas} | ${e.ociosoMs === undefined ? 'não medido' : fmtS(e.ociosoMs)} | ${fmtS(e.limiteMs)}${e.terminou ? '' : ' (previsto)'} | ${x(e.razao)} | ${x(e.razaoServidor)} | ${e.gets} (${e.getsDepois}) |`,
      );
    });
  }
  return linhas.join('\n');
}

/** The section of docs/performance.md: the summary table (Medida | Hoje | Limite/meta) and every run. */
function secaoPar(par: ParCampo): string {
  const linhas: string[] = [];
  for (const nome of ['3g-1x', '3g-4x'] as const) {
    for (const cliente of ['antes', 'depois'] as const) {
      const execucoes = par.rodadas.filter((r) => r.cliente === cliente).flatMap((r) => r.cenarios.filter((c) => c.nome === nome).flatMap((c) => c.execucoes));
      if (execucoes.length === 0) continue;
      const m = (f: (e: ExecucaoCampo) => number | null | undefined) => {
        const v = execucoes.map(f).filter((n): n is number => typeof n === 'number');
        return v.length ? mediana(v) : null;
      };
      const commit = par.rodadas.find((r) => r.cliente === cliente)!.commit;
      linhas.push(
        `| ${CENARIOS.find((c) => c.nome === nome)!.rotulo} | ${cliente === 'antes' ? 'Hoje' : 'Agora'} (${commit}) | ${execucoes.length} | ${execucoes.map((e) => e.carga.toFixed(1)).join(', ')} | ${fmtS(m((e) => e.filaVaziaMs))} | ${fmtS(m((e) => e.servidorCompletoMs))} | ${fmtS(m((e) => e.pequenasMs))} | ${m((e) => e.requisicoes) ?? '—'} | ${fmtS(m((e) => e.ociosoMs))} | ${fmtS(m((e) => e.limiteMs))} | ${x(m((e) => e.razao))} | ${x(m((e) => e.razaoServidor))} | ${x(m((e) => (e.servidorCompletoMs === null ? null : e.servidorCompletoMs / e.limitePrevistoMs)))} |`,
      );
    }
  }
  return `Os dois clientes **alternados na mesma janela** (${par.medidoEm.slice(0, 16).replace('T', ' ')} UTC; ordem Hoje, Agora, Agora, Hoje...), para a carga da
máquina pesar igual nos dois (medianas; "link ocioso" como na tabela de execuções). A última coluna compara o servidor completo com o
limite de **um envio só** (payload / subida + uma latência): o limite de cada execução já inclui a latência de cada envio que o motor fez,
então um motor que divide o dia em mais envios tem um limite maior.

| Cenário | Cliente | Execuções | Carga | Fila vazia | Servidor completo | Pequenas | Envios | Link ocioso | Limite | Razão | Razão servidor | Servidor / limite de um envio |
|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${linhas.join('\n')}
`;
}

export function secaoCampo(r: ResultadoCampo & { medidoEm: string; antes?: ResumoCampo; par?: ParCampo }): string {
  const antes = r.antes;
  const de = (lista: ResultadoCenario[] | undefined, nome: NomeCenario) => lista?.find((c) => c.nome === nome);
  const atingida = (c: ResultadoCenario | undefined) => (c && c.terminaram > 0 && c.razaoMediana !== null ? (c.razaoMediana <= c.meta ? 'sim' : '**não**') : c ? '**não**' : '—');
  const linhasTabela = CENARIOS.map(
    (c) =>
      `| ${c.rotulo} (${LINKS[c.link].latenciaMs} ms, ${kbps(LINKS[c.link].subidaKbps)} de subida) | ${antes ? celulaCenario(de(antes.cenarios, c.nome)) : '—'} | ${celulaCenario(de(r.cenarios, c.nome), r.commit)} | ≤ ${c.meta.toFixed(2)}x o limite${c.cpu > 1 ? ', um refresh por passada' : ''}${c.nome.startsWith('pdfs') ? '; as escritas pequenas chegam nos primeiros segundos' : ''} | ${atingida(de(r.cenarios, c.nome))} |`,
  );
  const semEvento = `| Sinal de volta sem evento \`online\` (3G) | ${antes ? celulaSemEvento(antes.semEvento) : '—'} | ${celulaSemEvento(r.semEvento, r.commit)} | ≤ 15 s | ${r.semEvento?.medianaMs != null ? (r.semEvento.execucoes.every((e) => e.primeiroEnvioMs !== null && e.primeiroEnvioMs <= META_SEM_EVENTO_MS) ? 'sim' : '**não**') : '—'} |`;
  const dias = r.dias;
  const todas = [...r.cenarios.flatMap((c) => c.execucoes.map((e, i) => ({ rotulo: `${c.rotulo} #${i + 1}`, e }))), ...(r.semEvento?.execucoes ?? []).map((e) => ({ rotulo: `sem evento, ${e.offlineS} s`, e }))];
  const perturbadas = todas.filter(({ e }) => e.perturbada);
  const cargas = todas.map(({ e }) => e.carga);
  const textoPerturbadas =
    perturbadas.length === 0
      ? `Nenhuma execução começou com a carga acima de ${CARGA_PERTURBADA}.`
      : perturbadas.length === todas.length
        ? `**Todas as ${todas.length} execuções foram perturbadas**: a carga de 1 min estava entre ${Math.min(...cargas).toFixed(1)} e ${Math.max(...cargas).toFixed(1)} no início de cada uma (2 núcleos; outras sessões compilando e testando ao mesmo tempo). O link emulado domina os tempos de 1x; os de CPU 4x pesam mais com a máquina ocupada.`
        : `Execuções perturbadas (carga acima de ${CARGA_PERTURBADA}): ${perturbadas.map(({ rotulo, e }) => `${rotulo} (${e.carga.toFixed(1)})`).join('; ')}.`;
  return `## Dia de campo na rede do celular

Um dia registrado sem sinal no celular do funcionário, depois o sinal volta num link emulado, e o cliente
**compilado de verdade** (service worker, fila no IndexedDB, motor de sincronização) envia tudo ao servidor de verdade
(banco temporário). Chromium do Debian (playwright-core, headless), tela de celular; o link é a emulação do próprio
Chromium (\`Network.emulateNetworkConditions\`: latência por requisição, taxas de subida e descida) e o celular lento
é \`Emulation.setCPUThrottlingRate\`. Links: **3G** ${LINKS['3g'].latenciaMs} ms, ${kbps(LINKS['3g'].subidaKbps)} de subida e
${kbps(LINKS['3g'].descidaKbps)} de descida; **ruim** ${LINKS.ruim.latenciaMs} ms, ${kbps(LINKS.ruim.subidaKbps)} de subida e ${kbps(LINKS.ruim.descidaKbps)} de descida.

- **O dia de campo**: 12 fechamentos (um por cidade), 2 visitas sem venda, 6 fotos de comprovante
  (${dias.campo.filter((a) => a.tipo === 'image/jpeg').map((a) => `${(a.bytes / 1024).toFixed(0)}`).join(', ')} KB: JPEG de 600×800 em qualidade 0,85; o app envia como está uma foto abaixo de 1 MB e reduz uma maior a 800 px em qualidade 0,7)
  e 1 PDF de ${(dias.campo.find((a) => a.tipo === 'application/pdf')?.bytes ?? 0) / 1024 > 0 ? ((dias.campo.find((a) => a.tipo === 'application/pdf')!.bytes) / 1024).toFixed(0) : '—'} KB, um comprovante depois de cada duas cidades.
  **O dia dos PDFs**: as mesmas 14 escritas pequenas e 5 PDFs digitalizados de ${dias.pdfs.map((a) => (a.bytes / 1024).toFixed(0)).join(', ')} KB.
  Os arquivos são gerados na hora (imagem desenhada pelo próprio Chromium com ruído de semente fixa; PDF do pdfkit): os mesmos bytes a cada execução.
- **Como o dia entra no celular**: ${r.gravacao}. Cada item é gravado como \`enfileirar\` grava (os dados que as telas
  enfileiram); digitar 21 formulários a cada execução deixaria cada uma minutos mais longa. O servidor aceitar todos os itens
  (conferido no banco) é o que mostra que são os itens das telas.
- **Medidas**, todas a partir do instante em que o sinal volta: o servidor com tudo (o banco consultado a cada 100 ms pelo
  processo do benchmark, nunca pela página emulada; comprovantes com o tamanho certo), a fila do celular vazia (o indicador do
  cabeçalho dizendo "Sincronizado", com a hora de cada mudança gravada na página), as escritas pequenas (12 fechamentos e 2 visitas) no servidor, e os GETs
  que a página faz até 3 s de silêncio depois da sincronização.
- **Limite** de cada execução = bytes dos envios do motor (\`/api/sync/\`: lotes e partes de comprovante; o relato da fila do
  celular, \`POST /api/dispositivos/relato\` sem corpo, não é carga do dia e não entra) que o servidor aceitou (corpos, contados pelo servidor pelo Content-Length:
  é o que a emulação do Chromium mede na subida) / taxa de subida + número desses envios × latência. Tentativas cortadas ou
  recusadas não entram (são desperdício do motor). A razão é o tempo até a **fila do celular** ficar vazia / limite (entre
  parênteses nas execuções, a do servidor completo). Uma execução que não termina é cortada no teto (2x o limite previsto + 60 s,
  no máximo 15 min) e comparada ao limite previsto: arquivos + JSON num envio só.
- **Sinal de volta sem evento \`online\`**: o celular fica offline ${r.semEvento ? r.semEvento.execucoes.map((e) => `${e.offlineS}`).join(', ') : '30, 60, 90'} s (o motor tentando e falhando), e o sinal volta sem
  o evento \`online\` chegar ao app (a página o descarta, como num celular que não avisa); mede-se até o primeiro envio aceito pelo servidor.
- Carga da máquina (média de 1 min) anotada no início de cada execução; acima de ${CARGA_PERTURBADA} (2 núcleos, máquina compartilhada) a execução é marcada como perturbada.

Medido em ${r.medidoEm.slice(0, 16).replace('T', ' ')} UTC, cliente do commit ${r.commit}${[...r.cenarios.map((c) => c.commit), r.semEvento?.commit].some((c) => c && c !== r.commit) ? ' (as células marcadas [cliente X] na coluna Agora são de uma execução anterior da mesma noite, no cliente X; esta execução mediu só as outras)' : ''}.${antes ? ` A coluna **Hoje** é a medida de ${antes.medidoEm.slice(0, 16).replace('T', ' ')} UTC, no cliente do commit ${antes.commit} (antes do motor que manda texto antes dos comprovantes).` : ''}

| Medida | Hoje | Agora | Limite / meta | Atingida |
|---|---|---|---|:-:|
${linhasTabela.join('\n')}
${semEvento}

Cada execução (fila vazia e servidor completo contados do sinal de volta; "pequenas": a primeira e a última das 14 escritas pequenas no servidor;
"link ocioso": até o servidor ter tudo, o tempo sem nenhum envio aberto no servidor, ou seja, o trabalho do celular entre um envio e o
próximo mais a latência emulada de cada um; GETs: entre parênteses os feitos depois de o servidor ter tudo):

| Cenário | # | Carga | Fila vazia | Servidor completo | Pequenas (1ª / todas) | Envios aceitos | Perdidos | Link ocioso | Limite | Razão | Razão servidor | GETs |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${linhasExecucoes(r)}
${r.semEvento ? `\n${r.semEvento.execucoes.map((e) => `- Sem evento \`online\`, ${e.offlineS} s offline (carga ${e.carga.toFixed(1)}${e.perturbada ? ', perturbada' : ''}): primeiro envio aceito em ${e.primeiroEnvioMs === null ? `mais de ${fmtS(e.tetoMs)}` : fmtS(e.primeiroEnvioMs)}, primeira requisição ao servidor em ${fmtS(e.primeiraRequisicaoMs)}; o primeiro item da fila tinha ${e.tentativasAntes ?? '—'} tentativas falhas e a próxima marcada para ${e.proximaTentativaS ?? '—'} s depois da volta do sinal.`).join('\n')}\n` : ''}
${[antes ? ['Hoje', antes.cenarios] as const : null, ['Agora', r.cenarios] as const]
  .filter((v) => v !== null)
  .map(([nome, lista]) => {
    const e = lista.find((c) => c.nome === '3g-1x')?.execucoes[0];
    return e ? `GETs à API da 1ª execução do 3G (${nome}), do sinal de volta até 3 s de silêncio: ${caminhosApi(e)}.` : '';
  })
  .filter(Boolean)
  .join('\n')}

${r.par ? secaoPar(r.par) : ''}
${textoPerturbadas}
`;
}

if (process.argv[1]?.endsWith('/campo.ts')) {
  const r = await medirCampo({ rapido: process.argv.includes('--rapido') });
  console.log(JSON.stringify(r.cenarios.map((c) => ({ nome: c.nome, razao: c.razaoMediana }))));
}
