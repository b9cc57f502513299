/**
 * Heavy readers against the health check (why list endpoints are paged): with a year of data, 12 parallel
 * clients of one admin hammer the sales lists (GET /vendas and /vendas/fechamento-diario asking
 * limit=100000) while this process reads GET /api/health one request at a time; the figure is the
 * health check's p99 under that load against its p99 with no load (the baseline), on the same server
 * in the same round.
 *
 * Three servers, each with a year of data and the read cache off (the readers' cost is the
 * computation: with the cache on, repeated reads would hide it):
 * - antes: the code before paging (commit ANTES, extracted to a temporary folder): every row of
 *   the table on each read (a cache-busting parameter skipped the cache there anyway);
 * - paginado: this code with the per-user limit raised out of reach: pages of at most 1,000 rows;
 * - paginado + limite: this code with the shipped default (600 requests a minute per user): the same readers,
 *   most of their requests refused with 429 once the minute's budget is spent.
 * Each server is measured in RODADAS rounds; the report gives the median and the spread.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { iniciarFilho } from './processo';

/** The commit before the list endpoints were paged (the schema and settings paging relies on already in). */
export const ANTES = '5f08197';
const LEITORES = 12;
const SEGUNDOS_BASE = 2;
const SEGUNDOS_CARGA = 6;

interface InfoServidor {
  porta: number;
  tokenAdmin: string;
  vendas: number;
  despesas: number;
}

export interface Rodada {
  /** /api/health with nothing else running (ms). */
  baseP50: number;
  baseP99: number;
  /** /api/health while the 12 readers run (ms). */
  cargaP50: number;
  cargaP99: number;
  cargaMax: number;
  /** The readers' answers: 200s, 429s, and the average size of a 200 (bytes). */
  leituras200: number;
  leituras429: number;
  bytesPorLeitura: number;
}

export interface CenarioLeituras {
  nome: string;
  rodadas: Rodada[];
}

export interface ResultadoLeituras {
  leitores: number;
  segundosCarga: number;
  antes: string;
  dados: { vendas: number; despesas: number };
  cenarios: CenarioLeituras[];
  /** Set when the 'antes' rows were kept from an earlier run (BENCH_LEITURAS_SEM_ANTES=1). */
  antesMedidoEm?: string;
}

const agente = new http.Agent({ keepAlive: true, maxSockets: 64 });

function pedir(porta: number, caminho: string, token?: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port: porta, path: caminho, agent: agente, headers: { 'accept-encoding': 'gzip', ...(token ? { authorization: `Bearer ${token}` } : {}) } },
      (r) => {
        let bytes = 0;
        r.on('data', (p: Buffer) => (bytes += p.length));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, bytes }));
        r.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}

function percentil(valores: number[], p: number): number {
  if (valores.length === 0) return Number.NaN;
  const ordenados = [...valores].sort((a, b) => a - b);
  return ordenados[Math.min(ordenados.length - 1, Math.ceil((p / 100) * ordenados.length) - 1)]!;
}

/** /api/health one at a time for `segundos` (bounded by the clock); latencies in ms. */
async function medirSaude(porta: number, segundos: number): Promise<number[]> {
  const fim = performance.now() + segundos * 1000;
  const tempos: number[] = [];
  while (performance.now() < fim) {
    const inicio = performance.now();
    const r = await pedir(porta, '/api/health');
    if (r.status !== 200) throw new Error(`/api/health respondeu ${r.status}`);
    tempos.push(performance.now() - inicio);
  }
  return tempos;
}

async function rodada(s: InfoServidor): Promise<Rodada> {
  const base = await medirSaude(s.porta, SEGUNDOS_BASE);
  let parar = false;
  const contas = { ok: 0, recusadas: 0, bytes: 0 };
  const caminhos = ['/api/vendas/fechamento-diario?limit=100000', '/api/vendas?limit=100000'];
  const leitor = async (i: number) => {
    for (let n = 0; !parar; n++) {
      const r = await pedir(s.porta, caminhos[(i + n) % caminhos.length]!, s.tokenAdmin);
      if (r.status === 200) {
        contas.ok += 1;
        contas.bytes += r.bytes;
      } else if (r.status === 429) contas.recusadas += 1;
      else throw new Error(`leitura respondeu ${r.status}`);
    }
  };
  const leitores = Array.from({ length: LEITORES }, (_, i) => leitor(i));
  const carga = await medirSaude(s.porta, SEGUNDOS_CARGA);
  parar = true;
  await Promise.all(leitores);
  return {
    baseP50: percentil(base, 50),
    baseP99: percentil(base, 99),
    cargaP50: percentil(carga, 50),
    cargaP99: percentil(carga, 99),
    cargaMax: Math.max(...carga),
    leituras200: contas.ok,
    leituras429: contas.recusadas,
    bytesPorLeitura: contas.ok > 0 ? Math.round(contas.bytes / contas.ok) : 0,
  };
}

