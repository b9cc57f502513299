import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { booleano, contagem, data, dataOpcional, dinheiro, email, idInteiro, opcao, paramsId, senha, texto, textoOpcional, uuidCliente } from './campos';

/** The value the schema produces, or the first refusal message. */
function ler(schema: z.ZodType, valor: unknown): { ok: unknown } | { erro: string } {
  const r = schema.safeParse(valor);
  return r.success ? { ok: r.data } : { erro: r.error.issues[0]!.message };
}

describe('dinheiro', () => {
  const valor = dinheiro('Valor');

  it.each([
    [12.5, 1250],
    ['12,50', 1250],
    ['12.50', 1250],
    [' 12,5 ', 1250],
    ['1.234,56', 123456],
    ['1.500', 150000],
    [0, 0],
    [0.1 + 0.2, 30],
    [19.99, 1999],
    [10_000_000, 1_000_000_000],
  ])('%j -> %d centavos', (entrada, centavos) => {
    expect(ler(valor, entrada)).toEqual({ ok: centavos });
  });

  it.each([
    [-1, 'Valor não pode ser negativo.'],
    ['-1,00', 'Valor não pode ser negativo.'],
    [0.001, 'Valor deve ter no máximo 2 casas decimais.'],
    ['12,345', 'Valor deve ter no máximo 2 casas decimais.'],
    ['abc', 'Valor deve ser um número.'],
    ['0x10', 'Valor deve ser um número.'],
    ['1e3', 'Valor deve ser um número.'],
    ['Infinity', 'Valor deve ser um número.'],
    [Number.NaN, 'Valor deve ser um número.'],
    [Infinity, 'Valor deve ser um número.'],
    [true, 'Valor deve ser um número.'],
    [10_000_000.01, 'Valor é alto demais.'],
    [undefined, 'Valor é obrigatório.'],
    [null, 'Valor é obrigatório.'],
    ['', 'Valor é obrigatório.'],
  ])('%j é recusado: %s', (entrada, mensagem) => {
    expect(ler(valor, entrada)).toEqual({ erro: mensagem });
  });

  it('opcional: em branco, ausente ou null vale 0; negativo continua recusado', () => {
    const pix = dinheiro('Pix', { obrigatorio: false });
    for (const vazio of ['', '  ', undefined, null]) expect(ler(pix, vazio), String(vazio)).toEqual({ ok: 0 });
    expect(ler(pix, -5)).toEqual({ erro: 'Pix não pode ser negativo.' });
  });

  it('o gênero do rótulo muda a concordância', () => {
    expect(ler(dinheiro('Despesa', { genero: 'f' }), undefined)).toEqual({ erro: 'Despesa é obrigatória.' });
  });
});

describe('contagem', () => {
  const boletos = contagem('Boletos');
  it('inteiros >= 0; em branco é 0', () => {
    expect(ler(boletos, 3)).toEqual({ ok: 3 });
    expect(ler(boletos, '3')).toEqual({ ok: 3 });
    expect(ler(boletos, '')).toEqual({ ok: 0 });
    expect(ler(boletos, undefined)).toEqual({ ok: 0 });
    expect(ler(boletos, null)).toEqual({ ok: 0 });
  });

  it('recusa frações, negativos e texto', () => {
    expect(ler(boletos, 1.5)).toEqual({ erro: 'Boletos deve ser um número inteiro.' });
    expect(ler(boletos, '1,5')).toEqual({ erro: 'Boletos deve ser um número inteiro.' });
    expect(ler(boletos, -1)).toEqual({ erro: 'Boletos não pode ser negativo.' });
    expect(ler(boletos, 'dois')).toEqual({ erro: 'Boletos deve ser um número inteiro.' });
    expect(ler(boletos, 1_000_001)).toEqual({ erro: 'Boletos é alto demais.' });
  });
});

