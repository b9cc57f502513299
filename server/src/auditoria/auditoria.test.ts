/**
 * Every admin action that changes money, people or routes leaves one append-only
 * row with who, when, what and before/after, written in the action's own transaction (a refused action
 * leaves none); GET /api/auditoria reads them, newest first, by admin, action and business day.
 */
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatarData, hoje, somarDias } from '../../../shared/dates';
import type { RegistroAuditoria } from '../../../shared/schemas/auditoria';
import { recusaDe } from '../../test/bancoDeTeste';
import { ANAPOLIS, GOIANIA, formulario } from '../../test/despesas';
import { inserirVenda } from '../../test/fabricas';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';
import { arquivoPendencias, formularioPendencias, operacaoPendencia } from '../../test/pendencias';
import { ehPostgres } from '../db';
import { auditoria, despesas } from '../db/tabelas';
import { registrarAuditoria } from './registro';


let t: AppDeTeste;
let admin: string;
let adminId: number;
let ana: { id: number; email: string; senha: string; token: string };
const HOJE = hoje('America/Sao_Paulo');

beforeAll(async () => {
  t = await criarAppDeTeste();
  admin = await t.tokenAdmin();
  adminId = (await t.chamar({ method: 'GET', url: '/api/auth/me', token: admin })).json().usuario.id;
  ana = await t.criarFuncionario({ nome: 'Ana Auditada' });
});
afterAll(async () => {
  await t?.fechar();
});

async function trilha(query = ''): Promise<{ registros: RegistroAuditoria[]; total: number }> {
  const r = await t.chamar({ method: 'GET', url: `/api/auditoria?limit=1000${query}`, token: admin });
  expect(r.statusCode, r.body).toBe(200);
  const corpo = r.json() as { registros: RegistroAuditoria[]; total: number };
  // The descriptions' non-breaking spaces (after 'R$', before '·') read as plain ones in the comparisons.
  return { ...corpo, registros: corpo.registros.map((x) => ({ ...x, alvo_descricao: x.alvo_descricao.replace(/\u00a0/g, ' ') })) };
}

/** The rows written by `acao()`: the trail before and after, compared by id. */
async function registrosDe(acao: () => Promise<unknown>): Promise<RegistroAuditoria[]> {
  const antes = new Set((await trilha()).registros.map((r) => r.id));
  await acao();
  return (await trilha()).registros.filter((r) => !antes.has(r.id)).reverse();
}

async function ok(pedido: Parameters<AppDeTeste['chamar']>[0], status = 200) {
  const r = await t.chamar(pedido);
  expect(r.statusCode, r.body).toBe(status);
  return r.json();
}

const dadosRota = (funcionarioId: number, nome: string, extra: Record<string, unknown> = {}) => ({
  nome,
  funcionario_id: funcionarioId,
  tem_secretario: false,
  valor_aluguel: '300,00',
  data_inicio: somarDias(HOJE, -2),
  data_fim: somarDias(HOJE, 10),
  observacoes: '',
  cidades: [GOIANIA, ANAPOLIS],
  ...extra,
});

