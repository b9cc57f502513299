/**
 * The server under concurrent load, each figure a ratio against a baseline measured in the same run
 * (decisions.md, "PostgreSQL: uma trava por funcionário" and "A cópia contínua nunca confirma o que não
 * saiu do servidor"):
 * - 'postgres50': 50 phones (50 employees, each with its own route) sending 50-sale batches at once to
 *   two app processes on one PostgreSQL behind the round-robin proxy, against (a) the bare replay of the
 *   same batches into a copy of the same database in the same PostgreSQL, two bare processes behind the
 *   same proxy (bench/postgres-limite.ts: the limit), and (b) one SQLite process on the same data.
 *   Every batch answer is checked: a batch not answered 200, or an operation not 201, is counted.
 * - 'copia': 10 phones at once to one SQLite process with the continuous copy on (a bucket on this
 *   machine: s3rver in a process of its own, bench/s3-servidor.ts) against the same process without it,
 *   on copies of one DATA_DIR; the WAL segments uploaded are counted.
 * Sides alternate round by round; sales/s over the round's window (all phones done).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { iniciarPostgres } from '../server/test/postgres';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { ambiente, entrar, iniciarProcesso, prepararDados, type DadosPreparados, type Processo } from './postgres';
import { iniciarFilho, type Filho } from './processo';
import { corposDosLotes, vendasDoCelular } from './sync';

const TAMANHO_LOTE = 50;

export interface Faixa {
  min: number;
  mediana: number;
  max: number;
}
const mediana = (v: number[]) => {
  const o = [...v].sort((a, b) => a - b);
  const m = Math.floor(o.length / 2);
  return o.length % 2 ? o[m]! : (o[m - 1]! + o[m]!) / 2;
};
const faixa = (v: number[]): Faixa => ({ min: Math.min(...v), mediana: mediana(v), max: Math.max(...v) });

interface Lado {
  nome: string;
  url: string;
  tokens: string[];
  processos: Processo[];
  filhos: Filho<unknown>[];
  /** Batches not answered 200 (after which the phone sends again), and operations answered 'nao_processado' or >= 400. */
  lotesInterrompidos: number;
  naoProcessadas: number;
  recusas: string[];
}

async function parar(lado: Lado) {
  for (const f of lado.filhos) f.processo.kill('SIGTERM');
  await Promise.all(lado.processos.map((p) => p.parar()));
}

/** One phone's batches in order; an interrupted batch is counted and sent again (at most 5 times), as the phone does. */
async function enviarFila(lado: Lado, token: string, corpos: string[]) {
  for (const corpo of corpos) {
    for (let tentativa = 1; ; tentativa++) {
      const r = await fetch(`${lado.url}/api/sync/lote`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: corpo });
      const texto = await r.text();
      let ruim = 0;
      if (r.ok) ruim = (JSON.parse(texto) as { resultados: { status: unknown }[] }).resultados.filter((o) => o.status !== 200 && o.status !== 201).length;
      if (r.ok && ruim === 0) break;
      if (!r.ok) lado.lotesInterrompidos += 1;
      lado.naoProcessadas += ruim;
      if (lado.recusas.length < 5) lado.recusas.push(`${lado.nome}: ${r.status} ${texto.slice(0, 300)}`);
      if (tentativa >= 5) throw new Error(`${lado.nome}: lote recusado 5 vezes: ${r.status} ${texto.slice(0, 300)}`);
    }
  }
}

async function rodada(lado: Lado, filas: string[][]): Promise<number> {
  await new Promise((r) => setTimeout(r, 300));
  const inicio = performance.now();
  await Promise.all(lado.tokens.map((t, i) => enviarFila(lado, t, filas[i]!)));
  return performance.now() - inicio;
}