describe('texto', () => {
  const nome = texto('Nome', { min: 2, max: 10 });
  it('apara espaços e respeita mínimo e máximo', () => {
    expect(ler(nome, '  Ana  ')).toEqual({ ok: 'Ana' });
    expect(ler(nome, 'a'.repeat(10))).toEqual({ ok: 'a'.repeat(10) });
    expect(ler(nome, ' A ')).toEqual({ erro: 'Nome deve ter pelo menos 2 caracteres.' });
    expect(ler(nome, '   ')).toEqual({ erro: 'Nome é obrigatório.' });
    expect(ler(nome, '')).toEqual({ erro: 'Nome é obrigatório.' });
    expect(ler(nome, 'a'.repeat(11))).toEqual({ erro: 'Nome deve ter no máximo 10 caracteres.' });
    expect(ler(nome, `  ${'a'.repeat(10)}  `)).toEqual({ ok: 'a'.repeat(10) });
    expect(ler(nome, 'a'.repeat(100_000))).toEqual({ erro: 'Nome deve ter no máximo 10 caracteres.' });
  });

  it('ausente, nulo ou de outro tipo', () => {
    expect(ler(nome, undefined)).toEqual({ erro: 'Nome é obrigatório.' });
    expect(ler(nome, null)).toEqual({ erro: 'Nome é obrigatório.' });
    expect(ler(nome, 42)).toEqual({ erro: 'Nome deve ser um texto.' });
    expect(ler(nome, ['Ana'])).toEqual({ erro: 'Nome deve ser um texto.' });
  });

  it('com mínimo 1, em branco é "obrigatório", com o gênero do rótulo', () => {
    expect(ler(texto('Descrição', { max: 50, genero: 'f' }), '   ')).toEqual({ erro: 'Descrição é obrigatória.' });
    expect(ler(texto('Motivo', { max: 50 }), '')).toEqual({ erro: 'Motivo é obrigatório.' });
  });

  it('textoOpcional: ausente vira vazio, e também apara', () => {
    const obs = textoOpcional('Observações', 5);
    expect(ler(obs, undefined)).toEqual({ ok: '' });
    expect(ler(obs, null)).toEqual({ ok: '' });
    expect(ler(obs, '  oi  ')).toEqual({ ok: 'oi' });
    expect(ler(obs, '123456')).toEqual({ erro: 'Observações deve ter no máximo 5 caracteres.' });
    expect(ler(obs, 3)).toEqual({ erro: 'Observações deve ser um texto.' });
  });
});

describe('email', () => {
  const e = email();
  it('apara e passa para minúsculas; aceita admin@localhost', () => {
    expect(ler(e, '  Maria.Silva@Escola.COM.br ')).toEqual({ ok: 'maria.silva@escola.com.br' });
    expect(ler(e, 'admin@localhost')).toEqual({ ok: 'admin@localhost' });
    expect(ler(e, 'ADMIN@LOCALHOST')).toEqual({ ok: 'admin@localhost' });
    expect(ler(e, "o'brien+tag@teste.com.br")).toEqual({ ok: "o'brien+tag@teste.com.br" });
  });

  it.each(['joao', 'joao@', '@teste.com', 'jo ao@teste.com', 'joao@teste..com', 'joao@-teste.com', 'a@b@c.com', `${'a'.repeat(250)}@teste.com`])('%j é inválido', (v) => {
    expect(ler(e, v)).toEqual({ erro: 'Email inválido.' });
  });

  it('ausente, vazio ou não texto', () => {
    expect(ler(e, undefined)).toEqual({ erro: 'Email é obrigatório.' });
    expect(ler(e, '  ')).toEqual({ erro: 'Email é obrigatório.' });
    expect(ler(e, 5)).toEqual({ erro: 'Email deve ser um texto.' });
  });
});

