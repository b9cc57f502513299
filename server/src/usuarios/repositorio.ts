/** Table access for users. The only module that reads or writes `usuarios`. */
import { and, asc, eq, exists, or, sql } from 'drizzle-orm';
import type { Usuario, TipoUsuario } from '../../../shared/schemas/usuarios';
import { preparada, type Db } from '../db';
import { rotas, usuarios } from '../db/tabelas';
import { ordenarPorNome } from '../../../shared/texto';

export type LinhaUsuario = typeof usuarios.$inferSelect;

/**
 * When a block lifts by itself: LOGIN_BLOQUEIO_MINUTOS after it began (a row blocked before the
 * start time was recorded counts from its last change). Null when not blocked.
 */
export function fimDoBloqueio(u: Pick<LinhaUsuario, 'bloqueado' | 'bloqueadoEm' | 'atualizadoEm'>, minutos: number): Date | null {
  if (!u.bloqueado) return null;
  return new Date(Date.parse(u.bloqueadoEm ?? u.atualizadoEm) + minutos * 60_000);
}

/** Blocked now: blocked and the minutes not yet passed. */
export function bloqueadoAgora(u: Pick<LinhaUsuario, 'bloqueado' | 'bloqueadoEm' | 'atualizadoEm'>, minutos: number, agora = Date.now()): boolean {
  const fim = fimDoBloqueio(u, minutos);
  return fim !== null && fim.getTime() > agora;
}

/** The public shape: never the hash. A block whose minutes have passed shows as lifted. */
export function apresentarUsuario(u: LinhaUsuario, bloqueioMinutos: number): Usuario {
  const bloqueado = bloqueadoAgora(u, bloqueioMinutos);
  return {
    id: u.id,
    nome: u.nome,
    email: u.email,
    tipo: u.tipo,
    ativo: u.ativo,
    bloqueado,
    bloqueado_ate: bloqueado ? fimDoBloqueio(u, bloqueioMinutos)!.toISOString() : null,
    tentativas_login: bloqueado || !u.bloqueado ? u.tentativasLogin : 0,
    data_criacao: u.dataCriacao,
  };
}

/**
 * A select prepared under a name: PostgreSQL keeps a named statement per connection; SQLite's prepare
 * takes no name (drizzle's types say so) and ignores it.
 */
export function prepararComNome<Q extends { prepare(): unknown }>(consulta: Q, nome: string): ReturnType<Q['prepare']> {
  return (consulta.prepare as (this: Q, nome: string) => ReturnType<Q['prepare']>).call(consulta, nome);
}

export async function buscarUsuarioPorId(db: Db, id: number): Promise<LinhaUsuario | undefined> {
  // Every authenticated request runs this: prepared once.
  const consulta = preparada(db, 'usuarioPorId', () =>
    prepararComNome(db.select().from(usuarios).where(eq(usuarios.id, sql.placeholder('id'))), 'usuarioPorId'),
  );
  return (await consulta.execute({ id }))[0];
}

export async function buscarUsuarioPorEmail(db: Db, email: string): Promise<LinhaUsuario | undefined> {
  const [usuario] = await db.select().from(usuarios).where(eq(usuarios.email, email)).limit(1);
  return usuario;
}

const temRotaAtiva = (db: Db) =>
  exists(
    db
      .select({ um: sql`1` })
      .from(rotas)
      .where(and(eq(rotas.funcionarioId, usuarios.id), eq(rotas.status, 'ativa'))),
  );

/** All users; with `emRota`, only employees with (true) or without (false) an active route. */
export async function listarUsuarios(db: Db, filtro: { emRota?: boolean; tipo?: TipoUsuario } = {}): Promise<LinhaUsuario[]> {
  // 'In a route' (or not) only says something of employees.
  const tipo = filtro.emRota === undefined ? filtro.tipo : 'funcionario';
  const condicoes = [
    ...(tipo ? [eq(usuarios.tipo, tipo)] : []),
    ...(filtro.emRota === undefined ? [] : [filtro.emRota ? temRotaAtiva(db) : sql`not ${temRotaAtiva(db)}`]),
  ];
  const filtrada = db.select().from(usuarios).where(condicoes.length > 0 ? and(...condicoes) : undefined);
  // pt-BR order in JS: both engines order bytes ('Íris' after 'Maria').
  return ordenarPorNome(await filtrada.orderBy(asc(usuarios.nome), asc(usuarios.id)), (u) => u.nome);
}

/**
 * Active employees, for the pickers of routes, balances and filters. `inativosComRotas`: also the
 * inactive ones who have any route (a report filter: their routes stay reportable).
 */
