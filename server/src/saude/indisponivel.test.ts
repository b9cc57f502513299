/**
 * What the server stands on failing, as a phone and a monitor see it: the SQLite database unreachable
 * (its handle closed) or full (SQLITE_FULL, through SQLite's own page limit) answers 503 in pt-BR with
 * Retry-After on login, /auth/me, the sync batch and an upload, never 500 'Erro interno do servidor';
 * /api/health answers 503 naming what fails (the database, the disk under DISCO_MINIMO_MB, the continuous
 * copy's state given by whoever runs it), and the log of those failures carries no row values.
 */
import { Writable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { afterEach, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { ARQUIVOS, camposDeDespesa, criarRotaAtiva, formulario, GOIANIA } from '../../test/despesas';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';
import { MOTOR_DE_TESTE } from '../../test/bancoDeTeste';
import { MENSAGENS_INDISPONIVEL } from './indisponibilidade';

const abertos: AppDeTeste[] = [];
afterEach(async () => {
  for (const t of abertos.splice(0)) await t.fechar();
});

/** An app whose log lines are kept (JSON, as pino writes them). */
async function appComLog(opcoes: Parameters<typeof criarAppDeTeste>[0] = {}) {
  const linhas: string[] = [];
  const destino = new Writable({
    write(pedaco, _codificacao, feito) {
      linhas.push(String(pedaco));
      feito();
    },
  });
  const t = await criarAppDeTeste({ ...opcoes, logger: { level: 'info', stream: destino } });
  abertos.push(t);
  return { t, log: () => linhas.join('') };
}

function esperarIndisponivel(r: LightMyRequestResponse, mensagem: string, esperaSegundos: number) {
  esperarRecusa(r, 503, 'indisponivel', mensagem);
  expect(r.headers['retry-after'], r.body).toBe(String(esperaSegundos));
}

/** A phone's batch with `n` sales on `rota`, one per day back from yesterday, each with a distinctive (long) note. */
function lote(rota: number, n: number, nota = 'Cliente Fulano de Tal') {
  const hojeAli = hoje('America/Sao_Paulo');
  return {
    cliente_id: 'celular-da-ana',
    operacoes: Array.from({ length: n }, (_, i) => ({
      id: uuidv7(),
      metodo: 'POST',
      caminho: '/vendas',
      corpo: {
        id: uuidv7(),
        rota_id: rota,
        cidade_id: GOIANIA,
        data_venda: somarDias(hojeAli, -1 - i),
        valor_dinheiro: 100 + i,
        observacoes: `${nota} ${i} ${'x'.repeat(400)}`,
        registrado_em: new Date().toISOString(),
      },
    })),
  };
}

describe.skipIf(MOTOR_DE_TESTE !== 'sqlite')('banco SQLite fora do ar ou cheio: 503 com Retry-After em todo endpoint', () => {
  it('banco fechado: login, /auth/me, lote e envio de comprovante respondem 503 em português, e o log não traz os dados', async () => {
    const { t, log } = await appComLog();
    const ana = await t.criarFuncionario({ nome: 'Ana Estrada' });
    const rota = await criarRotaAtiva(t, ana.id);
    const despesa = await formulario(camposDeDespesa(rota, { valor: '45,90' }), ARQUIVOS.jpeg());
    t.db.$client.close();

    const mensagem = MENSAGENS_INDISPONIVEL.banco;
    esperarIndisponivel(await t.chamar({ method: 'POST', url: '/api/auth/login', payload: { email: ana.email, senha: ana.senha } }), mensagem, 5);
    esperarIndisponivel(await t.chamar({ method: 'GET', url: '/api/auth/me', token: ana.token }), mensagem, 5);
    esperarIndisponivel(await t.chamar({ method: 'POST', url: '/api/sync/lote', token: ana.token, payload: lote(rota, 3) }), mensagem, 5);
    esperarIndisponivel(await t.chamar({ method: 'POST', url: '/api/despesas', token: ana.token, ...despesa }), mensagem, 5);

    const texto = log();
    expect(texto).toContain('banco de dados indisponível');
    expect(texto).not.toContain('Erro interno');
    expect(texto).not.toContain(ana.email);
    expect(texto).not.toContain('Cliente Fulano de Tal');
  });

  it('disco cheio (SQLITE_FULL): o lote responde 503 dizendo que falta espaço, com Retry-After, sem os valores das linhas no log', async () => {
    const { t, log } = await appComLog();
    const ana = await t.criarFuncionario({ nome: 'Ana Estrada' });
    const rota = await criarRotaAtiva(t, ana.id);
    // SQLite's own size limit at the pages it has: the next page it needs is refused as a full disk.
    const paginas = t.db.$client.pragma('page_count', { simple: true }) as number;
    t.db.$client.pragma(`max_page_count = ${paginas}`);

    const r = await t.chamar({ method: 'POST', url: '/api/sync/lote', token: ana.token, payload: lote(rota, 100, 'Dona Maria Secreta') });
    esperarIndisponivel(r, MENSAGENS_INDISPONIVEL.disco, 60);
    // Nothing of it was kept: the phone keeps the whole batch and sends it again.
    t.db.$client.pragma('max_page_count = 1073741823');
    expect(t.db.$client.prepare('select count(*) as n from vendas').get()).toEqual({ n: 0 });
    const texto = log();
    expect(texto).toContain('servidor sem espaço em disco');
    expect(texto).toContain('SQLITE_FULL');
    expect(texto).not.toContain('Dona Maria Secreta');
  });
});

describe('/api/health diz o que falha', () => {
  it('tudo em ordem: 200 com cada verificação', async () => {
    const t = await criarAppDeTeste({ cidades: false });
    abertos.push(t);
    const r = await t.chamar({ method: 'GET', url: '/api/health' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({
      status: 'ok',
      verificacoes: { banco: { ok: true }, disco: { ok: true, minimo_mb: 200 }, armazenamento: { ok: true, tipo: 'local' } },
    });
    expect(r.json().verificacoes.copia_continua).toBeUndefined();
  });

  it('disco abaixo de DISCO_MINIMO_MB: 503 com Retry-After nomeando o espaço em disco', async () => {
    const t = await criarAppDeTeste({ cidades: false, env: { DISCO_MINIMO_MB: '1000000' } });
    abertos.push(t);
    const r = await t.chamar({ method: 'GET', url: '/api/health' });
    expect(r.statusCode, r.body).toBe(503);
    expect(r.headers['retry-after']).toBe('5');
    const corpo = r.json();
    expect(corpo.status).toBe('falha');
    expect(corpo.codigo).toBe('indisponivel');
    expect(corpo.error).toBe('Servidor com falha: espaço em disco.');
    expect(corpo.verificacoes.disco).toMatchObject({ ok: false, minimo_mb: 1_000_000 });
    expect(corpo.verificacoes.disco.erro).toMatch(/^\d+ MB livres em disco, abaixo do mínimo de 1000000 MB \(DISCO_MINIMO_MB\)\.$/);
    expect(corpo.verificacoes.banco).toEqual({ ok: true });
  });

  it.skipIf(MOTOR_DE_TESTE !== 'sqlite')('banco fechado: 503 nomeando o banco de dados', async () => {
    const t = await criarAppDeTeste({ cidades: false });
    abertos.push(t);
    t.db.$client.close();
    const r = await t.chamar({ method: 'GET', url: '/api/health' });
    expect(r.statusCode, r.body).toBe(503);
    expect(r.json()).toMatchObject({ status: 'falha', error: 'Servidor com falha: banco de dados.', verificacoes: { banco: { ok: false, erro: MENSAGENS_INDISPONIVEL.banco } } });
  });

  it('a cópia contínua informada pelo servidor entra na resposta: atrasada, 503; em dia, 200', async () => {
    let estado = { ok: false, erro: 'o bucket da cópia não responde há 40 s', atraso_ms: 40_000 };
    const t = await criarAppDeTeste({ cidades: false, copiaContinua: () => estado });
    abertos.push(t);
    const falhando = await t.chamar({ method: 'GET', url: '/api/health' });
    expect(falhando.statusCode, falhando.body).toBe(503);
    expect(falhando.json()).toMatchObject({ error: 'Servidor com falha: cópia contínua.', verificacoes: { copia_continua: estado } });
    estado = { ok: true, erro: undefined as unknown as string, atraso_ms: 0 };
    const emDia = await t.chamar({ method: 'GET', url: '/api/health' });
    expect(emDia.statusCode, emDia.body).toBe(200);
    expect(emDia.json().verificacoes.copia_continua).toMatchObject({ ok: true, atraso_ms: 0 });
  });
});
