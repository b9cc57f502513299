/**
 * The admin's reads at 1x and 5x a year of data: p50/p99 at 10 connections
 * (autocannon, loopback, accepting brotli/gzip as a browser) of the admin screens' default requests,
 * each against a baseline measured in the same round on the same process and SQLite file (a bare
 * Fastify route answering a precomputed small JSON) and against the target (p99 < 50 ms at 1x,
 * < 100 ms at 5x). Also the cost of the same reads right after a write (the cache invalidated, as after
 * a phone's sync: one write, then one read, one at a time), and the event loop during an export of
 * every route (monitorEventLoopDelay's max in the server process) against 50 ms.
 *
 * Two servers per size: 'antes', the code before the compressed read cache and the export worker
 * (commit ANTES, extracted with git archive, the same server script copied in), and this code. RODADAS rounds each: median and spread.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { iniciarFilho } from './processo';

/** The code before the compressed read cache and the export worker (paging already in). */
export const ANTES = 'a094dd8';
const CONEXOES = 10;
const META_P99 = { 1: 50, 5: 100 } as Record<number, number>;
const META_ATRASO_MS = 50;

interface InfoServidor {
  porta: number;
  portaSonda: number;
  tokenAdmin: string;
  vendas: number;
  despesas: number;
  escala: number;
}

export const LEITURAS = [
  { chave: 'vendasTela', nome: 'Vendas: a tela do admin (status ativa, página de 10)', caminho: '/api/vendas/fechamento-diario?status_rota=ativa&page=1&limit=10' },
  { chave: 'vendasPadrao', nome: 'Vendas: fechamento-diario?status_rota=ativa (página padrão)', caminho: '/api/vendas/fechamento-diario?status_rota=ativa' },
  { chave: 'despesasTela', nome: 'Despesas: a tela do admin (status ativa, página de 20)', caminho: '/api/despesas?page=1&limit=20&status_rota=ativa' },
  { chave: 'despesasPadrao', nome: 'Despesas: /despesas?page=1', caminho: '/api/despesas?page=1' },
] as const;

/**
 * The export measured: every active route (50 at 1x, 250 at 5x), the PDF with each route's details.
 * Every route of the year (600 at 1x) took 97 s to draw on the old code in a trial run: minutes per round.
 */
const EXPORTACAO = '/api/relatorios/rotas/exportar?status=ativa&formato=';

export interface Carga {
  /** No answer at all during the run: p50/p99 hold the run's duration, a lower bound. */
  semResposta?: boolean;
  p50: number;
  p99: number;
  rps: number;
  bytes: number;
  erros: number;
}

export interface RodadaAdmin {
  base: Carga;
  leituras: Record<string, Carga & { depoisDeEscritaMs: number }>;
  exportacao: { formato: string; ms: number; atrasoMaxMs: number; paradoMaxMs: number; bytes: number }[];
}

export interface ServidorAdmin {
  nome: string;
  escala: number;
  dados: { vendas: number; despesas: number };
  rodadas: RodadaAdmin[];
}

export interface ResultadoLeiturasAdmin {
  antes: string;
  conexoes: number;
  segundos: number;
  servidores: ServidorAdmin[];
}