/** Each phone's next `quantas` sales (days of their own), in batches of 50. */
function filador(dados: DadosPreparados) {
  let dias = 0;
  return (quantas: number) => {
    const filas = dados.celulares.map((c, i) => {
      const vendas = vendasDoCelular(c, quantas, dias);
      const corpos: string[] = [];
      for (let k = 0; k < vendas.length; k += TAMANHO_LOTE) corpos.push(...corposDosLotes(vendas.slice(k, k + TAMANHO_LOTE), `bench-celular-${i + 1}`));
      return corpos;
    });
    dias += Math.ceil(quantas / dados.celulares[0]!.cidades.length);
    return filas;
  };
}

async function tokens(url: string, dados: DadosPreparados): Promise<string[]> {
  const r: string[] = [];
  for (const c of dados.celulares) r.push(await entrar(url, c.email, c.senha));
  return r;
}

async function comProxy(nome: string, portas: number[]): Promise<Filho<{ porta: number }>> {
  void nome;
  return iniciarFilho<{ porta: number }>('postgres-proxy.ts', portas.map(String));
}

export interface LadoMedido {
  porSegundo: number;
  msPorRodada: number[];
  lotesInterrompidos: number;
  naoProcessadas: number;
}

export interface ResultadoPostgres50 {
  celulares: number;
  vendasPorCelular: number;
  rodadas: number;
  lotes: number;
  postgres: LadoMedido;
  limite: LadoMedido;
  sqlite: LadoMedido;
  /** Per round: PostgreSQL's sales/s ÷ the bare replay's, and ÷ SQLite's. */
  razaoLimite: Faixa;
  razaoSqlite: Faixa;
  recusas: string[];
  carga: { inicio: number[]; fim: number[] };
}

