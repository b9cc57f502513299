/**
 * Deactivating an employee loses nobody's money from sight: before the 'Sim', the admin reads what
 * the employee still holds (active route, balance, what the phones say is unsent); after it, a
 * non-zero balance stays in Saldo (marked inactive), the dashboard's counts still add up, and the
 * routes can still be picked in Relatórios.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cabecalhosDoRelato, filaVazia } from '../../../shared/dispositivos';
import { ANAPOLIS, CALDAS_NOVAS, GOIANIA, criarRotaAtiva } from '../../test/despesas';
import { inserirMovimento } from '../../test/fabricas';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';

const CELULAR_ANA = '11111111-2222-4333-8444-555555555555';
const OUTRO_CELULAR_ANA = '22222222-3333-4444-8555-666666666666';
const HORA = 3600;

let t: AppDeTeste;
let admin: string;
type Pessoa = Awaited<ReturnType<AppDeTeste['criarFuncionario']>>;
/** R$ 700,00, an active route and unsent records on two phones: deactivated in the tests. */
let ana: Pessoa;
let rotaAna: number;
/** Active, on a route, nothing else. */
let bruno: Pessoa;
/** Deactivated with a zero balance and no route: leaves the lists as before. */
let carla: Pessoa;
/** Deactivated owing money (negative balance), no route. */
let davi: Pessoa;

const ha = (instante: string | null) => (instante === null ? null : (Date.now() - Date.parse(instante)) / 1000);
const desativar = async (id: number) => {
  const r = await t.chamar({ method: 'PATCH', url: `/api/usuarios/${id}/desativar`, token: admin });
  expect(r.statusCode, r.body).toBe(200);
};
const ler = async (url: string) => {
  const r = await t.chamar({ method: 'GET', url, token: admin });
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
};

beforeAll(async () => {
  t = await criarAppDeTeste();
  admin = await t.tokenAdmin();
  ana = await t.criarFuncionario({ nome: 'Ana Estrada', email: 'ana@teste.com.br' });
  rotaAna = await criarRotaAtiva(t, ana.id, [GOIANIA, ANAPOLIS], 'Rota Goiás');
  const credito = await t.chamar({ method: 'POST', url: '/api/saldo/adicionar', token: admin, payload: { funcionario_id: ana.id, valor: 700, descricao: '', rota_id: rotaAna } });
  expect(credito.statusCode, credito.body).toBe(201);
  // Her phones tell the server what waits on them (every request carries the report).
  const relato = (dispositivoId: string, fila: ReturnType<typeof filaVazia>, filaIdadeS: number, syncIdadeS: number | null) =>
    t.chamar({ method: 'GET', url: '/api/rotas/ativas/funcionario', token: ana.token, headers: cabecalhosDoRelato({ dispositivoId, versao: '0.5.0', fila, filaIdadeS, syncIdadeS }) });
  expect((await relato(CELULAR_ANA, { ...filaVazia(), venda: 2 }, 3 * HORA, HORA)).statusCode).toBe(200);
  expect((await relato(OUTRO_CELULAR_ANA, { ...filaVazia(), despesa: 1 }, 30 * HORA, null)).statusCode).toBe(200);

  bruno = await t.criarFuncionario({ nome: 'Bruno Campo' });
  await criarRotaAtiva(t, bruno.id, [CALDAS_NOVAS], 'Rota Sul');
  carla = await t.criarFuncionario({ nome: 'Carla Zerada' });
  davi = await t.criarFuncionario({ nome: 'Davi Devedor' });
  await inserirMovimento(t.db, davi.id, 'debito', 5_000, null);
});
afterAll(() => t.fechar());

describe('GET /api/usuarios/:id/desativacao (o que fica com o funcionário)', () => {
  it('diz a rota ativa, o saldo e o que cada celular relatou como não enviado', async () => {
    const r = await ler(`/api/usuarios/${ana.id}/desativacao`);
    expect(r).toMatchObject({ usuario_id: ana.id, nome: 'Ana Estrada', rota_ativa: { id: rotaAna, nome: 'Rota Goiás' }, saldo_atual: 700 });
    // Oldest waiting first, as the dashboard's panel lists the phones.
    expect(r.celulares.map((c: { dispositivo_id: string; fila: unknown }) => [c.dispositivo_id, c.fila])).toEqual([
      [OUTRO_CELULAR_ANA, { venda: 0, visita: 0, despesa: 1, rota: 0 }],
      [CELULAR_ANA, { venda: 2, visita: 0, despesa: 0, rota: 0 }],
    ]);
    const [velho, novo] = r.celulares;
    expect(ha(velho.mais_antigo_em)).toBeCloseTo(30 * HORA, -1);
    expect(velho.ultima_sync_em).toBeNull();
    expect(ha(novo.mais_antigo_em)).toBeCloseTo(3 * HORA, -1);
    expect(ha(novo.ultima_sync_em)).toBeCloseTo(HORA, -1);
  });

  it('nada a relatar: sem rota, saldo zero, nenhum celular', async () => {
    expect(await ler(`/api/usuarios/${carla.id}/desativacao`)).toEqual({ usuario_id: carla.id, nome: 'Carla Zerada', rota_ativa: null, saldo_atual: 0, celulares: [] });
    expect((await ler(`/api/usuarios/${davi.id}/desativacao`)).saldo_atual).toBe(-50);
  });

  it('só o admin lê; o funcionário B não lê o resumo de A; id inexistente é 404', async () => {
    esperarRecusa(await t.chamar({ method: 'GET', url: `/api/usuarios/${ana.id}/desativacao`, token: bruno.token }), 403, 'sem_permissao');
    esperarRecusa(await t.chamar({ method: 'GET', url: `/api/usuarios/${ana.id}/desativacao`, token: ana.token }), 403, 'sem_permissao');
    esperarRecusa(await t.chamar({ method: 'GET', url: `/api/usuarios/${ana.id}/desativacao` }), 401, 'nao_autenticado');
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/usuarios/999999/desativacao', token: admin }), 404, 'nao_encontrado', 'Usuário não encontrado.');
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/usuarios/abc/desativacao', token: admin }), 400, 'dados_invalidos');
  });
});

