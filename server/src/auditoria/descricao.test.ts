/** The audit row's target in words (descreverAlvo, pure): each kind, and each record that is gone. */
import { describe, expect, it } from 'vitest';
import { descreverAlvo, type AlvosDaPagina, type RegistroParaDescrever } from './descricao';

const DESPESA = '0193a2b4-0000-7000-8000-000000000001';
const VENDA = '0193a2b4-0000-7000-8000-000000000002';

const alvos = (extra: Partial<AlvosDaPagina> = {}): AlvosDaPagina => ({
  usuarios: new Map([
    [5, { nome: 'Ana Souza', email: 'ana@escola.com.br' }],
    [6, { nome: 'Bruno Campo', email: 'bruno@escola.com.br' }],
  ]),
  rotas: new Map([[7, { nome: 'Rota Sul' }]]),
  rotasExcluidas: new Map(),
  despesas: new Map(),
  vendas: new Map(),
  ...extra,
});
const registro = (r: Partial<RegistroParaDescrever> & Pick<RegistroParaDescrever, 'alvo_tipo' | 'alvo_id'>): RegistroParaDescrever => ({ acao: 'usuario.editar', antes: null, depois: null, ...r });
/** The non-breaking spaces (after 'R$', before '·'), as plain ones for reading. */
const ler = <D extends { texto: string }>(d: D): D => ({ ...d, texto: d.texto.replace(/\u00a0/g, ' ') });