export async function medirPostgres50(o: { celulares: number; vendasPorCelular: number; rodadas: number }): Promise<ResultadoPostgres50> {
  const carga = { inicio: os.loadavg(), fim: [] as number[] };
  const dados = await prepararDados(1, o.celulares);
  const banco = await iniciarPostgres('sg_bench50');
  const dataDirPg = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-pg50-'));
  const lados: Lado[] = [];
  try {
    await new Promise<void>((ok, falha) => {
      const p = spawn(process.execPath, ['--import', 'tsx', path.join('server', 'src', 'main.ts'), 'migrate-to-postgres', path.join(dados.dataDir, 'app.db')], {
        env: ambiente(dataDirPg, { DATABASE_URL: banco.url }),
        stdio: 'ignore',
      });
      p.once('exit', (c) => (c === 0 ? ok() : falha(new Error(`migrate-to-postgres: ${c}`))));
    });
    // The bare replay's database: a copy of the app's, in the same PostgreSQL (same rows, same indexes).
    const admin = new pg.Client({ connectionString: banco.url.replace(/\/[^/]+$/, '/postgres') });
    await admin.connect();
    await admin.query('create database sg_limite template sg_bench50');
    await admin.end();
    const urlLimite = banco.url.replace(/\/[^/]+$/, '/sg_limite');

    const novoLado = (nome: string, url: string, processos: Processo[], filhos: Filho<unknown>[]): Lado => ({
      nome, url, tokens: [], processos, filhos, lotesInterrompidos: 0, naoProcessadas: 0, recusas: [],
    });
    const sqliteP = await iniciarProcesso('sqlite', ambiente(dados.dataDir));
    const proxySqlite = await comProxy('sqlite', [sqliteP.porta]);
    const sqlite = novoLado('sqlite', `http://127.0.0.1:${proxySqlite.info.porta}`, [sqliteP], [proxySqlite]);
    lados.push(sqlite);
    const pgP = await Promise.all([0, 1].map((i) => iniciarProcesso(`postgres#${i}`, ambiente(dataDirPg, { DATABASE_URL: banco.url }))));
    const proxyPg = await comProxy('postgres', pgP.map((p) => p.porta));
    const postgres = novoLado('postgres', `http://127.0.0.1:${proxyPg.info.porta}`, pgP, [proxyPg]);
    lados.push(postgres);
    const limites = await Promise.all([0, 1].map(() => iniciarFilho<{ porta: number }>('postgres-limite.ts', [urlLimite])));
    const proxyLimite = await comProxy('limite', limites.map((l) => l.info.porta));
    const limite = novoLado('limite', `http://127.0.0.1:${proxyLimite.info.porta}`, [], [...limites, proxyLimite]);
    lados.push(limite);
    for (const l of [sqlite, postgres]) l.tokens = await tokens(l.url, dados);
    limite.tokens = postgres.tokens.map(() => 'sem-autenticacao');

    const filas = filador(dados);
    const aquecimento = filas(TAMANHO_LOTE);
    for (const l of lados) await rodada(l, aquecimento);
    for (const l of lados) Object.assign(l, { lotesInterrompidos: 0, naoProcessadas: 0 });
    const ms: Record<string, number[]> = { sqlite: [], postgres: [], limite: [] };
    for (let r = 0; r < o.rodadas; r++) {
      const f = filas(o.vendasPorCelular);
      const ordem = [[postgres, limite, sqlite], [limite, sqlite, postgres], [sqlite, postgres, limite]][r % 3]!;
      for (const l of ordem) ms[l.nome]!.push(await rodada(l, f));
      const porSeg = (n: string) => (o.celulares * o.vendasPorCelular * 1000) / ms[n]!.at(-1)!;
      console.log(`  rodada ${r + 1}: PostgreSQL 2 processos ${Math.round(porSeg('postgres'))}/s, réplica crua ${Math.round(porSeg('limite'))}/s, SQLite 1 processo ${Math.round(porSeg('sqlite'))}/s`);
    }
    carga.fim = os.loadavg();
    const medido = (l: Lado): LadoMedido => ({
      porSegundo: (o.celulares * o.vendasPorCelular * 1000) / mediana(ms[l.nome]!),
      msPorRodada: ms[l.nome]!,
      lotesInterrompidos: l.lotesInterrompidos,
      naoProcessadas: l.naoProcessadas,
    });
    return {
      celulares: o.celulares,
      vendasPorCelular: o.vendasPorCelular,
      rodadas: o.rodadas,
      lotes: o.rodadas * o.celulares * Math.ceil(o.vendasPorCelular / TAMANHO_LOTE),
      postgres: medido(postgres),
      limite: medido(limite),
      sqlite: medido(sqlite),
      razaoLimite: faixa(ms.postgres!.map((p, i) => ms.limite![i]! / p)),
      razaoSqlite: faixa(ms.postgres!.map((p, i) => ms.sqlite![i]! / p)),
      recusas: lados.flatMap((l) => l.recusas),
      carga,
    };
  } finally {
    await Promise.all(lados.map(parar));
    await banco.parar();
    fs.rmSync(dataDirPg, { recursive: true, force: true });
    fs.rmSync(dados.dataDir, { recursive: true, force: true });
  }
}

export interface ResultadoCopia {
  celulares: number;
  vendasPorCelular: number;
  rodadas: number;
  com: LadoMedido & { envios: number };
  sem: LadoMedido;
  /** Per round: sales/s with the copy ÷ without it. */
  razao: Faixa;
  recusas: string[];
  carga: { inicio: number[]; fim: number[] };
}

