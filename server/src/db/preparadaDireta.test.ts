import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { recursosDoProjeto } from '../recursos';
import { abrirBanco, insercaoPosicional, preparadaDireta } from './index';
import { usuarios } from './schema';

const db = abrirBanco({ arquivo: ':memory:', pastaMigracoes: recursosDoProjeto().pastaMigracoes });
afterAll(() => db.$client.close());

/** An employee with placeholders for name, e-mail and active, and fixed values for the rest. */
const insercaoDeUsuario = () =>
  db.insert(usuarios).values({
    nome: sql.placeholder('nome'),
    email: sql.placeholder('email'),
    senhaHash: 'hash-fixo',
    tipo: 'funcionario',
    ativo: sql.placeholder('ativo'),
  });

const inserir = () => preparadaDireta(db, 'teste.inserirUsuario', insercaoDeUsuario);

const idPorEmail = (email: string) => (db.$client.prepare('select id from usuarios where email = ?').get(email) as { id: number }).id;

describe('preparadaDireta', () => {
  it('grava o que o construtor do drizzle grava: placeholders, valores fixos e a conversão de cada coluna (booleano vira 0/1)', async () => {
    expect(await inserir().run({ nome: 'Ana Estrada', email: 'ana@escola.com.br', ativo: false })).toBe(1);
    const id = idPorEmail('ana@escola.com.br');
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

  it('a linha vem na ordem dos campos do select; sem resultado, undefined', async () => {
    await inserir().run({ nome: 'Bruno Campo', email: 'bruno@escola.com.br', ativo: true });
    const id = idPorEmail('bruno@escola.com.br');
    const consulta = () =>
      preparadaDireta(db, 'teste.usuarioPorId', () =>
        db
          .select({ email: usuarios.email, ativo: usuarios.ativo, nome: usuarios.nome })
          .from(usuarios)
          .where(eq(usuarios.id, sql.placeholder('id'))),
      );
    expect(await consulta().linha({ id })).toEqual(['bruno@escola.com.br', 1, 'Bruno Campo']);
    expect(await consulta().linha({ id: 999_999 })).toBeUndefined();
    expect(await consulta().todas({ id })).toEqual([['bruno@escola.com.br', 1, 'Bruno Campo']]);
  });

  it('um placeholder sem valor é um erro (lançado na hora no SQLite), não um NULL gravado', async () => {
    expect(() => inserir().run({ nome: 'Carla Serra', ativo: true })).toThrow('Sem valor para "email".');
    expect(db.$client.prepare("select count(*) as n from usuarios where nome = 'Carla Serra'").get()).toEqual({ n: 0 });
  });
});

describe('insercaoPosicional', () => {
  const construir = insercaoDeUsuario;

  it('grava os valores na ordem da lista de nomes, não na do comando; valores fixos e a conversão de cada coluna continuam (booleano vira 0/1)', () => {
    const inserir = insercaoPosicional(db, 'teste.posicional', ['ativo', 'email', 'nome'], construir);
    expect(inserir(false, 'dora@escola.com.br', 'Dora Vale')).toBe(1);
    expect(db.$client.prepare('select nome, email, senha_hash, tipo, ativo from usuarios where id = ?').get(idPorEmail('dora@escola.com.br'))).toEqual({
      nome: 'Dora Vale',
      email: 'dora@escola.com.br',
      senha_hash: 'hash-fixo',
      tipo: 'funcionario',
      ativo: 0,
    });
    // Prepared once per database and key: the same command again.
    expect(insercaoPosicional(db, 'teste.posicional', ['ativo', 'email', 'nome'], construir)).toBe(inserir);
  });

  it('na ordem do comando e sem conversão, os valores vão direto; responde quantas linhas mudaram', () => {
    const inserir = insercaoPosicional(db, 'teste.posicionalDireto', ['nome', 'email'], () =>
      db.insert(usuarios).values({ nome: sql.placeholder('nome'), email: sql.placeholder('email'), senhaHash: 'x', tipo: 'admin' }).onConflictDoNothing(),
    );
    expect(inserir('Elias Prado', 'elias@escola.com.br')).toBe(1);
    expect(inserir('Elias de Novo', 'elias@escola.com.br')).toBe(0);
    expect(db.$client.prepare('select nome from usuarios where email = ?').get('elias@escola.com.br')).toEqual({ nome: 'Elias Prado' });
  });

  it('um marcador fora da lista de nomes é um erro ao preparar, antes de gravar qualquer coisa', () => {
    expect(() => insercaoPosicional(db, 'teste.posicionalIncompleto', ['nome', 'email'], construir)).toThrow('"ativo" não está na lista de valores.');
  });
});