describe('descreverAlvo', () => {
  it('despesa: funcionário, tipo (o digitado em outro), valor e data; marcada excluída, sem endereço', () => {
    const despesa = { funcionarioNome: 'Ana Souza', tipo: 'alimentacao' as const, tipoOutro: null, valorCentavos: 4_800, data: '2026-12-03', excluida: false };
    const r = registro({ acao: 'despesa.aprovar', alvo_tipo: 'despesa', alvo_id: DESPESA });
    expect(ler(descreverAlvo(r, alvos({ despesas: new Map([[DESPESA, despesa]]) })))).toEqual({
      nome: null,
      texto: 'Despesa de Ana Souza · Alimentação · R$ 48,00 · 03/12/2026',
      link: `/despesas?despesa=${DESPESA}`,
    });
    // The dot stays on the line of the part before it when the text wraps.
    expect(descreverAlvo(r, alvos({ despesas: new Map([[DESPESA, despesa]]) })).texto).toBe('Despesa de Ana Souza\u00a0· Alimentação\u00a0· R$\u00a048,00\u00a0· 03/12/2026');
    const outro = { ...despesa, tipo: 'outro' as const, tipoOutro: 'Lavagem do carro', valorCentavos: 123_456 };
    expect(ler(descreverAlvo(r, alvos({ despesas: new Map([[DESPESA, outro]]) }))).texto).toBe('Despesa de Ana Souza · Lavagem do carro · R$ 1.234,56 · 03/12/2026');
    expect(ler(descreverAlvo(r, alvos({ despesas: new Map([[DESPESA, { ...despesa, excluida: true }]]) })))).toEqual({
      nome: null,
      texto: 'Despesa de Ana Souza · Alimentação · R$ 48,00 · 03/12/2026 (excluída)',
      link: null,
    });
  });

  it('despesa que não está mais na tabela: o que a avaliação guardou (funcionário e valor)', () => {
    const r = registro({ acao: 'despesa.rejeitar', alvo_tipo: 'despesa', alvo_id: DESPESA, antes: { funcionario_id: 6, valor_centavos: 1_000 }, depois: { funcionario_id: 6, valor_centavos: 1_000 } });
    expect(ler(descreverAlvo(r, alvos()))).toEqual({ nome: null, texto: 'Despesa de Bruno Campo · R$ 10,00 (excluída)', link: null });
    expect(ler(descreverAlvo(registro({ alvo_tipo: 'despesa', alvo_id: DESPESA }), alvos())).texto).toBe('Despesa (excluída)');
  });

  it('venda: funcionário, cidade com UF, total e data, e o endereço dos filtros que a mostram', () => {
    const venda = { funcionarioNome: 'Bruno Campo', cidadeNome: 'Goiânia', uf: 'GO', totalCentavos: 75_050, data: '2026-12-03', rotaId: 7, cidadeId: 5208707 };
    const r = registro({ alvo_tipo: 'venda', alvo_id: VENDA });
    expect(ler(descreverAlvo(r, alvos({ vendas: new Map([[VENDA, venda]]) })))).toEqual({
      nome: null,
      texto: 'Venda de Bruno Campo · Goiânia (GO) · R$ 750,50 · 03/12/2026',
      link: '/vendas?rota=7&cidade=5208707&data=2026-12-03',
    });
    expect(ler(descreverAlvo(r, alvos()))).toEqual({ nome: null, texto: 'Venda (excluída)', link: null });
  });

  it('rota: o nome; excluída, o que a exclusão guardou, senão o que o registro guardou', () => {
    expect(ler(descreverAlvo(registro({ acao: 'rota.editar', alvo_tipo: 'rota', alvo_id: '7' }), alvos()))).toEqual({ nome: 'Rota Sul', texto: 'Rota Sul', link: '/relatorios?rota=7' });
    const cancelada = registro({ acao: 'rota.cancelar', alvo_tipo: 'rota', alvo_id: '9', antes: { status: 'ativa' }, depois: { status: 'cancelada' } });
    const excluidas = new Map([[9, { nome: 'Rota Norte', funcionario_id: 6 }]]);
    expect(ler(descreverAlvo(cancelada, alvos({ rotasExcluidas: excluidas })))).toEqual({ nome: 'Rota Norte', texto: 'Rota Norte (excluída)', link: null });
    // No deletion row (gone before the trail existed): the row's own snapshot, newest name first.
    const editada = registro({ acao: 'rota.editar', alvo_tipo: 'rota', alvo_id: '9', antes: { nome: 'Rota A', funcionario_id: 5 }, depois: { nome: 'Rota B', funcionario_id: 5 } });
    expect(ler(descreverAlvo(editada, alvos()))).toEqual({ nome: 'Rota B', texto: 'Rota B (excluída)', link: null });
    expect(ler(descreverAlvo(cancelada, alvos())).texto).toBe('Rota #9 (excluída)');
  });

  it('na rota, o acerto diz o dinheiro e o sentido; o registro tardio decidido, o que o celular mandou e de quem', () => {
    const acerto = (depois: Record<string, unknown>) => ler(descreverAlvo(registro({ acao: 'rota.acertar', alvo_tipo: 'rota', alvo_id: '7', antes: { em_aberto_centavos: 10_450 }, depois }), alvos())).texto;
    expect(acerto({ valor_centavos: 10_450, sentido: 'devolvido' })).toBe('Acerto de R$ 104,50 devolvido pelo funcionário · Rota Sul');
    expect(acerto({ valor_centavos: 2_000, sentido: 'pago' })).toBe('Acerto de R$ 20,00 pago ao funcionário · Rota Sul');
    expect(acerto({ valor_centavos: 0, sentido: 'devolvido' })).toBe('Acerto sem troca de dinheiro · Rota Sul');
    const tardio = registro({
      acao: 'rota.aceitar_tardio',
      alvo_tipo: 'rota',
      alvo_id: '7',
      antes: { operacao_id: 'op', situacao: 'pendente' },
      depois: { operacao_id: 'op', tipo: 'venda.salvar', funcionario_id: 6, descricao: 'Fechamento do dia: Goiânia (GO), 03/12/2026: R$ 750,50', situacao: 'aceita', motivo: null },
    });
    expect(ler(descreverAlvo(tardio, alvos()))).toEqual({ nome: 'Rota Sul', texto: 'Fechamento do dia: Goiânia (GO), 03/12/2026: R$ 750,50 · Bruno Campo · Rota Sul', link: '/relatorios?rota=7' });
  });

  it('usuário: nome e e-mail; crédito: o valor e para quem, com o endereço das movimentações; importação: de quem e o arquivo', () => {
    expect(ler(descreverAlvo(registro({ acao: 'usuario.desativar', alvo_tipo: 'usuario', alvo_id: '5' }), alvos()))).toEqual({
      nome: 'Ana Souza',
      texto: 'Ana Souza · ana@escola.com.br',
      link: '/usuarios?usuario=5',
    });
    const credito = registro({ acao: 'saldo.creditar', alvo_tipo: 'usuario', alvo_id: '6', antes: { saldo_centavos: 0 }, depois: { saldo_centavos: 25_000, valor_centavos: 25_000 } });
    expect(ler(descreverAlvo(credito, alvos()))).toEqual({ nome: 'Bruno Campo', texto: 'Crédito de R$ 250,00 para Bruno Campo', link: '/saldo?funcionario=6' });
    const importacao = registro({ acao: 'pendencias.importar', alvo_tipo: 'usuario', alvo_id: '6', depois: { arquivo: 'pendencias-bruno.sgp', aceito: 3 } });
    expect(ler(descreverAlvo(importacao, alvos()))).toEqual({ nome: 'Bruno Campo', texto: 'Pendências de Bruno Campo · pendencias-bruno.sgp', link: '/usuarios?usuario=6' });
    // Users are never deleted; one the page could not find is still named from its snapshot.
    const sumido = registro({ acao: 'usuario.criar', alvo_tipo: 'usuario', alvo_id: '40', depois: { nome: 'Caio', email: 'caio@escola.com.br' } });
    expect(ler(descreverAlvo(sumido, alvos()))).toEqual({ nome: 'Caio', texto: 'Caio · caio@escola.com.br (excluído)', link: null });
  });
});
