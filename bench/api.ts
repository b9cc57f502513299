/**
 * API under load with a year of data: p50/p99 latency and requests per second of the endpoints
 * people hit all day, each against a bare Fastify route measured in the same run (the ceiling).
 * Targets: every endpoint at 30% of the ceiling or better, p99 under 50 ms at 10 connections.
 */
import autocannon from 'autocannon';
import { iniciarFilho } from './processo';

export interface MedidaApi {
  nome: string;
  caminho: string;
  rps: number;
  p50: number;
  p99: number;
  razao: number;
  erros: number;
  metaRazao: number;
  metaP99: number;
  passou: boolean;
}

export interface ResultadoApi {
  conexoes: number;
  segundos: number;
  teto: { rps: number; p50: number; p99: number };
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

async function carregar(url: string, segundos: number, token?: string) {
  const r = await autocannon({
    url,
    connections: CONEXOES,
    duration: segundos,
    pipelining: 1,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, erros: r.non2xx + r.errors + r.timeouts };
}

export async function medirApi(segundos = 10): Promise<ResultadoApi> {
  const ola = await iniciarFilho<{ porta: number }>('ola.ts');
  let teto;
  try {
    await carregar(`http://127.0.0.1:${ola.info.porta}/ola`, 2); // warm-up
    teto = await carregar(`http://127.0.0.1:${ola.info.porta}/ola`, segundos);
  } finally {
    await ola.parar();
  }

  const servidor = await iniciarFilho<InfoServidor>('servidor.ts');
  const s = servidor.info;
  const base = `http://127.0.0.1:${s.porta}/api`;
  const alvos = [
    { nome: 'Situação do dia das cidades (funcionário)', caminho: `/rotas/${s.rotaAtiva}/cidades-status?data=${s.dia}`, token: s.tokenFuncionario },
    { nome: 'Fechamento diário (admin)', caminho: `/vendas/fechamento-diario?data=${s.dia}`, token: s.tokenAdmin },
    { nome: 'Relatório da rota (admin)', caminho: `/relatorios/rota/${s.rotaAtiva}/detalhes`, token: s.tokenAdmin },
    { nome: 'Dashboard do admin', caminho: '/relatorios/dashboard-admin', token: s.tokenAdmin },
  ];
  const medidas: MedidaApi[] = [];
  try {
    for (const alvo of alvos) {
      await carregar(`${base}${alvo.caminho}`, 2, alvo.token);
      const m = await carregar(`${base}${alvo.caminho}`, segundos, alvo.token);
      const razao = m.rps / teto.rps;
      medidas.push({
        nome: alvo.nome,
        caminho: alvo.caminho,
        ...m,
        razao,
        metaRazao: 0.3,
        metaP99: 50,
        passou: m.erros === 0 && razao >= 0.3 && m.p99 < 50,
      });
      console.log(`  ${alvo.nome}: ${Math.round(m.rps)} req/s (${(razao * 100).toFixed(0)}% do teto), p50 ${m.p50} ms, p99 ${m.p99} ms, erros ${m.erros}`);
    }
  } finally {
    await servidor.parar();
  }
  return { conexoes: CONEXOES, segundos, teto, dados: { vendas: s.vendas, despesas: s.despesas }, medidas };
}
