/**
 * API under load with a year of data: p50/p99 latency and requests per second of the endpoints
 * people hit all day, each against a bare Fastify route measured in the same run (the ceiling).
 * Targets: every endpoint at 30% of the ceiling or better, p99 under 50 ms at 10 connections.
 *
 * Each endpoint is measured twice: as served (the read cache answers repeated reads while nothing
 * changed) and with the cache off (every answer computed from SQLite, as right after a phone's
 * sync). The targets apply to the first; the second is reported so the cost without the cache is known.
 * Requests accept gzip, as every browser does.
 */
import http from 'node:http';
import autocannon from 'autocannon';
import { iniciarFilho } from './processo';

export interface Carga {
  rps: number;
  p50: number;
  p99: number;
  erros: number;
  /** Average bytes per answer on the wire. */
  bytes: number;
}

export interface MedidaApi extends Carga {
  nome: string;
  caminho: string;
  razao: number;
  /** The bare route answering the very same bytes: how much of the gap is just the answer itself. */
  tetoMesmoTamanho: Carga & { razao: number };
  metaRazao: number;
  metaP99: number;
  passou: boolean;
  semCache: Carga & { razao: number };
}

export interface ResultadoApi {
  conexoes: number;
  segundos: number;
  teto: Carga;
  dados: { vendas: number; despesas: number };
  medidas: MedidaApi[];
}

interface InfoServidor {
  porta: number;
  tokenAdmin: string;
  tokenFuncionario: string;
  rotaAtiva: number;
  vendas: number;
  despesas: number;
  dia: string;
}

const CONEXOES = 10;
const META_RAZAO = 0.3;
const META_P99_MS = 50;

async function carregar(url: string, segundos: number, token?: string): Promise<Carga> {
  const r = await autocannon({
    url,
    connections: CONEXOES,
    duration: segundos,
    pipelining: 1,
    headers: { 'accept-encoding': 'gzip, deflate, br', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    erros: r.non2xx + r.errors + r.timeouts,
    bytes: r.requests.total > 0 ? Math.round(r.throughput.total / r.requests.total) : 0,
  };
}

function alvos(s: InfoServidor) {
  return [
    { nome: 'Situação do dia das cidades (funcionário)', caminho: `/rotas/${s.rotaAtiva}/cidades-status?data=${s.dia}`, token: s.tokenFuncionario },
    { nome: 'Fechamento diário (admin)', caminho: `/vendas/fechamento-diario?data=${s.dia}`, token: s.tokenAdmin },
    { nome: 'Relatório da rota (admin)', caminho: `/relatorios/rota/${s.rotaAtiva}/detalhes`, token: s.tokenAdmin },
    { nome: 'Dashboard do admin', caminho: '/relatorios/dashboard-admin', token: s.tokenAdmin },
  ];
}

interface Resposta {
  corpo: Buffer;
  tipo: string;
  codificacao: string;
}

/** One answer exactly as it comes over the wire (still gzipped), as autocannon receives it. */
function buscarCrua(url: string, token: string): Promise<Resposta> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'gzip, deflate, br', authorization: `Bearer ${token}` } }, (r) => {
        const partes: Buffer[] = [];
        r.on('data', (p: Buffer) => partes.push(p));
        r.on('end', () => resolve({ corpo: Buffer.concat(partes), tipo: String(r.headers['content-type'] ?? ''), codificacao: String(r.headers['content-encoding'] ?? '') }));
        r.on('error', reject);
      })
      .on('error', reject);
  });
}

function guardar(url: string, r: Resposta): Promise<void> {
  return new Promise((resolve, reject) => {
    const pedido = http.request(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', 'x-tipo': r.tipo, 'x-codificacao': r.codificacao } }, (resposta) => {
      resposta.resume();
      resposta.on('end', () => (resposta.statusCode === 200 ? resolve() : reject(new Error(`guardar: ${resposta.statusCode}`))));
    });
    pedido.on('error', reject);
    pedido.end(r.corpo);
  });
}

/** Every endpoint on one server (with or without its read cache), after a 2 s warm-up each. */
async function medirServidor(segundos: number, semCache: boolean) {
  const servidor = await iniciarFilho<InfoServidor>('servidor.ts', semCache ? ['--sem-cache'] : []);
  try {
    const s = servidor.info;
    const medidas: (Carga & { nome: string; caminho: string })[] = [];
    const respostas: Resposta[] = [];
    for (const alvo of alvos(s)) {
      const url = `http://127.0.0.1:${s.porta}/api${alvo.caminho}`;
      await carregar(url, 2, alvo.token);
      medidas.push({ nome: alvo.nome, caminho: alvo.caminho, ...(await carregar(url, segundos, alvo.token)) });
      respostas.push(await buscarCrua(url, alvo.token));
    }
    return { medidas, respostas, dados: { vendas: s.vendas, despesas: s.despesas } };
  } finally {
    await servidor.parar();
  }
}

export async function medirApi(segundos = 10): Promise<ResultadoApi> {
  const ola = await iniciarFilho<{ porta: number }>('ola.ts');
  let teto: Carga;
  try {
    await carregar(`http://127.0.0.1:${ola.info.porta}/ola`, 2); // warm-up
    teto = await carregar(`http://127.0.0.1:${ola.info.porta}/ola`, segundos);
  } finally {
    await ola.parar();
  }
  console.log(`  teto (Fastify "olá"): ${Math.round(teto.rps)} req/s, p99 ${teto.p99} ms`);

  const comCache = await medirServidor(segundos, false);
  const semCache = await medirServidor(Math.max(3, Math.round(segundos / 2)), true);

  // Answers much larger than the "olá": the bare route sending the very same bytes, for comparison.
  const ola2 = await iniciarFilho<{ porta: number }>('ola.ts');
  const mesmoTamanho: Carga[] = [];
  try {
    for (const [i, resposta] of comCache.respostas.entries()) {
      const url = `http://127.0.0.1:${ola2.info.porta}/resposta/${i}`;
      await guardar(url, resposta);
      await carregar(url, 1);
      mesmoTamanho.push(await carregar(url, Math.max(3, Math.round(segundos / 2))));
    }
  } finally {
    await ola2.parar();
  }

  const medidas = comCache.medidas.map((m, i): MedidaApi => {
    const sem = semCache.medidas[i]!;
    const igual = mesmoTamanho[i]!;
    const razao = m.rps / teto.rps;
    const medida: MedidaApi = {
      ...m,
      razao,
      metaRazao: META_RAZAO,
      metaP99: META_P99_MS,
      passou: m.erros === 0 && razao >= META_RAZAO && m.p99 < META_P99_MS,
      semCache: { ...sem, razao: sem.rps / teto.rps },
      tetoMesmoTamanho: { ...igual, razao: m.rps / igual.rps },
    };
    console.log(
      `  ${m.nome}: ${Math.round(m.rps)} req/s (${(razao * 100).toFixed(0)}% do teto), p50 ${m.p50} ms, p99 ${m.p99} ms, erros ${m.erros}` +
        ` | sem cache: ${Math.round(sem.rps)} req/s (${((sem.rps / teto.rps) * 100).toFixed(0)}%), p99 ${sem.p99} ms` +
        ` | teto com a mesma resposta (${igual.bytes} bytes): ${Math.round(igual.rps)} req/s (${((m.rps / igual.rps) * 100).toFixed(0)}% dele)`,
    );
    return medida;
  });
  return { conexoes: CONEXOES, segundos, teto, dados: comCache.dados, medidas };
}