async function carregar(url: string, segundos: number, token?: string, aquecimento = false): Promise<Carga> {
  const r = await autocannon({
    url,
    connections: CONEXOES,
    duration: segundos,
    pipelining: 1,
    headers: { 'accept-encoding': 'gzip, deflate, br', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  // Not one answer in the whole run (the old code's uncached list under 10 connections on a loaded machine):
  // the duration is the lower bound of every latency, flagged so the report says so.
  if (r.requests.total === 0 && !aquecimento) return { p50: segundos * 1000, p99: segundos * 1000, rps: 0, bytes: 0, erros: 0, semResposta: true };
  return {
    p50: r.latency.p50,
    p99: r.latency.p99,
    rps: r.requests.average,
    bytes: r.requests.total > 0 ? Math.round(r.throughput.total / r.requests.total) : 0,
    erros: r.non2xx + r.errors + r.timeouts,
  };
}

async function pedir(url: string, opcoes: RequestInit = {}): Promise<{ status: number; bytes: number }> {
  const r = await fetch(url, opcoes);
  const corpo = await r.arrayBuffer();
  return { status: r.status, bytes: corpo.byteLength };
}

const mediana = (v: number[]) => {
  const o = [...v].sort((a, b) => a - b);
  return o.length ? o[Math.floor((o.length - 1) / 2)]! : Number.NaN;
};

/** One read right after one write, ITENS times, one at a time: the uncached cost (ms, median). */
async function depoisDeEscrita(s: InfoServidor, caminho: string, itens: number): Promise<number> {
  const tempos: number[] = [];
  for (let i = 0; i < itens; i++) {
    await pedir(`http://127.0.0.1:${s.portaSonda}/invalidar`, { method: 'POST' });
    const inicio = performance.now();
    const r = await pedir(`http://127.0.0.1:${s.porta}${caminho}`, { headers: { authorization: `Bearer ${s.tokenAdmin}`, 'accept-encoding': 'br, gzip' } });
    tempos.push(performance.now() - inicio);
    if (r.status !== 200) throw new Error(`${caminho} respondeu ${r.status} depois da escrita`);
  }
  return mediana(tempos);
}

/** Sizes whose rounds also export (BENCH_ADMIN_EXPORTAR; default 1x only: at 5x the old code draws 250 routes for minutes a round). */
const escalasQueExportam = () => (process.env.BENCH_ADMIN_EXPORTAR ?? '1').split(',').map(Number);

async function rodada(s: InfoServidor, segundos: number): Promise<RodadaAdmin> {
  const base = await carregar(`http://127.0.0.1:${s.portaSonda}/base`, segundos);
  const leituras: RodadaAdmin['leituras'] = {};
  for (const l of LEITURAS) {
    const url = `http://127.0.0.1:${s.porta}${l.caminho}`;
    await carregar(url, 1, s.tokenAdmin, true); // warm-up (JIT, the cache's first answer)
    const carga = await carregar(url, segundos, s.tokenAdmin);
    if (carga.erros > 0) throw new Error(`${l.caminho}: ${carga.erros} erros`);
    leituras[l.chave] = { ...carga, depoisDeEscritaMs: await depoisDeEscrita(s, l.caminho, 5) };
  }
  const exportacao: RodadaAdmin['exportacao'] = [];
  for (const formato of escalasQueExportam().includes(s.escala) ? ['pdf', 'excel'] : []) {
    await pedir(`http://127.0.0.1:${s.portaSonda}/atraso`);
    const inicio = performance.now();
    const r = await pedir(`http://127.0.0.1:${s.porta}${EXPORTACAO}${formato}`, { headers: { authorization: `Bearer ${s.tokenAdmin}` } });
    const ms = performance.now() - inicio;
    if (r.status !== 200) throw new Error(`exportação ${formato} respondeu ${r.status}`);
    const { maximoMs } = (await (await fetch(`http://127.0.0.1:${s.portaSonda}/atraso`)).json()) as { maximoMs: number };
    // The same time with nothing running: the floor of the measure on this machine at this moment.
    await new Promise((fim) => setTimeout(fim, Math.min(ms, 3000)));
    const parado = (await (await fetch(`http://127.0.0.1:${s.portaSonda}/atraso`)).json()) as { maximoMs: number };
    exportacao.push({ formato, ms, atrasoMaxMs: maximoMs, paradoMaxMs: parado.maximoMs, bytes: r.bytes });
  }
  return { base, leituras, exportacao };
}

/** The code of ANTES (git archive) beside the installed dependencies, with this run's server script. */
function extrairAntes(): string {
  const pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-admin-antes-'));
  execFileSync('tar', ['-x', '-C', pasta], { input: execFileSync('git', ['archive', ANTES], { maxBuffer: 512 * 1024 * 1024 }) });
  fs.symlinkSync(path.resolve('node_modules'), path.join(pasta, 'node_modules'));
  fs.symlinkSync(path.resolve('bench', 'node_modules'), path.join(pasta, 'bench', 'node_modules'));
  fs.copyFileSync(path.join('bench', 'leituras-admin-servidor.ts'), path.join(pasta, 'bench', 'leituras-admin-servidor.ts'));
  fs.copyFileSync(path.join('bench', 'app-do-bench.ts'), path.join(pasta, 'bench', 'app-do-bench.ts'));
  return pasta;
}

/** Where this code's bundle is built for the bench (the export worker as it ships: build-server.mjs). */
// Under build/ (ignored by git): from bench/ the bundle would find bench/node_modules' own zod first.
const PASTA_EMPACOTADA = path.join('build', 'bench-leituras-admin');

async function medirServidor(nome: string, arquivo: string, escala: number, rodadas: number, segundos: number): Promise<ServidorAdmin> {
  const env: Record<string, string> = { BENCH_ESCALA: String(escala), ...(nome === 'agora' ? { BENCH_PASTA_EMPACOTADA: PASTA_EMPACOTADA } : {}) };
  const anterior = { ...process.env };
  Object.assign(process.env, env);
  const servidor = await iniciarFilho<InfoServidor>(arquivo, [], 600_000).finally(() => {
    for (const chave of Object.keys(env)) {
      if (anterior[chave] === undefined) delete process.env[chave];
      else process.env[chave] = anterior[chave];
    }
  });
  try {
    const lista: RodadaAdmin[] = [];
    for (let i = 0; i < rodadas; i++) {
      const r = await rodada(servidor.info, segundos);
      const texto = LEITURAS.map((l) => `${l.chave} p99 ${r.leituras[l.chave]!.p99} ms`).join(', ');
      console.log(`  ${nome} ${escala}x, rodada ${i + 1}: base p99 ${r.base.p99} ms; ${texto}; ${r.exportacao.map((e) => `exportação ${e.formato} ${e.ms.toFixed(0)} ms, laço parado até ${e.atrasoMaxMs.toFixed(0)} ms`).join('; ')}`);
      lista.push(r);
    }
    return { nome, escala, dados: { vendas: servidor.info.vendas, despesas: servidor.info.despesas }, rodadas: lista };
  } finally {
    await servidor.parar();
  }
}

/** BENCH_ADMIN_ESCALAS=1 (or 5) measures one size; BENCH_ADMIN_SEM_ANTES=1 skips the old code. */
export async function medirLeiturasAdmin(rodadas = 5, segundos = 4): Promise<ResultadoLeiturasAdmin> {
  const escalas = (process.env.BENCH_ADMIN_ESCALAS ?? '1,5').split(',').map(Number);
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--saida', PASTA_EMPACOTADA], { stdio: 'inherit' });
  const pastaAntes = process.env.BENCH_ADMIN_SEM_ANTES ? null : extrairAntes();
  try {
    const servidores: ServidorAdmin[] = [];
    for (const escala of escalas) {
      if (pastaAntes) servidores.push(await medirServidor('antes', path.relative('bench', path.join(pastaAntes, 'bench', 'leituras-admin-servidor.ts')), escala, rodadas, segundos));
      servidores.push(await medirServidor('agora', 'leituras-admin-servidor.ts', escala, rodadas, segundos));
    }
    return { antes: ANTES, conexoes: CONEXOES, segundos, servidores };
  } finally {
    if (pastaAntes) fs.rmSync(pastaAntes, { recursive: true, force: true });
  }
}

const faixa = (v: number[]) => `${Math.min(...v).toFixed(0)}–${Math.max(...v).toFixed(0)}`;
const fmt = (v: number[], casas = 0) => `${mediana(v).toFixed(casas)} (${faixa(v)})`;
const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;

/** The section of docs/performance.md (bench/relatorio.ts). */
export function secaoLeiturasAdmin(r: ResultadoLeiturasAdmin & { medidoEm: string }): string {
  const linhas: string[] = [];
  const escalas = [...new Set(r.servidores.map((s) => s.escala))];
  for (const escala of escalas) {
    const antes = r.servidores.find((s) => s.escala === escala && s.nome === 'antes');
    const agora = r.servidores.find((s) => s.escala === escala && s.nome === 'agora');
    if (!agora) continue;
    const meta = META_P99[escala] ?? 100;
    for (const l of LEITURAS) {
      const p99 = (s: ServidorAdmin) => s.rodadas.map((x) => x.leituras[l.chave]!.p99);
      const razaoBase = agora.rodadas.map((x) => x.leituras[l.chave]!.p99 / Math.max(1, x.base.p99));
      const semResposta = antes?.rodadas.some((x) => x.leituras[l.chave]!.semResposta) ? ` (em ${antes.rodadas.filter((x) => x.leituras[l.chave]!.semResposta).length} rodada(s) nenhuma resposta em ${r.segundos} s: conta ${r.segundos * 1000} ms, um piso)` : '';
      const hoje = antes ? `p99 ${fmt(p99(antes))} ms${semResposta}, p50 ${fmt(antes.rodadas.map((x) => x.leituras[l.chave]!.p50))} ms, ${kb(mediana(antes.rodadas.map((x) => x.leituras[l.chave]!.bytes)))}` : '—';
      const p99Agora = mediana(p99(agora));
      linhas.push(
        `| ${escala}x: ${l.nome} | ${hoje} | **p99 ${fmt(p99(agora))} ms** (${(p99Agora / meta).toFixed(2)}× a meta; ${mediana(razaoBase).toFixed(1)}× a base), p50 ${fmt(agora.rodadas.map((x) => x.leituras[l.chave]!.p50))} ms, ${kb(mediana(agora.rodadas.map((x) => x.leituras[l.chave]!.bytes)))}; depois de uma escrita ${fmt(agora.rodadas.map((x) => x.leituras[l.chave]!.depoisDeEscritaMs), 1)} ms${antes ? ` (antes ${fmt(antes.rodadas.map((x) => x.leituras[l.chave]!.depoisDeEscritaMs), 1)} ms)` : ''} | p99 < ${meta} ms: ${p99Agora < meta ? 'sim' : '**não**'} |`,
      );
    }
    linhas.push(`| ${escala}x: linha de base (Fastify puro, JSON pronto de ${kb(mediana(agora.rodadas.map((x) => x.base.bytes)))}, mesmo processo) | — | p99 ${fmt(agora.rodadas.map((x) => x.base.p99))} ms, p50 ${fmt(agora.rodadas.map((x) => x.base.p50))} ms | — |`);
    for (const formato of agora.rodadas[0]?.exportacao.map((e) => e.formato) ?? []) {
      const atraso = (s: ServidorAdmin) => s.rodadas.map((x) => x.exportacao.find((e) => e.formato === formato)!.atrasoMaxMs);
      const duracao = (s: ServidorAdmin) => s.rodadas.map((x) => x.exportacao.find((e) => e.formato === formato)!.ms);
      const parado = agora.rodadas.map((x) => x.exportacao.find((e) => e.formato === formato)!.paradoMaxMs);
      const a = mediana(atraso(agora));
      linhas.push(
        `| ${escala}x: exportação ${formato === 'pdf' ? 'PDF' : 'Excel'} das rotas ativas: maior parada do laço de eventos | ${antes ? `${fmt(atraso(antes))} ms (exportação de ${fmt(duracao(antes))} ms)` : '—'} | **${fmt(atraso(agora))} ms** (${(a / META_ATRASO_MS).toFixed(2)}× o limite; parado sem nada: ${fmt(parado)} ms), exportação de ${fmt(duracao(agora))} ms | < ${META_ATRASO_MS} ms: ${a < META_ATRASO_MS ? 'sim' : '**não**'} |`,
      );
    }
  }
  const dados = r.servidores.filter((s) => s.nome === 'agora').map((s) => `${s.escala}x: ${s.dados.vendas.toLocaleString('pt-BR')} vendas, ${s.dados.despesas.toLocaleString('pt-BR')} despesas`);
  const rodadas = r.servidores[0]?.rodadas.length ?? 0;
  return `## Leituras do admin e exportações

${dados.join('; ')}. autocannon no loopback, ${r.conexoes} conexões, ${r.segundos} s por leitura (depois de 1 s de
aquecimento), aceitando brotli e gzip como um navegador. Linha de base na mesma rodada: uma rota Fastify pura no
mesmo processo e no mesmo arquivo SQLite devolvendo um JSON pequeno já pronto. "Hoje" é o código do commit
\`${r.antes}\` (antes do cache comprimido e das exportações no worker; a paginação já estava), extraído com \`git archive\` e
medido na mesma execução. ${rodadas} rodadas por servidor: mediana (faixa). "Depois de uma escrita": uma escrita e
em seguida uma leitura, um de cada vez, 5 vezes por rodada (o cache invalidado, como logo depois de uma
sincronização). A exportação é a das rotas ativas (${r.servidores.filter((s) => s.nome === 'agora').map((s) => `${s.escala * 50} rotas a ${s.escala}x`).join(', ')}; o PDF com os detalhes de cada rota). A parada do laço é o máximo do \`monitorEventLoopDelay\` no processo do servidor enquanto a
exportação é gerada ("parado sem nada": o mesmo tempo sem exportação). Medido em ${r.medidoEm.slice(0, 16).replace('T', ' ')} UTC
(\`BENCH_SO=leiturasAdmin npx tsx bench/index.ts\`, \`bench/leituras-admin.ts\`).

| Medida | Hoje | Agora | Limite / meta |
|---|---|---|---|
${linhas.join('\n')}
`;
}
