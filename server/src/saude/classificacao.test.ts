/**
 * Which failures are the server's ground giving way (503 with Retry-After) and which stay a 500, and an
 * error as the log writes it: drizzle's parameters, PostgreSQL's row values and quoted inputs removed,
 * the SQL text, codes and cause chain kept.
 */
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { ErroApp } from '../errors';
import { erroSemParametros, mensagemSemParametros } from './erroNoLog';
import { classificarIndisponibilidade } from './indisponibilidade';

const comCodigo = (mensagem: string, code: string) => Object.assign(new Error(mensagem), { code });

describe('classificarIndisponibilidade', () => {
  it.each([
    ['SQLite ocupado além da espera', comCodigo('database is locked', 'SQLITE_BUSY'), 'banco'],
    ['SQLite com erro de E/S', comCodigo('disk I/O error', 'SQLITE_IOERR_WRITE'), 'banco'],
    ['SQLite sem abrir o arquivo', comCodigo('unable to open database file', 'SQLITE_CANTOPEN'), 'banco'],
    ['SQLite com a conexão fechada', new TypeError('The database connection is not open'), 'banco'],
    ['SQLite cheio', comCodigo('database or disk is full', 'SQLITE_FULL'), 'disco'],
    ['arquivo sem espaço', comCodigo('ENOSPC: no space left on device, write', 'ENOSPC'), 'disco'],
    ['PostgreSQL recusando conexão', comCodigo('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'), 'banco'],
    ['PostgreSQL encerrando', comCodigo('terminating connection due to administrator command', '57P01'), 'banco'],
    ['PostgreSQL sem disco', comCodigo('could not extend file', '53100'), 'disco'],
    ['conexão do PostgreSQL cortada', new Error('Connection terminated unexpectedly'), 'banco'],
    ['pool esgotado', new Error('timeout exceeded when trying to connect'), 'banco'],
    ['dentro do erro do drizzle', new DrizzleQueryError('select 1', [], comCodigo('connect ECONNREFUSED', 'ECONNREFUSED')), 'banco'],
  ])('%s', (_nome, erro, tipo) => {
    expect(classificarIndisponibilidade(erro)).toBe(tipo);
  });

  it.each([
    ['um erro de programação', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['uma restrição violada', comCodigo('UNIQUE constraint failed: usuarios.email', 'SQLITE_CONSTRAINT_UNIQUE')],
    ['uma restrição no PostgreSQL', comCodigo('duplicate key value violates unique constraint', '23505')],
    ['uma recusa feita de propósito', new ErroApp(409, 'conflito', 'Conflito.')],
  ])('%s continua sendo o que é', (_nome, erro) => {
    expect(classificarIndisponibilidade(erro)).toBeNull();
  });
});

describe('erros no log sem parâmetros', () => {
  it("o DrizzleQueryError perde a linha 'params' (na mensagem e na pilha) e o campo params; o SQL e a causa ficam", () => {
    const causa = Object.assign(new Error('duplicate key value violates unique constraint "usuarios_email"'), {
      code: '23505',
      detail: 'Key (email)=(joana.privada@exemplo.com.br) already exists.',
      constraint: 'usuarios_email',
      table: 'usuarios',
    });
    const erro = new DrizzleQueryError('insert into "usuarios" ("nome", "email") values ($1, $2)', ['Joana Privada', 'joana.privada@exemplo.com.br'], causa);
    const escrito = JSON.stringify(erroSemParametros(erro));
    expect(escrito).not.toContain('Joana Privada');
    expect(escrito).not.toContain('joana.privada@exemplo.com.br');
    expect(escrito).toContain('insert into \\"usuarios\\" (\\"nome\\", \\"email\\") values ($1, $2)');
    expect(escrito).toContain('params: [omitidos]');
    expect(escrito).toContain('"code":"23505"');
    expect(escrito).toContain('"constraint":"usuarios_email"');
  });

  it('valores entre aspas numa mensagem do PostgreSQL saem', () => {
    expect(mensagemSemParametros('invalid input syntax for type bigint: "123.456.789-00"')).toBe('invalid input syntax for type bigint: "[omitido]"');
    expect(mensagemSemParametros('UNIQUE constraint failed: usuarios.email')).toBe('UNIQUE constraint failed: usuarios.email');
  });
});