describe('o que fica registrado', () => {
  it('rota: criar, editar, cancelar, reabrir e excluir, cada uma com o antes e o depois', async () => {
    const bia = await t.criarFuncionario({ nome: 'Bia Rotas' });
    let rotaId = 0;
    const [criada] = await registrosDe(async () => {
      rotaId = (await ok({ method: 'POST', url: '/api/rotas', token: admin, payload: dadosRota(bia.id, 'Rota Auditada') }, 201)).rota.id;
    });
    expect(criada).toMatchObject({ admin_id: adminId, admin_nome: 'Administrador', acao: 'rota.criar', alvo_tipo: 'rota', alvo_id: String(rotaId), antes: null });
    expect(criada!.depois).toMatchObject({ nome: 'Rota Auditada', funcionario_id: bia.id, status: 'ativa', valor_aluguel_centavos: 30_000, cidades: [GOIANIA, ANAPOLIS] });

    const [editada] = await registrosDe(() => ok({ method: 'PUT', url: `/api/rotas/${rotaId}`, token: admin, payload: dadosRota(bia.id, 'Rota Renomeada', { valor_aluguel: '450,50' }) }));
    expect(editada).toMatchObject({ acao: 'rota.editar', antes: { nome: 'Rota Auditada', valor_aluguel_centavos: 30_000 }, depois: { nome: 'Rota Renomeada', valor_aluguel_centavos: 45_050 } });

    const [cancelada] = await registrosDe(() => ok({ method: 'PATCH', url: `/api/rotas/${rotaId}/cancelar`, token: admin }));
    expect(cancelada).toMatchObject({ acao: 'rota.cancelar', antes: { status: 'ativa' }, depois: { status: 'cancelada' } });
    // Cancelling again changes nothing and records nothing.
    expect(await registrosDe(() => ok({ method: 'PATCH', url: `/api/rotas/${rotaId}/cancelar`, token: admin }))).toEqual([]);

    const [reaberta] = await registrosDe(() => ok({ method: 'PATCH', url: `/api/rotas/${rotaId}/reabrir`, token: admin }));
    expect(reaberta).toMatchObject({ acao: 'rota.reabrir', antes: { status: 'cancelada' }, depois: { status: 'ativa' } });

    const [excluida] = await registrosDe(() => ok({ method: 'DELETE', url: `/api/rotas/${rotaId}`, token: admin }));
    expect(excluida).toMatchObject({ acao: 'rota.excluir', alvo_id: String(rotaId), depois: null, antes: { nome: 'Rota Renomeada', cidades: [GOIANIA, ANAPOLIS] } });
    // The route is gone: the trail names it by the name it had; the earlier rows name it the same way.
    expect(excluida!.alvo_nome).toBe('Rota Renomeada');
    expect(criada!.alvo_id).toBe(excluida!.alvo_id);
  });

  it('usuário: criar, editar, desativar, ativar, trocar a senha, encerrar sessões e desbloquear, sem nenhum segredo', async () => {
    let id = 0;
    const [criado] = await registrosDe(async () => {
      id = (await ok({ method: 'POST', url: '/api/usuarios', token: admin, payload: { nome: 'Caio Novo', email: 'caio.novo@escola.com.br', senha: 'segredo123', tipo: 'funcionario' } }, 201)).usuario.id;
    });
    expect(criado).toMatchObject({ acao: 'usuario.criar', alvo_tipo: 'usuario', alvo_id: String(id), antes: null, depois: { nome: 'Caio Novo', tipo: 'funcionario', ativo: true } });

    const [editado] = await registrosDe(() => ok({ method: 'PATCH', url: `/api/usuarios/${id}`, token: admin, payload: { nome: 'Caio Editado' } }));
    expect(editado).toMatchObject({ acao: 'usuario.editar', antes: { nome: 'Caio Novo' }, depois: { nome: 'Caio Editado' } });
    const [desativado] = await registrosDe(() => ok({ method: 'PATCH', url: `/api/usuarios/${id}/desativar`, token: admin }));
    expect(desativado).toMatchObject({ acao: 'usuario.desativar', antes: { ativo: true }, depois: { ativo: false } });
    const [ativado] = await registrosDe(() => ok({ method: 'PATCH', url: `/api/usuarios/${id}/ativar`, token: admin }));
    expect(ativado).toMatchObject({ acao: 'usuario.ativar', depois: { ativo: true } });

    await t.login('caio.novo@escola.com.br', 'segredo123');
    const [senha] = await registrosDe(() => ok({ method: 'PATCH', url: `/api/usuarios/${id}/senha`, token: admin, payload: { novaSenha: 'outraSenha456' } }));
    expect(senha).toMatchObject({ acao: 'usuario.senha', antes: null, depois: { sessoes_encerradas: 1 } });
    await t.login('caio.novo@escola.com.br', 'outraSenha456');
    const [sessoes] = await registrosDe(() => ok({ method: 'POST', url: `/api/usuarios/${id}/encerrar-sessoes`, token: admin }));
    expect(sessoes).toMatchObject({ acao: 'usuario.encerrar_sessoes', depois: { sessoes_encerradas: 1 } });

    for (let i = 0; i < 5; i++) await t.chamar({ method: 'POST', url: '/api/auth/login', payload: { email: 'caio.novo@escola.com.br', senha: 'errada' } });
    const [desbloqueado] = await registrosDe(() => ok({ method: 'PATCH', url: `/api/usuarios/${id}/desbloquear`, token: admin }));
    expect(desbloqueado).toMatchObject({ acao: 'usuario.desbloquear', antes: { bloqueado: true }, depois: { bloqueado: false } });

    const texto = JSON.stringify((await trilha()).registros);
    for (const segredo of ['segredo123', 'outraSenha456', 'senha_hash', 'senhaHash', 'scrypt']) expect(texto).not.toContain(segredo);
  });

  it('dinheiro e despesas: o crédito com o saldo antes e depois; aprovar e rejeitar (uma ou em lote) com quem avaliou antes', async () => {
    const rota = (await ok({ method: 'POST', url: '/api/rotas', token: admin, payload: dadosRota(ana.id, 'Rota da Ana') }, 201)).rota.id as number;
    const [credito] = await registrosDe(() => ok({ method: 'POST', url: '/api/saldo/adicionar', token: admin, payload: { funcionario_id: ana.id, valor: '250,00', descricao: 'Adiantamento', rota_id: rota } }, 201));
    expect(credito).toMatchObject({ acao: 'saldo.creditar', alvo_tipo: 'usuario', alvo_id: String(ana.id), alvo_nome: 'Ana Auditada', antes: { saldo_centavos: 0 }, depois: { saldo_centavos: 25_000, valor_centavos: 25_000, descricao: 'Adiantamento', rota_id: rota } });

    const ids: string[] = [];
    for (const valor of ['10,00', '20,00']) {
      const id = uuidv7();
      const corpo = await formulario({ id, rota_id: rota, cidade_id: GOIANIA, data_despesa: somarDias(HOJE, -1), tipo: 'alimentacao', valor, descricao: '' });
      await ok({ method: 'POST', url: '/api/despesas', token: ana.token, ...corpo }, 201);
      ids.push(id);
    }
    const [aprovada] = await registrosDe(() => ok({ method: 'PATCH', url: `/api/despesas/${ids[0]}/aprovar`, token: admin }));
    expect(aprovada).toMatchObject({ acao: 'despesa.aprovar', alvo_tipo: 'despesa', alvo_id: ids[0], alvo_nome: null, antes: { status_aprovacao: 'pendente', avaliado_por: null }, depois: { status_aprovacao: 'aprovada', avaliado_por: adminId, valor_centavos: 1_000 } });
    // Approving again: nothing changes, nothing is recorded, and who approved first stays.
    expect(await registrosDe(() => ok({ method: 'PATCH', url: '/api/despesas/aprovar', token: admin, payload: { ids: [ids[0]] } }))).toEqual([]);

    const lote = await registrosDe(() => ok({ method: 'PATCH', url: '/api/despesas/rejeitar', token: admin, payload: { ids, motivo: 'Sem nota' } }));
    expect(lote.map((r) => [r.acao, r.alvo_id, r.antes?.status_aprovacao, r.depois?.motivo_rejeicao])).toEqual([
      ['despesa.rejeitar', ids[0], 'aprovada', 'Sem nota'],
      ['despesa.rejeitar', ids[1], 'pendente', 'Sem nota'],
    ]);
  });

  it('importar pendências: quem importou, de quem, o arquivo e o que entrou; reimportar o mesmo arquivo não registra nada', async () => {
    const caio = await t.criarFuncionario({ nome: 'Caio Sem Sinal', email: 'caio.sem.sinal@teste.com.br' });
    const rota = (await ok({ method: 'POST', url: '/api/rotas', token: admin, payload: dadosRota(caio.id, 'Rota do Caio') }, 201)).rota.id as number;
    const vendaId = uuidv7();
    const arquivo = arquivoPendencias({ id: caio.id, nome: 'Caio Sem Sinal', email: 'caio.sem.sinal@teste.com.br' }, [
      operacaoPendencia({
        metodo: 'POST',
        caminho: '/vendas',
        corpo: { id: vendaId, rota_id: rota, cidade_id: GOIANIA, data_venda: somarDias(HOJE, -1), valor_dinheiro: 10, registrado_em: new Date().toISOString() },
        chaves: [`venda:${rota}:${GOIANIA}:${somarDias(HOJE, -1)}`],
        descricao: 'Fechamento de Goiânia',
      }),
    ]);
    const importar = async () => ok({ method: 'POST', url: '/api/sync/importar', token: admin, ...(await formularioPendencias(arquivo, 'pendencias-caio.sgp')) });

    const [importacao] = await registrosDe(importar);
    expect(importacao).toMatchObject({
      admin_id: adminId,
      acao: 'pendencias.importar',
      alvo_tipo: 'usuario',
      alvo_id: String(caio.id),
      alvo_nome: 'Caio Sem Sinal',
      antes: null,
      depois: { arquivo: 'pendencias-caio.sgp', exportado_em: arquivo.exportadoEm, dispositivo: arquivo.dispositivo, aceito: 1, ja_recebido: 0, recusado: 0, retido: 0, nao_processado: 0 },
    });
    // The same file again changes nothing: every write is answered as already received.
    expect(await registrosDe(importar)).toEqual([]);
    // A file refused whole (another format) leaves nothing either.
    expect(
      await registrosDe(async () => {
        esperarRecusa(await t.chamar({ method: 'POST', url: '/api/sync/importar', token: admin, ...(await formularioPendencias('{}', 'outro.sgp')) }), 400, 'dados_invalidos');
      }),
    ).toEqual([]);
  });

  it('o que mudou nomeia o funcionário e a rota citados, não só o número', async () => {
    const duda = await t.criarFuncionario({ nome: 'Duda Nomeada' });
    const rota = (await ok({ method: 'POST', url: '/api/rotas', token: admin, payload: dadosRota(duda.id, 'Rota Nomeada') }, 201)).rota.id as number;
    await ok({ method: 'POST', url: '/api/saldo/adicionar', token: admin, payload: { funcionario_id: duda.id, valor: '5,00', descricao: '', rota_id: rota } }, 201);
    const r = await t.chamar({ method: 'GET', url: '/api/auditoria?limit=5', token: admin });
    const { nomes } = r.json() as { nomes: { usuarios: Record<string, string>; rotas: Record<string, string> } };
    expect(nomes.usuarios[String(duda.id)]).toBe('Duda Nomeada');
    expect(nomes.rotas[String(rota)]).toBe('Rota Nomeada');
  });

  it('o que é recusado não deixa registro, e a troca da própria senha não é ação de admin', async () => {
    const eva = await t.criarFuncionario({ nome: 'Eva Recusas' });
    expect(
      await registrosDe(async () => {
        esperarRecusa(await t.chamar({ method: 'POST', url: '/api/saldo/adicionar', token: admin, payload: { funcionario_id: eva.id, valor: '10,00', descricao: '', rota_id: 999_999 } }), 422, 'regra_de_negocio');
        esperarRecusa(await t.chamar({ method: 'PATCH', url: `/api/usuarios/${adminId}/desativar`, token: admin }), 422, 'regra_de_negocio');
        esperarRecusa(await t.chamar({ method: 'PATCH', url: `/api/rotas/999999/cancelar`, token: admin }), 404, 'nao_encontrado');
        await ok({ method: 'PUT', url: '/api/auth/senha', token: eva.token, payload: { senhaAtual: eva.senha, novaSenha: 'minhaNova789' } });
      }),
    ).toEqual([]);
  });
});

