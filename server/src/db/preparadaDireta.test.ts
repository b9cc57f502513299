import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { recursosDoProjeto } from '../recursos';
import { abrirBanco, preparadaDireta } from './index';
import { usuarios } from './schema';

const db = abrirBanco({ arquivo: ':memory:', pastaMigracoes: recursosDoProjeto().pastaMigracoes });
afterAll(() => db.$client.close());

const inserir = () =>
  preparadaDireta(db, 'teste.inserirUsuario', () =>
    db.insert(usuarios).values({
      nome: sql.placeholder('nome'),
      email: sql.placeholder('email'),
      senhaHash: 'hash-fixo',
      tipo: 'funcionario',
      ativo: sql.placeholder('ativo'),
    }),
  );

describe('preparadaDireta', () => {
  it('grava o que o construtor do drizzle grava: placeholders, valores fixos e a conversão de cada coluna (booleano vira 0/1)', () => {
    const r = inserir().run({ nome: 'Ana Estrada', email: 'ana@escola.com.br', ativo: false });
    expect(r.changes).toBe(1);
    const id = Number(r.lastInsertRowid);
    expect(db.$client.prepare('select nome, email, senha_hash, tipo, ativo from usuarios where id = ?').get(id)).toEqual({
      nome: 'Ana Estrada',
      email: 'ana@escola.com.br',
      senha_hash: 'hash-fixo',
      tipo: 'funcionario',
      ativo: 0,
    });
    // Drizzle reads back the same row.
    expect(db.select({ ativo: usuarios.ativo }).from(usuarios).where(eq(usuarios.id, id)).get()).toEqual({ ativo: false });
  });

  it('a linha vem na ordem dos campos do select; sem resultado, undefined', () => {
    const id = Number(inserir().run({ nome: 'Bruno Campo', email: 'bruno@escola.com.br', ativo: true }).lastInsertRowid);
    const consulta = () =>
      preparadaDireta(db, 'teste.usuarioPorId', () =>
        db
          .select({ email: usuarios.email, ativo: usuarios.ativo, nome: usuarios.nome })
          .from(usuarios)
          .where(eq(usuarios.id, sql.placeholder('id'))),
      );
    expect(consulta().linha({ id })).toEqual(['bruno@escola.com.br', 1, 'Bruno Campo']);
    expect(consulta().linha({ id: 999_999 })).toBeUndefined();
  });

  it('um placeholder sem valor é um erro, não um NULL gravado', () => {
    expect(() => inserir().run({ nome: 'Carla Serra', ativo: true })).toThrow('Sem valor para "email".');
    expect(db.$client.prepare("select count(*) as n from usuarios where nome = 'Carla Serra'").get()).toEqual({ n: 0 });
  });
});