describe('senha', () => {
  it('de 6 a 128 caracteres, sem aparar', () => {
    const s = senha();
    expect(ler(s, '123456')).toEqual({ ok: '123456' });
    expect(ler(s, ' 1234 ')).toEqual({ ok: ' 1234 ' });
    expect(ler(s, '12345')).toEqual({ erro: 'Senha deve ter pelo menos 6 caracteres.' });
    expect(ler(s, 'x'.repeat(129))).toEqual({ erro: 'Senha deve ter no máximo 128 caracteres.' });
    expect(ler(s, undefined)).toEqual({ erro: 'Senha é obrigatória.' });
    expect(ler(senha('Nova senha'), 123456)).toEqual({ erro: 'Nova senha deve ser um texto.' });
  });
});

describe('booleano', () => {
  it("aceita true/false e as strings 'true'/'false' do multipart", () => {
    const b = booleano('Status');
    expect(ler(b, true)).toEqual({ ok: true });
    expect(ler(b, 'false')).toEqual({ ok: false });
    for (const v of ['sim', 1, 0, 'TRUE', null]) expect(ler(b, v), String(v)).toEqual({ erro: 'Status deve ser verdadeiro ou falso.' });
  });
});

describe('idInteiro e paramsId', () => {
  it('inteiro positivo, também vindo de texto', () => {
    const id = idInteiro('Rota', 'f');
    expect(ler(id, 7)).toEqual({ ok: 7 });
    expect(ler(id, '7')).toEqual({ ok: 7 });
    expect(ler(id, undefined)).toEqual({ erro: 'Rota é obrigatória.' });
    for (const v of ['abc', 0, -1, 1.5, '1.5', '0x10', '1e2', 2 ** 60]) expect(ler(id, v), String(v)).toEqual({ erro: 'Rota inválida.' });
    expect(ler(paramsId, { id: '12' })).toEqual({ ok: { id: 12 } });
    expect(ler(paramsId, { id: 'abc' })).toEqual({ erro: 'Identificador inválido.' });
  });
});

describe('data e dataOpcional', () => {
  it('data de calendário aaaa-mm-dd', () => {
    const d = data('Data da venda');
    expect(ler(d, ' 2026-11-22 ')).toEqual({ ok: '2026-11-22' });
    expect(ler(d, '2028-02-29')).toEqual({ ok: '2028-02-29' });
    expect(ler(d, '2026-02-30')).toEqual({ erro: 'Data da venda inválida (use o formato aaaa-mm-dd).' });
    expect(ler(d, '22/11/2026')).toEqual({ erro: 'Data da venda inválida (use o formato aaaa-mm-dd).' });
    expect(ler(d, '')).toEqual({ erro: 'Data da venda é obrigatória.' });
    expect(ler(d, undefined)).toEqual({ erro: 'Data da venda é obrigatória.' });
  });

  it('filtro opcional: vazio é sem filtro', () => {
    const d = dataOpcional('Data inicial');
    expect(ler(d, '')).toEqual({ ok: undefined });
    expect(ler(d, undefined)).toEqual({ ok: undefined });
    expect(ler(d, '2026-11-01')).toEqual({ ok: '2026-11-01' });
    expect(ler(d, '2026-11-31')).toEqual({ erro: 'Data inicial inválida (use o formato aaaa-mm-dd).' });
  });
});

describe('uuidCliente', () => {
  it('aceita UUID (passa para minúsculas) e recusa o resto', () => {
    const u = uuidCliente();
    expect(ler(u, '0193A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B')).toEqual({ ok: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b' });
    expect(ler(u, 'nao-e-uuid')).toEqual({ erro: 'Identificador inválido.' });
    expect(ler(u, undefined)).toEqual({ erro: 'Identificador é obrigatório.' });
  });
});

describe('opcao', () => {
  it('um dos valores, com a concordância do rótulo', () => {
    const tipo = opcao('Tipo', ['admin', 'funcionario']);
    expect(ler(tipo, 'admin')).toEqual({ ok: 'admin' });
    expect(ler(tipo, 'dono')).toEqual({ erro: 'Tipo inválido.' });
    expect(ler(tipo, undefined)).toEqual({ erro: 'Tipo é obrigatório.' });
    expect(ler(opcao('Forma', ['pix'], 'f'), 'boleto')).toEqual({ erro: 'Forma inválida.' });
  });
});