describe('o alvo de cada registro, em palavras e com o endereço que o abre', () => {
  const doAlvo = (registros: RegistroAuditoria[], alvoId: string | number) => registros.filter((r) => r.alvo_id === String(alvoId));

  it('despesas criadas no mesmo minuto: cada uma com o funcionário, o tipo, o valor e a data', async () => {
    const gil = await t.criarFuncionario({ nome: 'Gil Mesmo Minuto' });
    const hugo = await t.criarFuncionario({ nome: 'Hugo Mesmo Minuto' });
    const rotaGil = (await ok({ method: 'POST', url: '/api/rotas', token: admin, payload: dadosRota(gil.id, 'Rota do Gil') }, 201)).rota.id as number;
    const rotaHugo = (await ok({ method: 'POST', url: '/api/rotas', token: admin, payload: dadosRota(hugo.id, 'Rota do Hugo') }, 201)).rota.id as number;
    const ontem = somarDias(HOJE, -1);
    const anteontem = somarDias(HOJE, -2);
    const criar = async (quem: { token: string }, rota: number, campos: Record<string, string>) => {
      const id = uuidv7();
      await ok({ method: 'POST', url: '/api/despesas', token: quem.token, ...(await formulario({ id, rota_id: rota, cidade_id: GOIANIA, descricao: '', ...campos })) }, 201);
      return id;
    };
    // UUIDv7 ids of the same minute share their first characters: the trail used to show them all alike.
    const almoco = await criar(gil, rotaGil, { data_despesa: ontem, tipo: 'alimentacao', valor: '48,00' });
    const hotel = await criar(gil, rotaGil, { data_despesa: anteontem, tipo: 'hospedagem', valor: '180,00' });
    const lavagem = await criar(hugo, rotaHugo, { data_despesa: ontem, tipo: 'outro', tipo_outro: 'Lavagem do carro', valor: '35,50' });
    expect(almoco.slice(0, 8)).toBe(lavagem.slice(0, 8));

    const lote = await registrosDe(() => ok({ method: 'PATCH', url: '/api/despesas/aprovar', token: admin, payload: { ids: [almoco, hotel, lavagem] } }));
    expect(lote.map((r) => [r.alvo_id, r.alvo_descricao, r.alvo_link])).toEqual([
      [almoco, `Despesa de Gil Mesmo Minuto · Alimentação · R$ 48,00 · ${formatarData(ontem)}`, `/despesas?despesa=${almoco}`],
      [hotel, `Despesa de Gil Mesmo Minuto · Hospedagem · R$ 180,00 · ${formatarData(anteontem)}`, `/despesas?despesa=${hotel}`],
      [lavagem, `Despesa de Hugo Mesmo Minuto · Lavagem do carro · R$ 35,50 · ${formatarData(ontem)}`, `/despesas?despesa=${lavagem}`],
    ]);
  });

  it('uma despesa excluída depois continua nomeada, diz que foi excluída e não tem endereço', async () => {
    const iara = await t.criarFuncionario({ nome: 'Iara Exclui' });
    const rota = (await ok({ method: 'POST', url: '/api/rotas', token: admin, payload: dadosRota(iara.id, 'Rota da Iara') }, 201)).rota.id as number;
    const id = uuidv7();
    await ok({ method: 'POST', url: '/api/despesas', token: iara.token, ...(await formulario({ id, rota_id: rota, cidade_id: GOIANIA, data_despesa: HOJE, tipo: 'pedagio', valor: '12,40', descricao: '' })) }, 201);
    await ok({ method: 'PATCH', url: `/api/despesas/${id}/aprovar`, token: admin });
    // As a deletion leaves it: the row stays, marked (the ledger keeps pointing at it).
    await t.db.update(despesas).set({ excluidaEm: new Date().toISOString() }).where(eq(despesas.id, id));
    const [aprovacao] = doAlvo((await trilha()).registros, id);
    expect(aprovacao!.alvo_descricao).toBe(`Despesa de Iara Exclui · Pedágio · R$ 12,40 · ${formatarData(HOJE)} (excluída)`);
    expect(aprovacao!.alvo_link).toBeNull();
  });

  it('rota: o nome; excluída, o nome que tinha em todos os registros dela, sem endereço', async () => {
    const joao = await t.criarFuncionario({ nome: 'João Rotas' });
    let rotaId = 0;
    const [criada] = await registrosDe(async () => {
      rotaId = (await ok({ method: 'POST', url: '/api/rotas', token: admin, payload: dadosRota(joao.id, 'Rota Serra Dourada') }, 201)).rota.id;
    });
    expect(criada).toMatchObject({ alvo_descricao: 'Rota Serra Dourada', alvo_link: `/relatorios?rota=${rotaId}` });

    await ok({ method: 'PUT', url: `/api/rotas/${rotaId}`, token: admin, payload: dadosRota(joao.id, 'Rota Serra Dourada II') });
    await ok({ method: 'PATCH', url: `/api/rotas/${rotaId}/cancelar`, token: admin });
    await ok({ method: 'DELETE', url: `/api/rotas/${rotaId}`, token: admin });
    const daRota = doAlvo((await trilha()).registros.filter((r) => r.alvo_tipo === 'rota'), rotaId);
    // Every row reads the name the route had when deleted: the cancellation's snapshot holds only the
    // status, the creation's the first name.
    expect(daRota.map((r) => [r.acao, r.alvo_descricao, r.alvo_link])).toEqual([
      ['rota.excluir', 'Rota Serra Dourada II (excluída)', null],
      ['rota.cancelar', 'Rota Serra Dourada II (excluída)', null],
      ['rota.editar', 'Rota Serra Dourada II (excluída)', null],
      ['rota.criar', 'Rota Serra Dourada II (excluída)', null],
    ]);
  });

  it('usuário: nome e e-mail; crédito: o funcionário e o valor; importação: de quem e o arquivo', async () => {
    const kelly = await t.criarFuncionario({ nome: 'Kelly Crédito', email: 'kelly.credito@escola.com.br' });
    const rota = (await ok({ method: 'POST', url: '/api/rotas', token: admin, payload: dadosRota(kelly.id, 'Rota da Kelly') }, 201)).rota.id as number;
    const [editado] = await registrosDe(() => ok({ method: 'PATCH', url: `/api/usuarios/${kelly.id}`, token: admin, payload: { nome: 'Kelly Crédito Souza' } }));
    expect(editado).toMatchObject({ alvo_descricao: 'Kelly Crédito Souza · kelly.credito@escola.com.br', alvo_link: `/usuarios?usuario=${kelly.id}` });

    const [credito] = await registrosDe(() => ok({ method: 'POST', url: '/api/saldo/adicionar', token: admin, payload: { funcionario_id: kelly.id, valor: '1.250,75', descricao: '', rota_id: rota } }, 201));
    expect(credito!.alvo_descricao).toBe('Crédito de R$ 1.250,75 para Kelly Crédito Souza');
    expect(credito!.alvo_link).toBe(`/saldo?funcionario=${kelly.id}`);

    const importacao = (await trilha('&acao=pendencias.importar')).registros[0]!;
    expect(importacao).toMatchObject({ alvo_descricao: 'Pendências de Caio Sem Sinal · pendencias-caio.sgp', alvo_link: `/usuarios?usuario=${importacao.alvo_id}` });
  });

  it('venda: o funcionário, a cidade com a UF, o total e a data, com o endereço que a mostra em Vendas', async () => {
    const lia = await t.criarFuncionario({ nome: 'Lia Vendas' });
    const rota = (await ok({ method: 'POST', url: '/api/rotas', token: admin, payload: dadosRota(lia.id, 'Rota da Lia') }, 201)).rota.id as number;
    const ontem = somarDias(HOJE, -1);
    const venda = await inserirVenda(t.db, rota, lia.id, ANAPOLIS, ontem, { dinheiro: 50_000, pix: 25_050, boletos: 3 });
    // No admin action changes a sale yet (pendências imported write them for the employee): a row about
    // one, written as such an action would, is named and linked like the others.
    await registrarAuditoria(t.db, { adminId, acao: 'pendencias.importar', alvoTipo: 'venda', alvoId: venda, antes: null, depois: { aceito: 1 } });
    const [r] = doAlvo((await trilha()).registros, venda);
    expect(r!.alvo_descricao).toBe(`Venda de Lia Vendas · Anápolis (GO) · R$ 750,50 · ${formatarData(ontem)}`);
    expect(r!.alvo_link).toBe(`/vendas?rota=${rota}&cidade=${ANAPOLIS}&data=${ontem}`);
  });

  it('os nomes da página inteira vêm em poucas consultas, quantos registros ela tiver', async () => {
    // SQLite's driver prepares each statement it runs: the count is the number of queries. A page of one
    // row looks up one kind of record; a page of every kind, at most one query more for each other kind.
    if (ehPostgres(t.db)) return;
    const consultas = async (limite: number) => {
      const espiao = vi.spyOn(t.db.$client, 'prepare');
      try {
        const r = await t.chamar({ method: 'GET', url: `/api/auditoria?limit=${limite}`, token: admin });
        expect(r.statusCode).toBe(200);
        return espiao.mock.calls.length;
      } finally {
        espiao.mockRestore();
      }
    };
    expect((await trilha()).total).toBeGreaterThan(30);
    expect(await consultas(1000)).toBeLessThanOrEqual((await consultas(1)) + 4);
  });
});

