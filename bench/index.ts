/**
 * `npm run bench`: every benchmark of the project, each figure a ratio against a baseline measured
 * in the same run, written to bench/resultados.json and docs/performance.md.
 * BENCH_SO=api,sync,cliente runs only some parts (the others keep their last figures).
 * BENCH_RAPIDO=1: shorter runs, to check the machinery (figures not worth publishing).
 */
import fs from 'node:fs';
import os from 'node:os';
import { medirApi, type ResultadoApi } from './api';
import { CENARIOS, medirCampo, type ParCampo, type ResultadoCampo, type ResumoCampo } from './campo';
import { medirCliente, type ResultadoCliente } from './cliente';
import { medirLeituras, type ResultadoLeituras } from './leituras';
import { medirLeiturasAdmin, type ResultadoLeiturasAdmin } from './leituras-admin';
import { medirLighthouse, REPETICOES_VISITAS, RODADAS_LIGHTHOUSE, type ResultadoLighthouse } from './lighthouse';
import { medirPostgres, type ResultadoPostgres } from './postgres';
import { medirCopia, medirPostgres50, type ExecucaoCarga } from './carga';
import { relatorio } from './relatorio';
import { AQUECIMENTO, comEstaExecucao, medirSync, type ExecucaoSync, type MedidaSync } from './sync';
import { medirUploads, secaoUploads, type ResultadoUploads } from './uploads';

export interface Resultados {
  maquina?: { cpus: number; modelo: string; memoriaGiB: number; node: string };
  api?: ResultadoApi & { medidoEm: string };
  /** `execucoes`: the recent runs' figures (the page lists them: before and after a change, each on its commit). */
  sync?: { medidas: MedidaSync[]; repeticoes: number; aquecimento?: number; medidoEm: string; execucoes?: ExecucaoSync[] };
  cliente?: ResultadoCliente & { medidoEm: string };
  uploads?: ResultadoUploads & { medidoEm: string };
  leituras?: ResultadoLeituras & { medidoEm: string };
  /** The admin's reads at 1x and 5x data and the event loop during an export (bench/leituras-admin.ts). */
  leiturasAdmin?: ResultadoLeiturasAdmin & { medidoEm: string };
  /** Lighthouse mobile, first visit to the login and repeat visit to Vendas (bench/lighthouse.ts). */
  lighthouse?: ResultadoLighthouse & { medidoEm: string };
  /** The field day; `antes`: the 'Today' column, measured on the engine before it sent text ahead of receipts (BENCH_CAMPO_ANTES=1). */
  campo?: ResultadoCampo & { medidoEm: string; antes?: ResumoCampo; par?: ParCampo };
  /** The sync replay and the admin's reads on PostgreSQL with two processes, against SQLite with one (bench/postgres.ts). */
  postgres?: ResultadoPostgres & { medidoEm: string };
  /** 50 phones on PostgreSQL against the bare replay, and 10 phones with the continuous copy against none (bench/carga.ts): the recent runs, newest first. */
  carga?: { execucoes: ExecucaoCarga[] };
}

const ARQUIVO = 'bench/resultados.json';
const partes = new Set((process.env.BENCH_SO ?? 'api,sync,cliente,leituras,uploads,campo,leiturasAdmin,postgres,carga').split(',').map((p) => p.trim()));
const rapido = process.env.BENCH_RAPIDO === '1';
const agora = () => new Date().toISOString();
const TITULO_UPLOADS = '## Uploads em paralelo';

const resultados: Resultados = fs.existsSync(ARQUIVO) ? (JSON.parse(fs.readFileSync(ARQUIVO, 'utf8')) as Resultados) : {};
resultados.maquina = { cpus: os.cpus().length, modelo: os.cpus()[0]?.model ?? '?', memoriaGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version };