export async function medirCopia(o: { celulares: number; vendasPorCelular: number; rodadas: number }): Promise<ResultadoCopia> {
  const carga = { inicio: os.loadavg(), fim: [] as number[] };
  const dados = await prepararDados(1, o.celulares);
  const s3 = await iniciarFilho<{ env: Record<string, string> }>('s3-servidor.ts');
  const cliente = new S3Client({
    endpoint: s3.info.env.COPIA_S3_ENDPOINT,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: s3.info.env.COPIA_S3_ACCESS_KEY_ID!, secretAccessKey: s3.info.env.COPIA_S3_SECRET_ACCESS_KEY! },
  });
  const segmentos = async () => {
    let n = 0;
    let continuacao: string | undefined;
    do {
      const r = await cliente.send(new ListObjectsV2Command({ Bucket: s3.info.env.COPIA_S3_BUCKET, ...(continuacao ? { ContinuationToken: continuacao } : {}) }));
      n += (r.Contents ?? []).filter((o) => o.Key!.includes('/wal/')).length;
      continuacao = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (continuacao);
    return n;
  };
  const dirSem = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-sem-copia-'));
  fs.cpSync(dados.dataDir, dirSem, { recursive: true });
  const lados: Lado[] = [];
  try {
    const semP = await iniciarProcesso('sem cópia', ambiente(dirSem));
    const comP = await iniciarProcesso('com cópia', ambiente(dados.dataDir, s3.info.env));
    const proxySem = await comProxy('sem', [semP.porta]);
    const proxyCom = await comProxy('com', [comP.porta]);
    const novo = (nome: string, proxy: Filho<{ porta: number }>, p: Processo): Lado => ({
      nome, url: `http://127.0.0.1:${proxy.info.porta}`, tokens: [], processos: [p], filhos: [proxy], lotesInterrompidos: 0, naoProcessadas: 0, recusas: [],
    });
    const sem = novo('sem', proxySem, semP);
    const com = novo('com', proxyCom, comP);
    lados.push(sem, com);
    for (const l of lados) l.tokens = await tokens(l.url, dados);
    const filas = filador(dados);
    const aquecimento = filas(TAMANHO_LOTE * 2);
    for (const l of lados) await rodada(l, aquecimento);
    const segmentosAntes = await segmentos();
    const ms: Record<string, number[]> = { sem: [], com: [] };
    for (let r = 0; r < o.rodadas; r++) {
      const f = filas(o.vendasPorCelular);
      for (const l of r % 2 === 0 ? [sem, com] : [com, sem]) ms[l.nome]!.push(await rodada(l, f));
      const porSeg = (n: string) => (o.celulares * o.vendasPorCelular * 1000) / ms[n]!.at(-1)!;
      console.log(`  rodada ${r + 1}: sem a cópia ${Math.round(porSeg('sem'))}/s, com a cópia ${Math.round(porSeg('com'))}/s`);
    }
    carga.fim = os.loadavg();
    const envios = (await segmentos()) - segmentosAntes;
    const medido = (l: Lado): LadoMedido => ({
      porSegundo: (o.celulares * o.vendasPorCelular * 1000) / mediana(ms[l.nome]!),
      msPorRodada: ms[l.nome]!,
      lotesInterrompidos: l.lotesInterrompidos,
      naoProcessadas: l.naoProcessadas,
    });
    return {
      celulares: o.celulares,
      vendasPorCelular: o.vendasPorCelular,
      rodadas: o.rodadas,
      com: { ...medido(com), envios },
      sem: medido(sem),
      razao: faixa(ms.com!.map((c, i) => ms.sem![i]! / c)),
      recusas: lados.flatMap((l) => l.recusas),
      carga,
    };
  } finally {
    await Promise.all(lados.map(parar));
    s3.processo.kill('SIGTERM');
    cliente.destroy();
    fs.rmSync(dirSem, { recursive: true, force: true });
    fs.rmSync(dados.dataDir, { recursive: true, force: true });
  }
}

// `npx tsx bench/carga.ts copia|postgres50`: one part alone, its figures printed as JSON.
if (process.argv[1]?.endsWith('carga.ts') && process.argv[2]) {
  const parte = process.argv[2];
  const r =
    parte === 'copia'
      ? await medirCopia({ celulares: 10, vendasPorCelular: 500, rodadas: 5 })
      : await medirPostgres50({ celulares: 50, vendasPorCelular: 250, rodadas: 3 });
  console.log(JSON.stringify(r));
  process.exit(0);
}

export interface ExecucaoCarga {
  medidoEm: string;
  postgres50?: ResultadoPostgres50;
  copia?: ResultadoCopia;
}

const int = (n: number) => Math.round(n).toLocaleString('pt-BR');
const x = (n: number) => n.toFixed(2).replace('.', ',');
const faixaTexto = (f: Faixa) => `${x(f.mediana)}× (${x(f.min)}–${x(f.max)})`;