describe('GET /api/auditoria', () => {
  it('mais recentes primeiro, paginado, e filtra por admin, ação e dia (no fuso do negócio)', async () => {
    const todos = await trilha();
    expect(todos.total).toBeGreaterThan(10);
    const datas = todos.registros.map((r) => r.criado_em);
    expect(datas).toEqual([...datas].sort().reverse());

    const pagina = (await t.chamar({ method: 'GET', url: '/api/auditoria?limit=3&page=2', token: admin })).json();
    expect(pagina).toMatchObject({ total: todos.total, page: 2, limit: 3 });
    expect(pagina.registros.map((r: RegistroAuditoria) => r.id)).toEqual(todos.registros.slice(3, 6).map((r) => r.id));

    const rejeicoes = await trilha('&acao=despesa.rejeitar');
    expect(rejeicoes.registros.length).toBe(2);
    expect(rejeicoes.registros.every((r) => r.acao === 'despesa.rejeitar')).toBe(true);
    expect((await trilha(`&admin_id=${adminId}`)).total).toBe(todos.total);
    expect((await trilha(`&admin_id=${ana.id}`)).total).toBe(0);
    expect((await trilha(`&data_inicio=${HOJE}&data_fim=${HOJE}`)).total).toBe(todos.total);
    expect((await trilha(`&data_fim=${somarDias(HOJE, -1)}`)).total).toBe(0);
    expect((await trilha(`&data_inicio=${somarDias(HOJE, 1)}`)).total).toBe(0);
  });

  it('só o admin lê; filtros inválidos recebem 400 em pt-BR', async () => {
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/auditoria', token: ana.token }), 403, 'sem_permissao');
    expect((await t.chamar({ method: 'GET', url: '/api/auditoria' })).statusCode).toBe(401);
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/auditoria?acao=apagar.tudo', token: admin }), 400, 'dados_invalidos', /Ação/);
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/auditoria?data_inicio=25/11/2026', token: admin }), 400, 'dados_invalidos', /Data inicial inválida/);
  });

  it('é só de inclusão: o banco recusa alterar ou apagar um registro', async () => {
    const antes = await t.db.select().from(auditoria);
    expect(antes.length).toBeGreaterThan(0);
    expect(await recusaDe(t.db.update(auditoria).set({ acao: 'x' }))).toContain('A auditoria só aceita novos registros.');
    expect(await recusaDe(t.db.delete(auditoria))).toContain('A auditoria só aceita novos registros.');
    expect(await t.db.select().from(auditoria)).toEqual(antes);
  });
});
