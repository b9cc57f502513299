/**
 * The tables as the data functions use them, on the engine this process runs on.
 * schema.ts (SQLite) and schema.pg.ts (PostgreSQL) declare the same tables with the same names, checked
 * by esquemas.test.ts; drizzle builds a query from the table objects of its own dialect. Every data
 * function imports its tables from here, not from a schema file: a process runs on one engine, chosen
 * once when its database opens (abrirBancoPostgres calls usarTabelasDoPostgres), and these bindings
 * then point at that engine's declarations. The types stay SQLite's: the two declarations have the same
 * columns with the same JavaScript types, which is what the queries' types are built from.
 */
import * as pg from './schema.pg';
import * as sqlite from './schema';

export let usuarios = sqlite.usuarios;
export let sessoes = sqlite.sessoes;
export let tentativasLoginPorEndereco = sqlite.tentativasLoginPorEndereco;
export let estados = sqlite.estados;
export let cidades = sqlite.cidades;
export let rotas = sqlite.rotas;
export let rotaCidades = sqlite.rotaCidades;
export let visitas = sqlite.visitas;
export let vendas = sqlite.vendas;
export let despesas = sqlite.despesas;
export let despesaCupons = sqlite.despesaCupons;
export let movimentacoesSaldo = sqlite.movimentacoesSaldo;
export let dispositivos = sqlite.dispositivos;
export let operacoesAplicadas = sqlite.operacoesAplicadas;
export let operacoesTardias = sqlite.operacoesTardias;
export let auditoria = sqlite.auditoria;

let motorDasTabelas: 'sqlite' | 'postgres' = 'sqlite';

/** Which engine's declarations the bindings above hold. */
export function motorDasTabelasEmUso(): 'sqlite' | 'postgres' {
  return motorDasTabelas;
}

/**
 * Points every binding at PostgreSQL's declarations. Once per process, before the first query; a
 * process that already ran SQLite queries through these bindings must not switch (its cached prepared
 * statements would mix dialects), so switching back is not offered.
 */
export function usarTabelasDoPostgres(): void {
  if (motorDasTabelas === 'postgres') return;
  const como = <T>(tabela: unknown) => tabela as T;
  usuarios = como<typeof sqlite.usuarios>(pg.usuarios);
  sessoes = como<typeof sqlite.sessoes>(pg.sessoes);
  tentativasLoginPorEndereco = como<typeof sqlite.tentativasLoginPorEndereco>(pg.tentativasLoginPorEndereco);
  estados = como<typeof sqlite.estados>(pg.estados);
  cidades = como<typeof sqlite.cidades>(pg.cidades);
  rotas = como<typeof sqlite.rotas>(pg.rotas);
  rotaCidades = como<typeof sqlite.rotaCidades>(pg.rotaCidades);
  visitas = como<typeof sqlite.visitas>(pg.visitas);
  vendas = como<typeof sqlite.vendas>(pg.vendas);
  despesas = como<typeof sqlite.despesas>(pg.despesas);
  despesaCupons = como<typeof sqlite.despesaCupons>(pg.despesaCupons);
  movimentacoesSaldo = como<typeof sqlite.movimentacoesSaldo>(pg.movimentacoesSaldo);
  dispositivos = como<typeof sqlite.dispositivos>(pg.dispositivos);
  operacoesAplicadas = como<typeof sqlite.operacoesAplicadas>(pg.operacoesAplicadas);
  operacoesTardias = como<typeof sqlite.operacoesTardias>(pg.operacoesTardias);
  auditoria = como<typeof sqlite.auditoria>(pg.auditoria);
  motorDasTabelas = 'postgres';
}