/** The page's section: one line per run (the runs kept: each `npm run bench` adds one), newest first. */
export function secaoCarga(execucoes: ExecucaoCarga[]): string {
  const pg = execucoes.filter((e) => e.postgres50);
  const cp = execucoes.filter((e) => e.copia);
  const linhasPg = pg.map((e) => {
    const r = e.postgres50!;
    return `| ${e.medidoEm.slice(0, 16).replace('T', ' ')} | ${int(r.postgres.porSegundo)} | ${int(r.limite.porSegundo)} | ${faixaTexto(r.razaoLimite)} | ${int(r.sqlite.porSegundo)} | ${faixaTexto(r.razaoSqlite)} | ${r.postgres.lotesInterrompidos} de ${int(r.lotes)} | ${r.postgres.naoProcessadas} | ${r.carga.inicio[0]!.toFixed(1)} → ${r.carga.fim[0]!.toFixed(1)} |`;
  });
  const linhasCp = cp.map((e) => {
    const r = e.copia!;
    return `| ${e.medidoEm.slice(0, 16).replace('T', ' ')} | ${int(r.sem.porSegundo)} | ${int(r.com.porSegundo)} | ${faixaTexto(r.razao)} | ${r.com.envios} | ${r.com.lotesInterrompidos} | ${r.carga.inicio[0]!.toFixed(1)} → ${r.carga.fim[0]!.toFixed(1)} |`;
  });
  const p = pg[0]?.postgres50;
  const c = cp[0]?.copia;
  return `
## Carga concorrente

\`bench/carga.ts\` (\`BENCH_SO=carga\`). Cada linha é uma execução (\`npm run bench\`, ou uma parte sozinha com
\`npx tsx bench/carga.ts postgres50|copia\`, as mesmas funções), as mais recentes primeiro;
as razões são rodada a rodada, os lados alternando, mediana e faixa. A carga da máquina (média de 1 minuto no começo e
no fim) diz quanto outros processos disputavam os 2 núcleos.

### PostgreSQL com ${p?.celulares ?? 50} celulares ao mesmo tempo

${p ? `${p.celulares} funcionários, cada um com a sua rota, mandando ${p.vendasPorCelular} vendas em lotes de 50 ao mesmo tempo, ${p.rodadas} rodadas: dois processos do app no PostgreSQL atrás do proxy round-robin; a **réplica crua** dos mesmos lotes (\`bench/postgres-limite.ts\`: as mesmas linhas inseridas na mesma tabela \`vendas\`, com os mesmos índices, numa cópia do mesmo banco no mesmo PostgreSQL, dois processos atrás do mesmo proxy, sem autenticação, regras nem registro de operações) é o limite; e um processo no SQLite com os mesmos dados. Lotes interrompidos: respostas que não foram 200 (o celular reenvia); 'nao_processado': operações que voltaram sem ser aplicadas.` : ''}

| execução | PostgreSQL vendas/s | réplica crua vendas/s | PostgreSQL ÷ réplica | SQLite vendas/s | PostgreSQL ÷ SQLite | lotes interrompidos | não processadas | carga |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${linhasPg.join('\n')}

### Cópia contínua com ${c?.celulares ?? 10} celulares ao mesmo tempo

${c ? `${c.celulares} celulares mandando ${c.vendasPorCelular} vendas cada em lotes de 50, ${c.rodadas} rodadas, a um processo no SQLite com a cópia contínua para um bucket nesta máquina (s3rver num processo próprio) e ao mesmo processo sem ela, em cópias do mesmo DATA_DIR. Com a cópia, cada resposta espera as suas vendas estarem no bucket; os lotes que esperam juntos dividem um envio (segmentos do WAL enviados nas rodadas medidas).` : ''}

| execução | sem a cópia vendas/s | com a cópia vendas/s | com ÷ sem | segmentos enviados | lotes 503 | carga |
| --- | --- | --- | --- | --- | --- | --- |
${linhasCp.join('\n')}
`;
}