/** The parts this run measured; the others are re-read at each save (another bench may have written them meanwhile). */
const medidasDestaExecucao = new Set<keyof Resultados>(['maquina']);
const salvar = () => {
  const noDisco = fs.existsSync(ARQUIVO) ? (JSON.parse(fs.readFileSync(ARQUIVO, 'utf8')) as Resultados) : {};
  for (const chave of new Set([...Object.keys(resultados), ...Object.keys(noDisco)]) as Set<keyof Resultados>) {
    if (!medidasDestaExecucao.has(chave)) (resultados as Record<string, unknown>)[chave] = noDisco[chave];
  }
  fs.writeFileSync(ARQUIVO, `${JSON.stringify(resultados, null, 2)}\n`);
  // Uploads measured alone (npx tsx bench/uploads.ts) write only their section: keep it when this run has no figures of its own.
  const anterior = fs.existsSync('docs/performance.md') ? fs.readFileSync('docs/performance.md', 'utf8') : '';
  // Only that section: up to the next '## ' title (sections after it come from relatorio()).
  const inicioUploads = anterior.indexOf(TITULO_UPLOADS);
  const fimUploads = inicioUploads < 0 ? -1 : anterior.indexOf('\n## ', inicioUploads + TITULO_UPLOADS.length);
  const uploadsAnterior = inicioUploads < 0 ? '' : anterior.slice(inicioUploads, fimUploads < 0 ? undefined : fimUploads + 1);
  const uploads = resultados.uploads ? secaoUploads(resultados.uploads, resultados.uploads.medidoEm) : uploadsAnterior ? `\n${uploadsAnterior}` : '';
  fs.writeFileSync('docs/performance.md', relatorio(resultados) + uploads);
};