/** The code of ANTES, extracted (git archive, no change to the repository) beside the installed dependencies. */
function extrairAntes(): string {
  const pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-antes-'));
  const tar = execFileSync('git', ['archive', ANTES], { maxBuffer: 512 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', pasta], { input: tar });
  fs.symlinkSync(path.resolve('node_modules'), path.join(pasta, 'node_modules'));
  fs.symlinkSync(path.resolve('bench', 'node_modules'), path.join(pasta, 'bench', 'node_modules'));
  return pasta;
}

async function medirCenario(nome: string, arquivo: string, env: Record<string, string>, rodadas: number, dados: ResultadoLeituras['dados']) {
  const anterior = { ...process.env };
  Object.assign(process.env, env);
  const servidor = await iniciarFilho<InfoServidor>(arquivo, ['--sem-cache']).finally(() => {
    for (const chave of Object.keys(env)) if (anterior[chave] === undefined) delete process.env[chave];
  });
  try {
    dados.vendas = servidor.info.vendas;
    dados.despesas = servidor.info.despesas;
    const lista: Rodada[] = [];
    for (let i = 0; i < rodadas; i++) {
      const r = await rodada(servidor.info);
      console.log(
        `  ${nome}, rodada ${i + 1}: health p99 ${r.baseP99.toFixed(1)} ms sem carga -> ${r.cargaP99.toFixed(1)} ms com ${LEITORES} leitores` +
          ` (máx ${r.cargaMax.toFixed(0)} ms); leituras 200: ${r.leituras200} de ${Math.round(r.bytesPorLeitura / 1024)} KiB, 429: ${r.leituras429}`,
      );
      lista.push(r);
    }
    return { nome, rodadas: lista };
  } finally {
    await servidor.parar();
  }
}

export async function medirLeituras(rodadas = 5, anterior?: ResultadoLeituras & { medidoEm: string }): Promise<ResultadoLeituras> {
  const dados = { vendas: 0, despesas: 0 };
  const pastaAntes = extrairAntes();
  try {
    const cenarios: CenarioLeituras[] = [];
    const servidorAntes = path.relative('bench', path.join(pastaAntes, 'bench', 'servidor.ts'));
    // BENCH_LEITURAS_SEM_ANTES=1 skips the old code (its rounds take minutes each) and keeps its last figures.
    const antesGuardado = process.env.BENCH_LEITURAS_SEM_ANTES ? anterior?.cenarios.find((c) => c.nome.startsWith('antes')) : undefined;
    if (antesGuardado) cenarios.push(antesGuardado);
    else cenarios.push(await medirCenario('antes (lista inteira)', servidorAntes, {}, rodadas, dados));
    cenarios.push(
      await medirCenario('paginado, sem fila por usuário', 'servidor.ts', { BENCH_LIMITE_REQUISICOES: '100000', BENCH_SIMULTANEAS: '1000' }, rodadas, dados),
    );
    cenarios.push(
      await medirCenario('paginado + fila por usuário (2 de cada vez) + 600/min (o padrão)', 'servidor.ts', { BENCH_LIMITE_REQUISICOES: '600', BENCH_SIMULTANEAS: '2' }, rodadas, dados),
    );
    const antesMedidoEm = antesGuardado ? (anterior?.antesMedidoEm ?? anterior?.medidoEm) : undefined;
    return { leitores: LEITORES, segundosCarga: SEGUNDOS_CARGA, antes: ANTES, dados, cenarios, ...(antesMedidoEm ? { antesMedidoEm } : {}) };
  } finally {
    agente.destroy();
    fs.rmSync(pastaAntes, { recursive: true, force: true });
  }
}

const mediana = (v: number[]) => percentil(v, 50);
const faixa = (v: number[]) => `${Math.min(...v).toFixed(1)}–${Math.max(...v).toFixed(1)}`;

/** The section of docs/performance.md (bench/relatorio.ts appends it). */
export function secaoLeituras(r: ResultadoLeituras & { medidoEm: string }): string {
  const linhas = r.cenarios.map((c) => {
    const base = c.rodadas.map((x) => x.baseP99);
    const carga = c.rodadas.map((x) => x.cargaP99);
    const razoes = c.rodadas.map((x) => x.cargaP99 / x.baseP99);
    const bytes = mediana(c.rodadas.map((x) => x.bytesPorLeitura));
    const ok = mediana(c.rodadas.map((x) => x.leituras200));
    const recusadas = mediana(c.rodadas.map((x) => x.leituras429));
    return `| ${c.nome} | ${mediana(base).toFixed(1)} (${faixa(base)}) | **${mediana(carga).toFixed(1)}** (${faixa(carga)}) | ${mediana(razoes).toFixed(1)}× | ${ok} de ${Math.round(bytes / 1024)} KiB | ${recusadas} |`;
  });
  return `## Leitores pesados e o health check

Um ano de dados (${r.dados.vendas.toLocaleString('pt-BR')} vendas), cache de leituras desligado (o custo medido é o cálculo).
${r.leitores} clientes do mesmo admin pedem em laço \`GET /api/vendas/fechamento-diario?limit=100000\` e
\`GET /api/vendas?limit=100000\`; enquanto isso o benchmark pede \`GET /api/health\` um de cada vez por ${r.segundosCarga} s.
A linha de base é o mesmo health check sem carga, no mesmo servidor, na mesma rodada. "antes" é o código do
commit \`${r.antes}\` (a lista inteira em cada leitura). ${r.cenarios[0]?.rodadas.length ?? 0} rodadas por servidor: mediana (faixa).
Medido em ${r.medidoEm.slice(0, 10)}${r.antesMedidoEm ? ` (a linha "antes" em ${r.antesMedidoEm.slice(0, 10)}, guardada: \`BENCH_LEITURAS_SEM_ANTES=1\`)` : ''} (\`BENCH_SO=leituras npm run bench\`, \`bench/leituras.ts\`).

| Servidor | health p99 sem carga (ms) | health p99 com ${r.leitores} leitores (ms) | razão | leituras 200 por rodada (tamanho) | 429 por rodada |
|---|---|---|---|---|---|
${linhas.join('\n')}

O SQLite responde no laço de eventos do Node: enquanto uma leitura calcula, o health check espera. Com a lista
inteira cada leitura leva segundos e o health espera minutos; com páginas de até 1.000 linhas (ordenadas só
nos dias da página) a espera cai para segundos, mas não some se as 12 leituras do mesmo admin rodam juntas.
A fila por usuário (\`server/src/plugins/vezPorUsuario.ts\`, \`REQUISICOES_SIMULTANEAS_POR_USUARIO\`, padrão 2)
deixa só duas leituras de um mesmo usuário calculando de cada vez; as outras esperam sem ocupar o processo.
**Ela não baixou o p99 destas rodadas** (as duas linhas de baixo ficam dentro do ruído uma da outra). Numa
medição avulsa de 2026-11-25 (uma rodada de 4 s por ponto, mesma máquina), o p50 do health foi: 1 leitor
70 ms; 2 leitores 85–93 ms; 4 leitores 273 ms sem fila e 150 ms com fila; 12 leitores 3.364 ms sem fila e
517 ms com fila, mas o máximo ficou em ~3,3 s nos dois casos. Com a fila, só duas leituras calculam, e mesmo
assim o health piora de 85 ms (2 leitores) para ~500 ms (12): a espera que sobra não vem só do cálculo das
leituras em andamento (hipóteses ainda não medidas: coleta de lixo com 12 respostas de 0,5 MB vivas, e os
dois núcleos divididos com o próprio gerador de carga). Tirar as leituras do laço (worker threads) é o passo
seguinte se isso importar na prática. O limite por minuto (600) não muda este caso:
12 leituras de página por segundo ficam abaixo dele; ele protege de quem dispara muitas leituras baratas
ou guardadas no cache. Com o cache de leituras ligado (o normal), leituras repetidas do mesmo filtro saem da memória.
`;
}
