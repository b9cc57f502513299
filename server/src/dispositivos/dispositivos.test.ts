import { sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { cabecalhosDoRelato, filaVazia, type RelatoDispositivo } from '../../../shared/dispositivos';
import type { CelularComFila } from '../../../shared/schemas/dispositivos';
import { ANAPOLIS, GOIANIA, criarRotaAtiva } from '../../test/despesas';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';
import { carimboDoBanco, executar, linha, linhas } from '../db';
import { DIAS_PARA_ESQUECER, INTERVALO_VISTO_MS, MAXIMO_CELULARES_POR_FUNCIONARIO, MAXIMO_FILA_POR_TIPO, linhaDoRelato, mensagemVersaoAntiga, precisaGravar } from './plugin';

const CELULAR_ANA = '11111111-2222-4333-8444-555555555555';
const CELULAR_BRUNO = '66666666-7777-4888-9999-aaaaaaaaaaaa';
const HORA = 3600;

let t: AppDeTeste;
let ana: { id: number; token: string };
let bruno: { id: number; token: string };
let carla: { id: number; token: string };
let rotaAna: number;
const dia = hoje('America/Sao_Paulo');

beforeAll(async () => {
  t = await criarAppDeTeste({ env: { VERSAO_MINIMA_APP: '0.5.0' } });
  ana = await t.criarFuncionario({ nome: 'Ana Estrada' });
  bruno = await t.criarFuncionario({ nome: 'Bruno Campo' });
  carla = await t.criarFuncionario({ nome: 'Carla Serra' });
  rotaAna = await criarRotaAtiva(t, ana.id, [GOIANIA, ANAPOLIS], 'Rota Goiás');
});
afterAll(() => t.fechar());

const relato = (r: Partial<RelatoDispositivo> = {}): Record<string, string> =>
  cabecalhosDoRelato({ dispositivoId: CELULAR_ANA, versao: '0.5.0', fila: filaVazia(), filaIdadeS: null, syncIdadeS: null, ...r });

const linhasDe = (onde: SQL = sql`1 = 1`) => linhas<Record<string, unknown>>(t.db, sql`select * from dispositivos where ${onde} order by usuario_id`);

async function celulares(): Promise<CelularComFila[]> {
  const r = await t.chamar({ method: 'GET', url: '/api/relatorios/dashboard-admin', token: await t.tokenAdmin() });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().celulares;
}

const ha = (instante: string | null) => (instante === null ? null : (Date.now() - Date.parse(instante)) / 1000);

describe('relato dos celulares em cada contato', () => {
  it('o painel do admin mostra, por funcionário, o que espera no celular, a versão e a última sincronização', async () => {
    const r = await t.chamar({
      method: 'GET',
      url: '/api/rotas/ativas/funcionario',
      token: ana.token,
      headers: relato({ fila: { venda: 1, visita: 0, despesa: 3, rota: 0 }, filaIdadeS: 2 * HORA, syncIdadeS: 30 * 60 }),
    });
    expect(r.statusCode, r.body).toBe(200);
    await t.chamar({ method: 'GET', url: '/api/rotas/ativas/funcionario', token: bruno.token, headers: relato({ dispositivoId: CELULAR_BRUNO, fila: { ...filaVazia(), visita: 2 }, filaIdadeS: 26 * HORA }) });
    // Carla's phone is clean: not listed.
    await t.chamar({ method: 'GET', url: '/api/rotas/ativas/funcionario', token: carla.token, headers: relato({ dispositivoId: uuidv7() }) });

    const lista = await celulares();
    expect(lista.map((c) => [c.funcionario_nome, c.dispositivo_id, c.fila, c.versao, c.versao_antiga])).toEqual([
      // Oldest waiting first: Bruno's 26 h, then Ana's 2 h.
      ['Bruno Campo', CELULAR_BRUNO, { venda: 0, visita: 2, despesa: 0, rota: 0 }, '0.5.0', false],
      ['Ana Estrada', CELULAR_ANA, { venda: 1, visita: 0, despesa: 3, rota: 0 }, '0.5.0', false],
    ]);
    const [doBruno, daAna] = lista as [CelularComFila, CelularComFila];
    // More than 24 hours: the screen highlights it (the instant is the server's clock minus the age the phone said).
    expect(ha(doBruno.mais_antigo_em)).toBeGreaterThan(24 * HORA);
    expect(ha(doBruno.mais_antigo_em)).toBeCloseTo(26 * HORA, -1);
    expect(doBruno.ultima_sync_em).toBeNull();
    expect(ha(daAna.mais_antigo_em)).toBeCloseTo(2 * HORA, -1);
    expect(ha(daAna.ultima_sync_em)).toBeCloseTo(30 * 60, -1);
    expect(ha(daAna.visto_em)).toBeLessThan(60);
    expect(await linhasDe(sql`usuario_id = ${carla.id}`)).toHaveLength(1);
  });

  it('a fila esvaziou: o celular sai da lista; nada é gravado de novo enquanto o relato não muda', async () => {
    await t.chamar({ method: 'GET', url: '/api/rotas/ativas/funcionario', token: ana.token, headers: relato({ syncIdadeS: 0 }) });
    expect((await celulares()).map((c) => c.funcionario_nome)).toEqual(['Bruno Campo']);
    const antes = await carimboDoBanco(t.db);
    for (let i = 0; i < 5; i++) {
      const r = await t.chamar({ method: 'GET', url: '/api/rotas/ativas/funcionario', token: ana.token, headers: relato({ syncIdadeS: i }) });
      expect(r.statusCode).toBe(200);
    }
    // Not a single write: the read cache of everyone stays valid.
    expect(await carimboDoBanco(t.db)).toBe(antes);
  });

  it('só o próprio funcionário escreve a linha dele: o id do celular de outro cria uma linha do remetente, não muda a do dono', async () => {
    const antesBruno = await linhasDe(sql`usuario_id = ${bruno.id}`);
    const r = await t.chamar({ method: 'GET', url: '/api/rotas/ativas/funcionario', token: carla.token, headers: relato({ dispositivoId: CELULAR_BRUNO, fila: filaVazia() }) });
    expect(r.statusCode).toBe(200);
    expect(await linhasDe(sql`usuario_id = ${bruno.id}`)).toEqual(antesBruno);
    expect((await linhasDe(sql`dispositivo_id = ${CELULAR_BRUNO}`)).map((l) => l.usuario_id)).toEqual([bruno.id, carla.id]);
    expect((await celulares()).map((c) => c.funcionario_nome)).toEqual(['Bruno Campo']);
  });

  it('funcionário não vê os celulares (nem o painel do admin); o admin não é registrado', async () => {
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/relatorios/dashboard-admin', token: ana.token, headers: relato() }), 403, 'sem_permissao');
    const antes = (await linhasDe()).length;
    const r = await t.chamar({ method: 'GET', url: '/api/rotas', token: await t.tokenAdmin(), headers: relato({ dispositivoId: uuidv7(), fila: { ...filaVazia(), venda: 9 }, filaIdadeS: 10 }) });
    expect(r.statusCode).toBe(200);
    expect(await linhasDe()).toHaveLength(antes);
  });

  it('cabeçalhos de lixo são ignorados: a requisição segue normal, nada é gravado, nunca um 500', async () => {
    const antes = JSON.stringify(await linhasDe());
    const lixos: Record<string, string>[] = [
      { 'X-Dispositivo': 'abc' },
      { 'X-Versao-App': 'versão nova' },
      { 'X-Fila': 'venda=muitas' },
      { 'X-Fila': `venda=${'9'.repeat(50)}` },
      { 'X-Fila-Idade': '-1' },
      { 'X-Sync-Idade': 'x'.repeat(5000) },
    ];
    for (const lixo of lixos) {
      const r = await t.chamar({ method: 'GET', url: '/api/rotas/ativas/funcionario', token: ana.token, headers: { ...relato({ fila: { ...filaVazia(), venda: 7 }, filaIdadeS: 5 }), ...lixo } });
      expect(r.statusCode, JSON.stringify(lixo)).toBe(200);
    }
    // A garbled version is not gated either: the write goes through its own validation.
    const escrita = await t.chamar({ method: 'POST', url: '/api/vendas', token: ana.token, headers: { 'X-Versao-App': '0.0.1.0' }, payload: {} });
    esperarRecusa(escrita, 400, 'dados_invalidos');
    expect(JSON.stringify(await linhasDe())).toBe(antes);
  });

  it('sem mudança, "visto em" só é regravado depois do intervalo; qualquer mudança grava na hora', () => {
    const agora = Date.parse('2026-11-20T12:00:00Z');
    const r: RelatoDispositivo = { dispositivoId: CELULAR_ANA, versao: '0.5.0', fila: { ...filaVazia(), despesa: 1 }, filaIdadeS: 600, syncIdadeS: 60 };
    const gravada = linhaDoRelato(r, 1, agora);
    expect(precisaGravar(undefined, gravada)).toBe(true);
    // Ages measured again a few seconds later point to the same instants: same report.
    expect(precisaGravar(gravada, linhaDoRelato({ ...r, filaIdadeS: 603, syncIdadeS: 63 }, 1, agora + 3000))).toBe(false);
    expect(precisaGravar(gravada, linhaDoRelato(r, 1, agora + INTERVALO_VISTO_MS - 1))).toBe(true); // ages not re-measured: instants moved
    expect(precisaGravar(gravada, linhaDoRelato({ ...r, filaIdadeS: 600 + 299, syncIdadeS: 60 + 299 }, 1, agora + 299_000))).toBe(false);
    expect(precisaGravar(gravada, linhaDoRelato({ ...r, filaIdadeS: 600 + 300, syncIdadeS: 60 + 300 }, 1, agora + INTERVALO_VISTO_MS))).toBe(true);
    expect(precisaGravar(gravada, linhaDoRelato({ ...r, fila: { ...filaVazia(), despesa: 2 } }, 1, agora + 1000))).toBe(true);
    expect(precisaGravar(gravada, linhaDoRelato({ ...r, versao: '0.6.0' }, 1, agora + 1000))).toBe(true);
    expect(precisaGravar(gravada, linhaDoRelato({ ...r, syncIdadeS: 0 }, 1, agora + 1000))).toBe(false); // within the tolerance
    expect(precisaGravar(gravada, linhaDoRelato({ ...r, syncIdadeS: null }, 1, agora + 1000))).toBe(true);
  });

  it(`um celular parado há mais de ${DIAS_PARA_ESQUECER} dias é esquecido, com a fila vazia ou não; um visto há menos fica`, async () => {
    const antigo = new Date(Date.now() - (DIAS_PARA_ESQUECER + 1) * 86_400_000).toISOString();
    const recente = new Date(Date.now() - (DIAS_PARA_ESQUECER - 1) * 86_400_000).toISOString();
    const gravar = (dispositivoId: string, usuarioId: number, vistoEm: string, vendas: number) =>
      executar(
        t.db,
        sql`insert into dispositivos (dispositivo_id, usuario_id, versao, fila_vendas, fila_visitas, fila_despesas, fila_rotas, visto_em) values (${dispositivoId}, ${usuarioId}, '0.5.0', ${vendas}, 0, 0, 0, ${vistoEm})`,
      );
    const trocado = uuidv7();
    const esquecidoComFila = uuidv7();
    const parouHaPouco = uuidv7();
    const parouHaPoucoComFila = uuidv7();
    await gravar(trocado, carla.id, antigo, 0);
    await gravar(esquecidoComFila, bruno.id, antigo, 4);
    await gravar(parouHaPouco, carla.id, recente, 0);
    await gravar(parouHaPoucoComFila, carla.id, recente, 2);

    // Any phone's report that writes its row cleans up.
    const r = await t.chamar({ method: 'GET', url: '/api/rotas/ativas/funcionario', token: ana.token, headers: relato({ dispositivoId: uuidv7() }) });
    expect(r.statusCode).toBe(200);
    const restantes = (await linhasDe()).map((l) => l.dispositivo_id);
    expect(restantes).not.toContain(trocado);
    // A month of silence: the admin has seen it in red for weeks; kept longer, a dead or forged id would hold one of the employee's places.
    expect(restantes).not.toContain(esquecidoComFila);
    expect(restantes).toEqual(expect.arrayContaining([parouHaPouco, parouHaPoucoComFila]));
    expect((await celulares()).map((c) => c.dispositivo_id)).toContain(parouHaPoucoComFila);
  });
});

describe('celulares forjados', () => {
  const relatoDe = (dispositivoId: string, venda: number) => cabecalhosDoRelato({ dispositivoId, versao: '0.5.0', fila: { ...filaVazia(), venda }, filaIdadeS: venda > 0 ? 60 : null, syncIdadeS: null });
  const enviar = (token: string, headers: Record<string, string>) => t.chamar({ method: 'POST', url: '/api/dispositivos/relato', token, headers });
  const doFuncionario = async (id: number) => (await celulares()).filter((c) => c.funcionario_id === id);

  it(`50 ids de aparelho inventados por um funcionário: no máximo ${MAXIMO_CELULARES_POR_FUNCIONARIO} celulares dele no painel, cada contagem limitada`, async () => {
    const falso = await t.criarFuncionario({ nome: 'Diego Forja' });
    for (let i = 0; i < 50; i++) {
      const r = await enviar(falso.token, relatoDe(uuidv7(), 999_999));
      expect(r.statusCode).toBe(204);
    }
    const lista = await doFuncionario(falso.id);
    expect(lista).toHaveLength(MAXIMO_CELULARES_POR_FUNCIONARIO);
    for (const c of lista) expect(c.fila.venda).toBe(MAXIMO_FILA_POR_TIPO);
    expect(await linhasDe(sql`usuario_id = ${falso.id}`)).toHaveLength(MAXIMO_CELULARES_POR_FUNCIONARIO);
  });

  it('o celular de verdade com algo na fila não é empurrado para fora pelos inventados', async () => {
    const dono = await t.criarFuncionario({ nome: 'Elisa Real' });
    const real = uuidv7();
    expect((await enviar(dono.token, relatoDe(real, 3))).statusCode).toBe(204);
    for (let i = 0; i < 20; i++) await enviar(dono.token, relatoDe(uuidv7(), 500));
    // The real phone keeps reporting (a new count): its row is updated, never refused.
    expect((await enviar(dono.token, relatoDe(real, 4))).statusCode).toBe(204);
    const lista = await doFuncionario(dono.id);
    expect(lista).toHaveLength(MAXIMO_CELULARES_POR_FUNCIONARIO);
    expect(lista.find((c) => c.dispositivo_id === real)?.fila.venda).toBe(4);
  });

  it('com as vagas cheias, um aparelho novo toma a do visto há mais tempo entre os de fila vazia (que o painel não mostra)', async () => {
    const dono = await t.criarFuncionario({ nome: 'Fábio Troca' });
    const antigos = Array.from({ length: MAXIMO_CELULARES_POR_FUNCIONARIO }, () => uuidv7());
    for (const id of antigos) await enviar(dono.token, relatoDe(id, 0));
    // The first one was seen longest ago.
    await executar(t.db, sql`update dispositivos set visto_em = ${new Date(Date.now() - 86_400_000).toISOString()} where dispositivo_id = ${antigos[1]}`);
    const novo = uuidv7();
    expect((await enviar(dono.token, relatoDe(novo, 2))).statusCode).toBe(204);
    const ids = (await linhasDe(sql`usuario_id = ${dono.id}`)).map((l) => l.dispositivo_id);
    expect(ids).toHaveLength(MAXIMO_CELULARES_POR_FUNCIONARIO);
    expect(ids).toContain(novo);
    expect(ids).not.toContain(antigos[1]);
    expect((await doFuncionario(dono.id)).map((c) => c.dispositivo_id)).toEqual([novo]);
  });

  it('contagem acima do limite é guardada no limite (o painel lê "pelo menos"); a linha continua aceita', () => {
    const r: RelatoDispositivo = { dispositivoId: CELULAR_ANA, versao: '0.5.0', fila: { venda: 999_999, visita: MAXIMO_FILA_POR_TIPO + 1, despesa: MAXIMO_FILA_POR_TIPO, rota: 1 }, filaIdadeS: 10, syncIdadeS: null };
    const l = linhaDoRelato(r, 1, Date.now());
    expect([l.filaVendas, l.filaVisitas, l.filaDespesas, l.filaRotas]).toEqual([MAXIMO_FILA_POR_TIPO, MAXIMO_FILA_POR_TIPO, MAXIMO_FILA_POR_TIPO, 1]);
  });
});

describe('versão mínima do aplicativo (426)', () => {
  const MENSAGEM = mensagemVersaoAntiga('0.4.9', '0.5.0');
  const antiga = relato({ versao: '0.4.9', fila: { ...filaVazia(), venda: 1 }, filaIdadeS: 40 * HORA });

  it('a mensagem diz o que fazer e que nada se perde', () => {
    expect(MENSAGEM).toBe(
      'Atualize o aplicativo para continuar sincronizando. Esta versão (0.4.9) é anterior à mínima aceita pelo servidor (0.5.0). ' +
        'Os registros continuam guardados no celular e serão enviados depois da atualização.',
    );
  });

  it('o lote e cada escrita que o celular enfileira respondem 426 a um aplicativo antigo, sem gravar nada', async () => {
    const venda = { id: uuidv7(), rota_id: rotaAna, cidade_id: GOIANIA, data_venda: somarDias(dia, -1), valor_dinheiro: 10, registrado_em: new Date().toISOString() };
    const chamadas: { method: 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; payload?: Record<string, unknown> }[] = [
      { method: 'POST', url: '/api/sync/lote', payload: { operacoes: [{ id: uuidv7(), metodo: 'POST', caminho: '/vendas', corpo: venda }] } },
      { method: 'POST', url: '/api/vendas', payload: venda },
      { method: 'PUT', url: `/api/vendas/${uuidv7()}`, payload: { valor_dinheiro: 1 } },
      { method: 'POST', url: `/api/rotas/${rotaAna}/cidades/${GOIANIA}/visitar`, payload: { id: uuidv7(), data: dia } },
      { method: 'PATCH', url: `/api/rotas/${rotaAna}/finalizar` },
      { method: 'POST', url: '/api/despesas', payload: {} },
      { method: 'PUT', url: `/api/despesas/${uuidv7()}`, payload: {} },
      { method: 'DELETE', url: `/api/despesas/${uuidv7()}` },
    ];
    for (const c of chamadas) {
      const r = await t.chamar({ ...c, token: ana.token, headers: antiga });
      esperarRecusa(r, 426, 'versao_antiga', MENSAGEM);
    }
    const contar = async (tabela: string) => (await linha<{ n: number }>(t.db, sql`select count(*) as n from ${sql.identifier(tabela)}`))!.n;
    expect(await contar('vendas')).toBe(0);
    expect(await contar('visitas')).toBe(0);
    expect((await linha<{ status: string }>(t.db, sql`select status from rotas where id = ${rotaAna}`))!.status).toBe('ativa');
    // The admin sees the stuck phone, and why.
    const daAna = (await celulares()).find((c) => c.funcionario_id === ana.id);
    expect(daAna).toMatchObject({ versao: '0.4.9', versao_antiga: true, fila: { venda: 1 } });
  });

  it('a mesma escrita passa com a versão mínima, com uma mais nova, ou sem o cabeçalho (scripts e testes)', async () => {
    const venda = (diasAtras: number) => ({ id: uuidv7(), rota_id: rotaAna, cidade_id: ANAPOLIS, data_venda: somarDias(dia, -diasAtras), valor_dinheiro: 5, registrado_em: new Date().toISOString() });
    for (const [i, headers] of [relato({ versao: '0.5.0' }), relato({ versao: '1.0.0' }), {}].entries()) {
      const r = await t.chamar({ method: 'POST', url: '/api/sync/lote', token: ana.token, headers, payload: { operacoes: [{ id: uuidv7(), metodo: 'POST', caminho: '/vendas', corpo: venda(10 + i) }] } });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().resultados[0].status).toBe(201);
    }
    const sozinha = await t.chamar({ method: 'POST', url: '/api/vendas', token: ana.token, payload: venda(20) });
    expect(sozinha.statusCode, sozinha.body).toBe(201);
  });

  it('leituras e escritas do admin não passam pelo portão; GET /api/config diz a versão mínima', async () => {
    const antiga = { 'X-Versao-App': '0.0.1' };
    expect((await t.chamar({ method: 'GET', url: '/api/rotas/ativas/funcionario', token: ana.token, headers: antiga })).statusCode).toBe(200);
    const r = await t.chamar({
      method: 'POST',
      url: '/api/saldo/credito',
      token: await t.tokenAdmin(),
      headers: antiga,
      payload: { funcionario_id: bruno.id, valor: 10, descricao: 'teste' },
    });
    expect(r.statusCode).not.toBe(426);
    expect((await t.chamar({ method: 'GET', url: '/api/config' })).json()).toMatchObject({ versao_minima_app: '0.5.0' });
  });

  it('sem VERSAO_MINIMA_APP vale a constante do código; a variável de ambiente a troca', async () => {
    const padrao = await criarAppDeTeste({ cidades: false });
    try {
      expect(padrao.config.versaoMinimaApp).toBe('0.1.0');
    } finally {
      await padrao.fechar();
    }
  });
});