if (partes.has('api')) {
  console.log('API sob carga (um ano de dados):');
  medidasDestaExecucao.add('api');
  resultados.api = { ...(await medirApi(rapido ? 3 : 10)), medidoEm: agora() };
  salvar();
}
if (partes.has('sync')) {
  console.log('Sincronização de uma fila de vendas:');
  // At least seven interleaved rounds per size, more for the short one (bench/sync.ts, rodadasPara):
  // a 1,000-sale window lasts ~25 ms a side, and one slow moment of a 2-core machine moves it by 10%.
  const repeticoes = rapido ? 1 : 7;
  medidasDestaExecucao.add('sync');
  const medidas = await medirSync(rapido ? [1_000] : [1_000, 5_000], repeticoes);
  const medidoEm = agora();
  // Quick runs check the machinery: their figures are not kept among the runs.
  const execucoes = rapido ? resultados.sync?.execucoes : comEstaExecucao(resultados.sync?.execucoes, medidas, medidoEm);
  resultados.sync = { medidas, repeticoes, aquecimento: AQUECIMENTO, medidoEm, ...(execucoes ? { execucoes } : {}) };
  salvar();
}
if (partes.has('cliente')) {
  console.log('Cliente (Chromium, celular):');
  medidasDestaExecucao.add('cliente');
  resultados.cliente = { ...(await medirCliente(rapido ? 2 : 5)), medidoEm: agora() };
  salvar();
}
if (partes.has('leituras')) {
  console.log('Leitores pesados e o health check:');
  medidasDestaExecucao.add('leituras');
  resultados.leituras = { ...(await medirLeituras(rapido ? 1 : 5, resultados.leituras)), medidoEm: agora() };
  salvar();
}
// First and repeat visits (BENCH_SO=lighthouse): part of every full run.
if (partes.has('lighthouse') || !process.env.BENCH_SO) {
  console.log('Primeira visita, visita repetida e Lighthouse mobile:');
  medidasDestaExecucao.add('lighthouse');
  resultados.lighthouse = { ...(await medirLighthouse(rapido ? 1 : RODADAS_LIGHTHOUSE, rapido ? 2 : REPETICOES_VISITAS)), medidoEm: agora() };
  salvar();
}
if (partes.has('uploads')) {
  console.log('Uploads em paralelo, memória do servidor:');
  medidasDestaExecucao.add('uploads');
  resultados.uploads = { ...(await medirUploads(rapido ? 1 : 5)), medidoEm: agora() };
  salvar();
}
if (partes.has('campo')) {
  console.log('Dia de campo na rede do celular:');
  medidasDestaExecucao.add('campo');
  const anterior = resultados.campo;
  const medido = await medirCampo({ rapido });
  // Scenarios this run left out (BENCH_CAMPO_CENARIOS) keep their last figures.
  const juntar = (novos: ResultadoCampo['cenarios'], velhos: ResultadoCampo['cenarios'] = []) =>
    CENARIOS.map((c) => novos.find((n) => n.nome === c.nome) ?? velhos.find((v) => v.nome === c.nome)).filter((c) => c !== undefined);
  const campo = { ...medido, cenarios: juntar(medido.cenarios, anterior?.cenarios), semEvento: medido.semEvento ?? anterior?.semEvento ?? null, medidoEm: agora() };
  // BENCH_CAMPO_ANTES=1: this run is the 'Today' column (the engine before it sent text ahead of receipts); otherwise the earlier one stays.
  const antes: ResumoCampo | undefined =
    process.env.BENCH_CAMPO_ANTES === '1'
      ? { commit: campo.commit, cenarios: juntar(campo.cenarios, anterior?.antes?.cenarios), semEvento: medido.semEvento ?? anterior?.antes?.semEvento ?? null, medidoEm: campo.medidoEm }
      : anterior?.antes;
  // The alternating pair (bench/campo-par.ts) is written by its own script: a run here keeps it.
  resultados.campo = { ...campo, ...(antes ? { antes } : {}), ...(anterior?.par ? { par: anterior.par } : {}) };
  salvar();
}
if (partes.has('leiturasAdmin')) {
  console.log('Leituras do admin e exportações, 1x e 5x os dados:');
  medidasDestaExecucao.add('leiturasAdmin');
  resultados.leiturasAdmin = { ...(await medirLeiturasAdmin(rapido ? 1 : 5, rapido ? 2 : 4)), medidoEm: agora() };
  salvar();
}
if (partes.has('postgres')) {
  console.log('PostgreSQL com dois processos contra SQLite com um:');
  medidasDestaExecucao.add('postgres');
  // BENCH_PG_FUNCIONARIOS: the data's size (default 20 employees: 40% of bench/dados.ts's year, copied into PostgreSQL in well under a minute).
  const funcionarios = Number(process.env.BENCH_PG_FUNCIONARIOS ?? (rapido ? 4 : 20));
  resultados.postgres = {
    ...(await medirPostgres({
      funcionarios,
      quantidades: rapido ? [1_000] : [1_000, 5_000],
      // More rounds for the short queue: its window is a fraction of a second.
      rodadas: (quantas) => (rapido ? 2 : quantas <= 1_000 ? 9 : 5),
      rodadasLeitura: rapido ? 1 : 3,
      segundos: rapido ? 2 : 4,
    })),
    medidoEm: agora(),
  };
  salvar();
}
if (partes.has('carga')) {
  console.log('Carga concorrente: 50 celulares no PostgreSQL, 10 com a cópia contínua:');
  medidasDestaExecucao.add('carga');
  const execucao: ExecucaoCarga = {
    medidoEm: agora(),
    postgres50: await medirPostgres50({ celulares: 50, vendasPorCelular: rapido ? 50 : 250, rodadas: rapido ? 1 : 3 }),
    copia: await medirCopia({ celulares: 10, vendasPorCelular: rapido ? 100 : 500, rodadas: rapido ? 2 : 5 }),
  };
  // The last five runs stay on the page: the spread between runs is part of the figure on a shared machine.
  if (!rapido) resultados.carga = { execucoes: [execucao, ...(resultados.carga?.execucoes ?? [])].slice(0, 5) };
  salvar();
}
salvar();
console.log(`Resultados em ${ARQUIVO} e docs/performance.md`);
