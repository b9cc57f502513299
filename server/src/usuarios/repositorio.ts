/** Table access for users. The only module that reads or writes `usuarios`. */
import { and, asc, eq, exists, sql } from 'drizzle-orm';
import type { Usuario, TipoUsuario } from '../../../shared/schemas/usuarios';
import { preparada, type Db } from '../db';
import { rotas, usuarios } from '../db/schema';
import { ordenarPorNome } from '../../../shared/texto';

export type LinhaUsuario = typeof usuarios.$inferSelect;

/** The public shape: never the hash. */
export function apresentarUsuario(u: LinhaUsuario): Usuario {
  return {
    id: u.id,
    nome: u.nome,
    email: u.email,
    tipo: u.tipo,
    ativo: u.ativo,
    bloqueado: u.bloqueado,
    tentativas_login: u.tentativasLogin,
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
export function listarUsuarios(db: Db, filtro: { emRota?: boolean } = {}): LinhaUsuario[] {
  const q = db.select().from(usuarios);
  const filtrada =
    filtro.emRota === undefined
      ? q
      : q.where(and(eq(usuarios.tipo, 'funcionario'), filtro.emRota ? temRotaAtiva(db) : sql`not ${temRotaAtiva(db)}`));
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
  Pick<LinhaUsuario, 'nome' | 'email' | 'tipo' | 'ativo' | 'bloqueado' | 'tentativasLogin' | 'senhaHash' | 'sessaoVersao'>
>;

export function atualizarUsuario(db: Db, id: number, campos: CamposUsuario): LinhaUsuario | undefined {
  return db
    .update(usuarios)
    .set({ ...campos, atualizadoEm: new Date().toISOString() })
    .where(eq(usuarios.id, id))
    .returning()
    .get();
}

/** Counts a failed login atomically and blocks at the limit; returns the updated row. */
export function registrarFalhaDeLogin(db: Db, id: number, limite: number): LinhaUsuario {
  return db
    .update(usuarios)
    .set({
      tentativasLogin: sql`${usuarios.tentativasLogin} + 1`,
      bloqueado: sql`${usuarios.bloqueado} or ${usuarios.tentativasLogin} + 1 >= ${limite}`,
      atualizadoEm: new Date().toISOString(),
    })
    .where(eq(usuarios.id, id))
    .returning()
    .get()!;
}
