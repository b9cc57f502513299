/** Table access for users. The only module that reads or writes `usuarios`. */
import { and, asc, eq, exists, sql } from 'drizzle-orm';
import type { Usuario, TipoUsuario } from '../../../shared/schemas/usuarios';
import { preparada, type Db } from '../db';
import { rotas, usuarios } from '../db/schema';
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

export function buscarUsuarioPorId(db: Db, id: number): LinhaUsuario | undefined {
  // Every authenticated request runs this: prepared once.
  return preparada(db, 'usuarioPorId', () =>
    db.select().from(usuarios).where(eq(usuarios.id, sql.placeholder('id'))).prepare(),
  ).get({ id });
}

export function buscarUsuarioPorEmail(db: Db, email: string): LinhaUsuario | undefined {
  return db.select().from(usuarios).where(eq(usuarios.email, email)).get();
}

const temRotaAtiva = (db: Db) =>
  exists(
    db
      .select({ um: sql`1` })
      .from(rotas)
      .where(and(eq(rotas.funcionarioId, usuarios.id), eq(rotas.status, 'ativa'))),
  );

/** All users; with `emRota`, only employees with (true) or without (false) an active route. */
export function listarUsuarios(db: Db, filtro: { emRota?: boolean; tipo?: TipoUsuario } = {}): LinhaUsuario[] {
  // 'In a route' (or not) only says something of employees.
  const tipo = filtro.emRota === undefined ? filtro.tipo : 'funcionario';
  const condicoes = [
    ...(tipo ? [eq(usuarios.tipo, tipo)] : []),
    ...(filtro.emRota === undefined ? [] : [filtro.emRota ? temRotaAtiva(db) : sql`not ${temRotaAtiva(db)}`]),
  ];
  const filtrada = db.select().from(usuarios).where(condicoes.length > 0 ? and(...condicoes) : undefined);
  // pt-BR order in JS: SQLite orders bytes ('Íris' after 'Maria').
  return ordenarPorNome(filtrada.orderBy(asc(usuarios.nome), asc(usuarios.id)).all(), (u) => u.nome);
}

/** Active employees, for the pickers of routes, balances and filters. */
export function listarFuncionariosAtivos(db: Db): LinhaUsuario[] {
  const linhas = db
    .select()
    .from(usuarios)
    .where(and(eq(usuarios.tipo, 'funcionario'), eq(usuarios.ativo, true)))
    .orderBy(asc(usuarios.nome), asc(usuarios.id))
    .all();
  return ordenarPorNome(linhas, (u) => u.nome);
}

export function contarUsuarios(db: Db): number {
  return db.select({ n: sql<number>`count(*)` }).from(usuarios).get()!.n;
}

export function contarAdminsAtivos(db: Db): number {
  return db
    .select({ n: sql<number>`count(*)` })
    .from(usuarios)
    .where(and(eq(usuarios.tipo, 'admin'), eq(usuarios.ativo, true)))
    .get()!.n;
}

export function funcionarioTemRotaAtiva(db: Db, id: number): boolean {
  return (
    db
      .select({ id: rotas.id })
      .from(rotas)
      .where(and(eq(rotas.funcionarioId, id), eq(rotas.status, 'ativa')))
      .limit(1)
      .get() !== undefined
  );
}

export interface NovoUsuario {
  nome: string;
  email: string;
  senhaHash: string;
  tipo: TipoUsuario;
}

export function inserirUsuario(db: Db, novo: NovoUsuario): LinhaUsuario {
  return db.insert(usuarios).values(novo).returning().get();
}

export type CamposUsuario = Partial<
  Pick<LinhaUsuario, 'nome' | 'email' | 'tipo' | 'ativo' | 'bloqueado' | 'bloqueadoEm' | 'tentativasLogin' | 'senhaHash'>
>;

export function atualizarUsuario(db: Db, id: number, campos: CamposUsuario): LinhaUsuario | undefined {
  return db
    .update(usuarios)
    .set({ ...campos, atualizadoEm: new Date().toISOString() })
    .where(eq(usuarios.id, id))
    .returning()
    .get();
}

/**
 * Reserves one login attempt before the password is checked, in a single UPDATE ... RETURNING, so
 * parallel guesses cannot all read the count before any failure is written: at most `limite`
 * attempts in a row ever reach the password check. A block whose minutes have passed (began at or
 * before `blocosAte`) is lifted here and the attempt counts as the first of a new series.
 * Undefined: no attempt left (blocked, or `limite` attempts already taken).
 */
export function reservarTentativaDeLogin(db: Db, id: number, limite: number, blocosAte: string): LinhaUsuario | undefined {
  const venceu = sql`(${usuarios.bloqueado} = 1 and coalesce(${usuarios.bloqueadoEm}, ${usuarios.atualizadoEm}) <= ${blocosAte})`;
  return db
    .update(usuarios)
    .set({
      tentativasLogin: sql`case when ${venceu} then 1 else ${usuarios.tentativasLogin} + 1 end`,
      bloqueado: sql`case when ${venceu} then 0 else ${usuarios.bloqueado} end`,
      bloqueadoEm: sql`case when ${venceu} then null else ${usuarios.bloqueadoEm} end`,
    })
    .where(and(eq(usuarios.id, id), sql`((${usuarios.bloqueado} = 0 and ${usuarios.tentativasLogin} < ${limite}) or ${venceu})`))
    .returning()
    .get();
}

/** A reserved attempt failed: at `limite` attempts in a row the account is blocked from now. */
export function registrarFalhaDeLogin(db: Db, id: number, limite: number): void {
  const agora = new Date().toISOString();
  db.update(usuarios)
    .set({ bloqueado: true, bloqueadoEm: agora, atualizadoEm: agora })
    .where(and(eq(usuarios.id, id), eq(usuarios.bloqueado, false), sql`${usuarios.tentativasLogin} >= ${limite}`))
    .run();
}

/** A reserved attempt succeeded: the series starts again (and a hash at an old cost is replaced). */
export function registrarLoginCerto(db: Db, id: number, troca?: { de: string; para: string }): LinhaUsuario {
  // Only the hash that was checked is replaced: a password changed meanwhile stays.
  const senhaHash = troca ? sql`case when ${usuarios.senhaHash} = ${troca.de} then ${troca.para} else ${usuarios.senhaHash} end` : undefined;
  return db
    .update(usuarios)
    .set({ tentativasLogin: 0, ...(senhaHash ? { senhaHash } : {}) })
    .where(eq(usuarios.id, id))
    .returning()
    .get()!;
}