describe('depois de desativar', () => {
  beforeAll(async () => {
    await desativar(ana.id);
    await desativar(carla.id);
    await desativar(davi.id);
  });

  it('o resumo continua legível para o funcionário já inativo', async () => {
    expect(await ler(`/api/usuarios/${ana.id}/desativacao`)).toMatchObject({ rota_ativa: { nome: 'Rota Goiás' }, saldo_atual: 700 });
  });

  it('GET /saldo mantém quem tem saldo diferente de zero, marcado inativo; o inativo com zero sai', async () => {
    const { saldos } = await ler('/api/saldo');
    const porId = new Map(saldos.map((s: { funcionario_id: number }) => [s.funcionario_id, s]));
    expect(porId.get(ana.id)).toMatchObject({ funcionario_nome: 'Ana Estrada', saldo_atual: 700, funcionario_ativo: false });
    expect(porId.get(davi.id)).toMatchObject({ saldo_atual: -50, funcionario_ativo: false });
    expect(porId.get(bruno.id)).toMatchObject({ saldo_atual: 0, funcionario_ativo: true });
    expect(porId.has(carla.id)).toBe(false);
  });

  it('GET /saldo/resumo conta e soma o inativo com saldo', async () => {
    expect(await ler('/api/saldo/resumo')).toEqual({ total_funcionarios: 3, saldo_total: 650, movimentacoes_hoje: 2 });
  });

  it('o modal de crédito não oferece o inativo, e o crédito a ele continua recusado', async () => {
    const { funcionarios } = await ler('/api/saldo/funcionarios');
    expect(funcionarios.map((f: { nome: string }) => f.nome)).toEqual(['Bruno Campo']);
    esperarRecusa(
      await t.chamar({ method: 'POST', url: '/api/saldo/adicionar', token: admin, payload: { funcionario_id: ana.id, valor: 10, descricao: '', rota_id: null } }),
      422,
      'regra_de_negocio',
      'Este funcionário está inativo e não pode receber saldo.',
    );
  });

  it('GET /saldo/relatorio marca as linhas do inativo', async () => {
    const { relatorio } = await ler('/api/saldo/relatorio');
    expect(relatorio.filter((l: { funcionario_id: number }) => l.funcionario_id === ana.id)).toEqual([
      { funcionario_id: ana.id, funcionario_nome: 'Ana Estrada', funcionario_ativo: false, rota_id: rotaAna, rota_nome: 'Rota Goiás', total_creditado: 700, total_gasto: 0, saldo_atual: 700, a_devolver: 700, a_receber: 0, acertada_em: null },
    ]);
  });

  it('o dashboard fecha a conta: rotas ativas = funcionários em rota, o inativo com rota ativa conta em rota', async () => {
    const d = await ler('/api/relatorios/dashboard-admin');
    expect(d.rotasAtivas).toBe(2);
    expect(d.funcionariosEmRota).toBe(d.rotasAtivas);
    // Active employees without a route: none here (Carla and Davi are inactive, without routes).
    expect(d.funcionariosSemRota).toBe(0);
    expect(d.funcionarios.map((f: { nome: string; ativo: boolean; rota_nome: string }) => [f.nome, f.rota_nome, f.ativo])).toEqual([
      ['Ana Estrada', 'Rota Goiás', false],
      ['Bruno Campo', 'Rota Sul', true],
    ]);
    expect(d.rotas.map((r: { nome: string; funcionario_ativo: boolean }) => [r.nome, r.funcionario_ativo]).sort()).toEqual([
      ['Rota Goiás', false],
      ['Rota Sul', true],
    ]);
  });

  it('o filtro de Relatórios oferece o inativo que tem rotas; os seletores de sempre, só ativos', async () => {
    const comRotas = await ler('/api/usuarios/funcionarios?inativos_com_rotas=true');
    expect(comRotas.funcionarios.map((u: { nome: string; ativo: boolean }) => [u.nome, u.ativo])).toEqual([
      ['Ana Estrada', false],
      ['Bruno Campo', true],
    ]);
    expect((await ler('/api/usuarios/funcionarios')).funcionarios.map((u: { nome: string }) => u.nome)).toEqual(['Bruno Campo']);
    const { rotas } = await ler(`/api/relatorios/rotas?funcionario_id=${ana.id}`);
    expect(rotas.map((r: { rota_nome: string }) => r.rota_nome)).toEqual(['Rota Goiás']);
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/usuarios/funcionarios?inativos_com_rotas=talvez', token: admin }), 400, 'dados_invalidos');
  });
});
