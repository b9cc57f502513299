/**
 * Tampered and stale sessions. server/src/auth/auth.test.ts already checks the basics against
 * GET /api/auth/me by bearer (alg none, HS512, another secret, expired, changed sub/tipo, unknown
 * user, tipo claim ignored). Here every forged token goes through both transports (bearer and the
 * session cookie) against a read, an admin-only write and the receipt URL that <img>/<iframe> open
 * with the cookie, and the write must leave the database untouched. Then: revocation (deactivated,
 * password changed, demoted) on every transport, which transport wins when both come, and garbage
 * in the Authorization header. All refusals are 401 with a pt-BR body, never a 500.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { ANAPOLIS, ARQUIVOS, GOIANIA, criarRotaAtiva, formulario } from '../despesas';
import { ADMIN, criarAppDeTeste, type AppDeTeste } from '../helper';
import { agoraEmSegundos, b64url, esperarCorpoDeErro, fotografia, jwtFeitoAMao } from './suporte';

const SESSAO_INVALIDA = 'Sessão inválida. Faça login novamente.';
const SESSAO_EXPIRADA = 'Sessão expirada. Faça login novamente.';
const INATIVO = 'Usuário inativo. Procure um administrador.';
// A session ended on the server (logout, password change, deactivation, 'Encerrar sessões'), or a token without one.
const ENCERRADA = 'Sessão encerrada. Faça login novamente.';

interface Pessoa {
  id: number;
  email: string;
  senha: string;
  token: string;
}

let t: AppDeTeste;
let tokenAdmin: string;
let adminId: number;
/** The server-side session the admin's token names (a token must carry one). */
let sidDoAdmin: string;
let funcionario: Pessoa;
let rota: number;
let cupomUrl: string;
const SEGREDO = () => t.config.jwtSecret!;

/** A claim set the server would accept if it were signed right: the admin, valid for 10 minutes. */
const claimsDoAdmin = () => ({ sub: String(adminId), tipo: 'admin', sid: sidDoAdmin, iat: agoraEmSegundos(), exp: agoraEmSegundos() + 600 });

beforeAll(async () => {
  t = await criarAppDeTeste();
  tokenAdmin = await t.tokenAdmin();
  adminId = (await t.chamar({ method: 'GET', url: '/api/auth/me', token: tokenAdmin })).json().usuario.id;
  sidDoAdmin = JSON.parse(Buffer.from(tokenAdmin.split('.')[1]!, 'base64url').toString()).sid;
  funcionario = await t.criarFuncionario({ nome: 'Fábio Token' });
  rota = await criarRotaAtiva(t, funcionario.id, [GOIANIA, ANAPOLIS]);
  const corpo = await formulario(
    { id: uuidv7(), rota_id: rota, cidade_id: GOIANIA, data_despesa: somarDias(hoje('America/Sao_Paulo'), -1), tipo: 'pedagio', valor: '7,80' },
    ARQUIVOS.jpeg(),
  );
  const r = await t.chamar({ method: 'POST', url: '/api/despesas', token: funcionario.token, ...corpo });
  expect(r.statusCode, r.body).toBe(201);
  cupomUrl = r.json().despesa.cupom_url;
});
afterAll(() => t?.fechar());

type Transporte = 'bearer' | 'cookie';
const comToken = (token: string, transporte: Transporte): InjectOptions['headers'] =>
  // The cookie as the app's own page sends it: writes by cookie alone need a same-site Origin (plugins/origem.ts).
  transporte === 'bearer' ? { authorization: `Bearer ${token}` } : { cookie: `token=${token}`, origin: 'http://localhost' };

/** Calls with the token in one transport; a refused call must change nothing. */
async function chamarCom(token: string, transporte: Transporte, pedido: InjectOptions): Promise<LightMyRequestResponse> {
  const antes = await fotografia(t);
  const r = await t.chamar({ ...pedido, headers: { ...pedido.headers, ...comToken(token, transporte) } });
  if (r.statusCode >= 400) expect(await fotografia(t)).toEqual(antes);
  return r;
}

