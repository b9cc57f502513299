/**
 * The admin sees a person's open sessions (what signed in, when, until when) and ends one of them,
 * not only all at once. The session's own id never leaves the server: the list names each by a ref.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegistroAuditoria } from '../../../shared/schemas/auditoria';
import type { SessaoAberta } from '../../../shared/schemas/usuarios';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';
import { linhas } from '../db';

let t: AppDeTeste;
let admin: string;
let adminId: number;

const CELULAR = 'Mozilla/5.0 (Linux; Android 13; SM-A135M) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';
const COMPUTADOR = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

beforeAll(async () => {
  t = await criarAppDeTeste();
  admin = await t.tokenAdmin();
  adminId = (await t.chamar({ method: 'GET', url: '/api/auth/me', token: admin })).json().usuario.id;
});
afterAll(() => t?.fechar());

async function entrar(email: string, senha: string, userAgent: string): Promise<string> {
  const r = await t.chamar({ method: 'POST', url: '/api/auth/login', payload: { email, senha }, headers: { 'user-agent': userAgent } });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().token;
}

async function sessoesDe(id: number, token = admin): Promise<SessaoAberta[]> {
  const r = await t.chamar({ method: 'GET', url: `/api/usuarios/${id}/sessoes`, token });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().sessoes;
}

describe('sessões de um usuário', () => {
  it('lista as sessões abertas com o aparelho e as datas, sem o id da sessão; encerrar uma derruba só aquele aparelho', async () => {
    const ana = await t.criarFuncionario({ nome: 'Ana Dois Aparelhos' });
    const noCelular = await entrar(ana.email, ana.senha, CELULAR);
    const noComputador = await entrar(ana.email, ana.senha, COMPUTADOR);
    await t.chamar({ method: 'POST', url: '/api/auth/logout', token: ana.token });

    const abertas = await sessoesDe(ana.id);
    expect(abertas.map((s) => s.descricao).sort()).toEqual([CELULAR, COMPUTADOR].sort());
    for (const s of abertas) {
      expect(s).toEqual({ ref: expect.stringMatching(/^[0-9a-f]{16}$/), descricao: expect.any(String), criada_em: expect.any(String), expira_em: expect.any(String), atual: false });
      expect(Date.parse(s.expira_em)).toBeGreaterThan(Date.parse(s.criada_em));
    }
    const ids = (await linhas<{ id: string }>(t.db, sql`select id from sessoes where usuario_id = ${ana.id}`)).map((l) => l.id);
    const corpo = JSON.stringify(abertas);
    for (const id of ids) expect(corpo).not.toContain(id);

    const celular = abertas.find((s) => s.descricao === CELULAR)!;
    const r = await t.chamar({ method: 'DELETE', url: `/api/usuarios/${ana.id}/sessoes/${celular.ref}`, token: admin });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ message: '1 sessão encerrada.', encerradas: 1 });

    expect((await t.chamar({ method: 'GET', url: '/api/auth/me', token: noCelular })).statusCode).toBe(401);
    expect((await t.chamar({ method: 'GET', url: '/api/auth/me', token: noComputador })).statusCode).toBe(200);
    expect((await sessoesDe(ana.id)).map((s) => s.descricao)).toEqual([COMPUTADOR]);

    // Recorded in the trail, naming what signed in.
    const trilha = (await t.chamar({ method: 'GET', url: '/api/auditoria?acao=usuario.encerrar_sessoes', token: admin })).json().registros as RegistroAuditoria[];
    expect(trilha[0]).toMatchObject({ alvo_id: String(ana.id), depois: { sessoes_encerradas: 1, aparelho: CELULAR } });

    // Ending it again: already ended.
    esperarRecusa(await t.chamar({ method: 'DELETE', url: `/api/usuarios/${ana.id}/sessoes/${celular.ref}`, token: admin }), 404, 'nao_encontrado', 'Sessão não encontrada ou já encerrada.');
  });

  it('a sessão do próprio admin aparece como atual e não é encerrada por aqui (para isso existe Sair)', async () => {
    const minhas = await sessoesDe(adminId);
    const atual = minhas.filter((s) => s.atual);
    expect(atual).toHaveLength(1);
    const r = await t.chamar({ method: 'DELETE', url: `/api/usuarios/${adminId}/sessoes/${atual[0]!.ref}`, token: admin });
    esperarRecusa(r, 422, 'regra_de_negocio', 'Esta é a sessão que você está usando. Para sair dela, use "Sair".');
    expect((await t.chamar({ method: 'GET', url: '/api/auth/me', token: admin })).statusCode).toBe(200);
  });

  it('a sessão de outra pessoa não é encerrada pela URL de um usuário diferente; funcionário não lista nem encerra', async () => {
    const bia = await t.criarFuncionario({ nome: 'Bia Sessão' });
    const caio = await t.criarFuncionario({ nome: 'Caio Sessão' });
    const [daBia] = await sessoesDe(bia.id);
    esperarRecusa(await t.chamar({ method: 'DELETE', url: `/api/usuarios/${caio.id}/sessoes/${daBia!.ref}`, token: admin }), 404, 'nao_encontrado');
    expect((await t.chamar({ method: 'GET', url: '/api/auth/me', token: bia.token })).statusCode).toBe(200);

    expect((await t.chamar({ method: 'GET', url: `/api/usuarios/${bia.id}/sessoes`, token: caio.token })).statusCode).toBe(403);
    expect((await t.chamar({ method: 'DELETE', url: `/api/usuarios/${bia.id}/sessoes/${daBia!.ref}`, token: caio.token })).statusCode).toBe(403);
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/usuarios/999999/sessoes', token: admin }), 404, 'nao_encontrado');
    expect((await t.chamar({ method: 'DELETE', url: `/api/usuarios/${bia.id}/sessoes/nao-e-ref`, token: admin })).statusCode).toBe(400);
  });
});