export async function listarFuncionariosAtivos(db: Db, { inativosComRotas = false } = {}): Promise<LinhaUsuario[]> {
  const temRota = exists(db.select({ um: sql`1` }).from(rotas).where(eq(rotas.funcionarioId, usuarios.id)));
  const linhas = await db
    .select()
    .from(usuarios)
    .where(and(eq(usuarios.tipo, 'funcionario'), inativosComRotas ? or(eq(usuarios.ativo, true), temRota) : eq(usuarios.ativo, true)))
    .orderBy(asc(usuarios.nome), asc(usuarios.id));
  return ordenarPorNome(linhas, (u) => u.nome);
}

export async function contarUsuarios(db: Db): Promise<number> {
  const [contagem] = await db.select({ n: sql<number>`count(*)` }).from(usuarios);
  return contagem!.n;
}

export async function contarAdminsAtivos(db: Db): Promise<number> {
  const [contagem] = await db
    .select({ n: sql<number>`count(*)` })
    .from(usuarios)
    .where(and(eq(usuarios.tipo, 'admin'), eq(usuarios.ativo, true)));
  return contagem!.n;
}

export async function funcionarioTemRotaAtiva(db: Db, id: number): Promise<boolean> {
  const [rota] = await db
    .select({ id: rotas.id })
    .from(rotas)
    .where(and(eq(rotas.funcionarioId, id), eq(rotas.status, 'ativa')))
    .limit(1);
  return rota !== undefined;
}

export interface NovoUsuario {
  nome: string;
  email: string;
  senhaHash: string;
  tipo: TipoUsuario;
}

export async function inserirUsuario(db: Db, novo: NovoUsuario): Promise<LinhaUsuario> {
  const [inserido] = await db.insert(usuarios).values(novo).returning();
  return inserido!;
}

export type CamposUsuario = Partial<
  Pick<LinhaUsuario, 'nome' | 'email' | 'tipo' | 'ativo' | 'bloqueado' | 'bloqueadoEm' | 'tentativasLogin' | 'senhaHash'>
>;

export async function atualizarUsuario(db: Db, id: number, campos: CamposUsuario): Promise<LinhaUsuario | undefined> {
  const [atualizado] = await db
    .update(usuarios)
    .set({ ...campos, atualizadoEm: new Date().toISOString() })
    .where(eq(usuarios.id, id))
    .returning();
  return atualizado;
}

/**
 * Reserves one login attempt before the password is checked, in a single UPDATE ... RETURNING, so
 * parallel guesses cannot all read the count before any failure is written: at most `limite`
 * attempts in a row ever reach the password check. A block whose minutes have passed (began at or
 * before `blocosAte`) is lifted here and the attempt counts as the first of a new series.
 * Undefined: no attempt left (blocked, or `limite` attempts already taken).
 */
export async function reservarTentativaDeLogin(db: Db, id: number, limite: number, blocosAte: string): Promise<LinhaUsuario | undefined> {
  const venceu = sql`(${usuarios.bloqueado} = true and coalesce(${usuarios.bloqueadoEm}, ${usuarios.atualizadoEm}) <= ${blocosAte})`;
  const [reservado] = await db
    .update(usuarios)
    .set({
      tentativasLogin: sql`case when ${venceu} then 1 else ${usuarios.tentativasLogin} + 1 end`,
      bloqueado: sql`case when ${venceu} then false else ${usuarios.bloqueado} end`,
      bloqueadoEm: sql`case when ${venceu} then null else ${usuarios.bloqueadoEm} end`,
    })
    .where(and(eq(usuarios.id, id), sql`((${usuarios.bloqueado} = false and ${usuarios.tentativasLogin} < ${limite}) or ${venceu})`))
    .returning();
  return reservado;
}

/** A reserved attempt failed: at `limite` attempts in a row the account is blocked from now. */
export async function registrarFalhaDeLogin(db: Db, id: number, limite: number): Promise<void> {
  const agora = new Date().toISOString();
  await db
    .update(usuarios)
    .set({ bloqueado: true, bloqueadoEm: agora, atualizadoEm: agora })
    .where(and(eq(usuarios.id, id), eq(usuarios.bloqueado, false), sql`${usuarios.tentativasLogin} >= ${limite}`));
}

/** A reserved attempt succeeded: the series starts again (and a hash at an old cost is replaced). */
export async function registrarLoginCerto(db: Db, id: number, troca?: { de: string; para: string }): Promise<LinhaUsuario> {
  // Only the hash that was checked is replaced: a password changed meanwhile stays.
  const senhaHash = troca ? sql`case when ${usuarios.senhaHash} = ${troca.de} then ${troca.para} else ${usuarios.senhaHash} end` : undefined;
  const [atualizado] = await db
    .update(usuarios)
    .set({ tentativasLogin: 0, ...(senhaHash ? { senhaHash } : {}) })
    .where(eq(usuarios.id, id))
    .returning();
  return atualizado!;
}