function esperar401(r: LightMyRequestResponse, mensagem = SESSAO_INVALIDA) {
  expect(r.statusCode, r.body).toBe(401);
  esperarCorpoDeErro(r, 'sessao_invalida');
  expect(r.json().error).toBe(mensagem);
  // A refused session never hands out a new cookie.
  expect(r.headers['set-cookie']).toBeUndefined();
}

/** What each forged token is tried on: a read, an admin-only write (money), and the receipt file. */
const ALVOS: { nome: string; pedido: () => InjectOptions }[] = [
  { nome: 'GET /api/auth/me', pedido: () => ({ method: 'GET', url: '/api/auth/me' }) },
  {
    nome: 'POST /api/saldo/adicionar',
    pedido: () => ({ method: 'POST', url: '/api/saldo/adicionar', payload: { funcionario_id: funcionario.id, valor: 1000, descricao: 'Forjado', rota_id: rota } }),
  },
  { nome: 'GET do cupom', pedido: () => ({ method: 'GET', url: cupomUrl }) },
];

/** Each one is a way to pass as the admin without the secret (or with it, but outside the rules). */
const FORJADOS: { nome: string; token: () => string; mensagem?: string }[] = [
  { nome: 'alg none sem assinatura', token: () => `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claimsDoAdmin())}.` },
  { nome: 'alg "None" sem assinatura', token: () => `${b64url({ alg: 'None', typ: 'JWT' })}.${b64url(claimsDoAdmin())}.` },
  { nome: 'alg "NONE" sem o ponto final', token: () => `${b64url({ alg: 'NONE' })}.${b64url(claimsDoAdmin())}` },
  {
    nome: 'alg none com a assinatura de um token verdadeiro',
    token: () => `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claimsDoAdmin())}.${tokenAdmin.split('.')[2]}`,
  },
  { nome: 'HS384 com o segredo certo', token: () => jwtFeitoAMao({ alg: 'HS384', typ: 'JWT' }, claimsDoAdmin(), SEGREDO(), 'sha384') },
  { nome: 'HS512 com o segredo certo', token: () => jwtFeitoAMao({ alg: 'HS512', typ: 'JWT' }, claimsDoAdmin(), SEGREDO(), 'sha512') },
  // Algorithm confusion: the header claims RSA, the signature is an HMAC with the server's secret.
  { nome: 'cabeçalho RS256 com HMAC do segredo certo', token: () => jwtFeitoAMao({ alg: 'RS256', typ: 'JWT' }, claimsDoAdmin(), SEGREDO()) },
  {
    nome: 'RS256 assinado com a chave do atacante, publicada no cabeçalho (jwk)',
    token: () => {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const corpo = `${b64url({ alg: 'RS256', typ: 'JWT', jwk: publicKey.export({ format: 'jwk' }) })}.${b64url(claimsDoAdmin())}`;
      return `${corpo}.${sign('sha256', Buffer.from(corpo), privateKey).toString('base64url')}`;
    },
  },
  { nome: 'kid apontando para um arquivo, assinado com segredo vazio', token: () => jwtFeitoAMao({ alg: 'HS256', kid: '../../../../dev/null' }, claimsDoAdmin(), '') },
  { nome: 'assinado com outro segredo', token: () => jwtFeitoAMao({ alg: 'HS256', typ: 'JWT' }, claimsDoAdmin(), 'um-segredo-qualquer-com-mais-de-32-caracteres') },
  { nome: 'assinado com o segredo de exemplo da documentação', token: () => jwtFeitoAMao({ alg: 'HS256', typ: 'JWT' }, claimsDoAdmin(), 'secret') },
  {
    nome: 'payload do funcionário trocado para o sub do admin, com a assinatura original',
    token: () => {
      const [cabecalho, payload, assinatura] = funcionario.token.split('.');
      const dados = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      return `${cabecalho}.${b64url({ ...dados, sub: String(adminId) })}.${assinatura}`;
    },
  },
  {
    nome: 'payload do funcionário com tipo "admin", com a assinatura original',
    token: () => {
      const [cabecalho, payload, assinatura] = funcionario.token.split('.');
      const dados = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      return `${cabecalho}.${b64url({ ...dados, tipo: 'admin' })}.${assinatura}`;
    },
  },
  {
    nome: 'token do admin com o exp empurrado para 2100, com a assinatura original',
    token: () => {
      const [cabecalho, payload, assinatura] = tokenAdmin.split('.');
      const dados = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      return `${cabecalho}.${b64url({ ...dados, exp: 4102444800 })}.${assinatura}`;
    },
  },
  { nome: 'sem a parte da assinatura', token: () => tokenAdmin.split('.').slice(0, 2).join('.') },
  { nome: 'com um quarto segmento', token: () => `${tokenAdmin}.AAAA` },
  { nome: 'payload que não é JSON', token: () => `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url('não é json')}.${tokenAdmin.split('.')[2]}` },
  { nome: 'cabeçalho que não é base64', token: () => `%%%.${tokenAdmin.split('.')[1]}.${tokenAdmin.split('.')[2]}` },
  {
    nome: 'expirado há 1 segundo (segredo certo)',
    token: () => jwtFeitoAMao({ alg: 'HS256', typ: 'JWT' }, { ...claimsDoAdmin(), iat: agoraEmSegundos() - 3600, exp: agoraEmSegundos() - 1 }, SEGREDO()),
    mensagem: SESSAO_EXPIRADA,
  },
  {
    nome: 'ainda não válido: nbf daqui a uma hora (segredo certo)',
    token: () => jwtFeitoAMao({ alg: 'HS256', typ: 'JWT' }, { ...claimsDoAdmin(), nbf: agoraEmSegundos() + 3600 }, SEGREDO()),
  },
];

describe('tokens forjados: 401 pelo bearer e pelo cookie, sem efeito', () => {
  const casos = FORJADOS.flatMap((forjado) =>
    ALVOS.flatMap((alvo) => (['bearer', 'cookie'] as const).map((transporte) => ({ ...forjado, alvo, transporte, nomeAlvo: alvo.nome }))),
  );

  it('controle: um token feito à mão com o segredo certo e HS256 é aceito nos três alvos', async () => {
    const token = jwtFeitoAMao({ alg: 'HS256', typ: 'JWT' }, claimsDoAdmin(), SEGREDO());
    for (const alvo of ALVOS) {
      for (const transporte of ['bearer', 'cookie'] as const) {
        const r = await chamarCom(token, transporte, alvo.pedido());
        expect(r.statusCode, `${alvo.nome} por ${transporte}: ${r.body}`).toBeLessThan(300);
      }
    }
  });

  it.each(casos)('$nome — $nomeAlvo por $transporte', async ({ token, mensagem, alvo, transporte }) => {
    esperar401(await chamarCom(token(), transporte, alvo.pedido()), mensagem);
  });
});

describe('sessões revogadas', () => {
  it('usuário desativado: bearer e cookie param na hora em leitura, escrita e no cupom; reativado, só um login novo vale', async () => {
    const admin = { token: tokenAdmin };
    const leitura: InjectOptions = { method: 'GET', url: '/api/rotas/ativas' };
    const escrita: InjectOptions = {
      method: 'POST',
      url: '/api/vendas',
      payload: { id: uuidv7(), rota_id: rota, cidade_id: ANAPOLIS, data_venda: hoje('America/Sao_Paulo'), valor_dinheiro: 10 },
    };
    for (const transporte of ['bearer', 'cookie'] as const) expect((await chamarCom(funcionario.token, transporte, leitura)).statusCode).toBe(200);

    expect((await t.chamar({ method: 'PATCH', url: `/api/usuarios/${funcionario.id}/desativar`, ...admin })).statusCode).toBe(200);
    for (const transporte of ['bearer', 'cookie'] as const) {
      for (const pedido of [leitura, escrita, { method: 'GET', url: cupomUrl } as InjectOptions]) {
        esperar401(await chamarCom(funcionario.token, transporte, pedido), INATIVO);
      }
    }

    expect((await t.chamar({ method: 'PATCH', url: `/api/usuarios/${funcionario.id}/ativar`, ...admin })).statusCode).toBe(200);
    // Deactivation ended the sessions for good: the old token stays dead, a new login works.
    esperar401(await chamarCom(funcionario.token, 'cookie', { method: 'GET', url: cupomUrl }), ENCERRADA);
    funcionario.token = await t.login(funcionario.email, funcionario.senha);
    expect((await chamarCom(funcionario.token, 'cookie', { method: 'GET', url: cupomUrl })).statusCode).toBe(200);
  });

  it('senha trocada: o token de antes (bearer, cookie) para de valer; um sem sessão nunca valeu; o login novo vale', async () => {
    const f = await t.criarFuncionario({ nome: 'Sara Senha' });
    const semSessao = jwtFeitoAMao({ alg: 'HS256', typ: 'JWT' }, { sub: String(f.id), tipo: 'funcionario', iat: agoraEmSegundos(), exp: agoraEmSegundos() + 600 }, SEGREDO());
    // Tokens from before server-side sessions carry no `sid`: refused (docs/decisions/usuarios-e-sessoes.md, 'Sessões no servidor').
    esperar401(await chamarCom(semSessao, 'bearer', { method: 'GET', url: '/api/auth/me' }), ENCERRADA);

    const r = await t.chamar({ method: 'PATCH', url: `/api/usuarios/${f.id}/senha`, token: tokenAdmin, payload: { novaSenha: 'senha-nova-1' } });
    expect(r.statusCode).toBe(200);
    for (const transporte of ['bearer', 'cookie'] as const) {
      // The admin set the password: the person is told who ended the session.
      esperar401(await chamarCom(f.token, transporte, { method: 'GET', url: '/api/auth/me' }), 'Sua sessão foi encerrada pelo administrador.');
      esperar401(await chamarCom(semSessao, transporte, { method: 'GET', url: '/api/rotas' }), ENCERRADA);
    }
    const novo = await t.login(f.email, 'senha-nova-1');
    expect((await chamarCom(novo, 'cookie', { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
    // Other edits (the name) do not end sessions.
    await t.chamar({ method: 'PATCH', url: `/api/usuarios/${f.id}`, token: tokenAdmin, payload: { nome: 'Sara Renomeada' } });
    expect((await chamarCom(novo, 'bearer', { method: 'GET', url: '/api/auth/me' })).json().usuario.nome).toBe('Sara Renomeada');
  });

  it('quem muda de tipo muda de poder na hora, com o mesmo token (o banco manda, não o token)', async () => {
    const f = await t.criarFuncionario({ nome: 'Paulo Promovido' });
    const usuarios: InjectOptions = { method: 'GET', url: '/api/usuarios' };
    expect((await chamarCom(f.token, 'bearer', usuarios)).statusCode).toBe(403);
    await t.chamar({ method: 'PATCH', url: `/api/usuarios/${f.id}`, token: tokenAdmin, payload: { tipo: 'admin' } });
    expect((await chamarCom(f.token, 'bearer', usuarios)).statusCode).toBe(200);
    await t.chamar({ method: 'PATCH', url: `/api/usuarios/${f.id}`, token: tokenAdmin, payload: { tipo: 'funcionario' } });
    const r = await chamarCom(f.token, 'cookie', usuarios);
    expect(r.statusCode).toBe(403);
    esperarCorpoDeErro(r, 'sem_permissao');
  });
});

describe('bearer e cookie juntos', () => {
  const pedidoAdmin: InjectOptions = { method: 'GET', url: '/api/usuarios' };

  it('o bearer vale quando vem: o cookie de um admin não empresta poder ao bearer de um funcionário', async () => {
    const r = await t.chamar({ ...pedidoAdmin, headers: { authorization: `Bearer ${funcionario.token}`, cookie: `token=${tokenAdmin}` } });
    expect(r.statusCode).toBe(403);
  });

  it('um bearer forjado não cai para o cookie válido: 401', async () => {
    const forjado = jwtFeitoAMao({ alg: 'HS256' }, claimsDoAdmin(), 'outro-segredo-de-mais-de-32-caracteres!!');
    esperar401(await t.chamar({ ...pedidoAdmin, headers: { authorization: `Bearer ${forjado}`, cookie: `token=${tokenAdmin}` } }));
  });

  it('um cookie forjado não atrapalha um bearer válido', async () => {
    const forjado = `${b64url({ alg: 'none' })}.${b64url(claimsDoAdmin())}.`;
    const r = await t.chamar({ ...pedidoAdmin, headers: { authorization: `Bearer ${tokenAdmin}`, cookie: `token=${forjado}` } });
    expect(r.statusCode).toBe(200);
  });

  it('só o cookie do login (sem Authorization) abre o cupom e as leituras', async () => {
    const login = await t.chamar({ method: 'POST', url: '/api/auth/login', payload: { email: funcionario.email, senha: funcionario.senha } });
    const cookie = login.cookies.find((c) => c.name === 'token')!;
    for (const url of [cupomUrl, '/api/rotas/ativas', '/api/saldo/resumo']) {
      expect((await t.chamar({ method: 'GET', url, headers: { cookie: `token=${cookie.value}` } })).statusCode, url).toBe(200);
    }
  });
});

describe('lixo no Authorization e no cookie', () => {
  const oitoKb = 'A'.repeat(8 * 1024);
  it.each([
    ['Basic', 'Basic YWRtaW46YWRtaW4=', 'nao_autenticado'],
    ['Token de outro esquema', `Token ${'x'.repeat(40)}`, 'nao_autenticado'],
    ['só a palavra Bearer', 'Bearer', 'nao_autenticado'],
    ['Bearer vazio', 'Bearer ', 'sessao_invalida'],
    ['Bearer só com espaços', 'Bearer    ', 'sessao_invalida'],
    ['Bearer com duas partes', 'Bearer abc def', 'sessao_invalida'],
    ['Bearer null (cliente com defeito)', 'Bearer null', 'sessao_invalida'],
    ['Bearer undefined', 'Bearer undefined', 'sessao_invalida'],
    ['Bearer com 8 KB de lixo', `Bearer ${oitoKb}`, 'sessao_invalida'],
    ['Bearer com 8 KB em forma de JWT', `Bearer eyJ${oitoKb}.eyJ${oitoKb}.${oitoKb}`, 'sessao_invalida'],
    ['8 KB sem esquema', oitoKb, 'nao_autenticado'],
  ])('%s: 401 %s, em português', async (_caso, authorization, codigo) => {
    const r = await t.chamar({ method: 'GET', url: '/api/usuarios', headers: { authorization } });
    expect(r.statusCode, r.body).toBe(401);
    esperarCorpoDeErro(r, codigo);
  });

  it('"bearer" em minúsculas com um token válido é aceito (o esquema não diferencia maiúsculas)', async () => {
    expect((await t.chamar({ method: 'GET', url: '/api/usuarios', headers: { authorization: `bearer ${tokenAdmin}` } })).statusCode).toBe(200);
  });

  it.each([
    ['vazio', 'token='],
    ['lixo', 'token=lixo'],
    ['com codificação por cento quebrada', 'token=%E0%A4%A'],
    ['com 8 KB', `token=${oitoKb}`],
    ['dois cookies token, o primeiro forjado', `token=${b64url({ alg: 'none' })}.${b64url({ sub: '1' })}.; token=lixo`],
    ['com o nome em maiúsculas e um token válido', 'TOKEN=__VALIDO__'],
  ])('cookie %s: 401, nunca 500', async (_caso, cookie) => {
    const r = await t.chamar({ method: 'GET', url: '/api/usuarios', headers: { cookie: cookie.replace('__VALIDO__', tokenAdmin) } });
    expect(r.statusCode, r.body).toBe(401);
    esperarCorpoDeErro(r);
  });

  it('o login continua funcionando com lixo no Authorization (o login não lê sessão)', async () => {
    const r = await t.chamar({ method: 'POST', url: '/api/auth/login', payload: ADMIN, headers: { authorization: `Bearer ${oitoKb}` } });
    expect(r.statusCode).toBe(200);
  });
});
