import { describe, expect, it } from 'vitest';
import {
  ESPACO_AVISO_BYTES,
  ESPACO_FALTA_BYTES,
  formatarIdade,
  montarChecklist,
  resumirChecklist,
  VALIDADE_COPIA_MS,
  type IdItemViagem,
  type ItemViagem,
  type RetratoAparelho,
} from './prontoParaViajar';

const AGORA = Date.parse('2026-11-20T15:00:00.000Z');
const ha = (ms: number) => ({ atualizadoEm: new Date(AGORA - ms).toISOString() });
const MIN = 60_000;
const MB = 1024 * 1024;

/** Everything on the device, 5 minutes old, 1 GB free, the queue empty. */
function retrato(extra: Partial<RetratoAparelho> = {}): RetratoAparelho {
  return {
    rotas: { ...ha(5 * MIN), ativa: { nome: 'Rota Sul Goiano', cidades: 12 } },
    finalizadas: ha(5 * MIN),
    historico: ha(5 * MIN),
    diaDeHoje: ha(5 * MIN),
    despesas: ha(5 * MIN),
    saldo: ha(5 * MIN),
    salario: ha(5 * MIN),
    persistente: true,
    livreBytes: 1024 * MB,
    fila: { aguardando: 0, recusados: 0 },
    ...extra,
  };
}

const item = (itens: ItemViagem[], id: IdItemViagem) => itens.find((i) => i.id === id)!;
const checklist = (extra: Partial<RetratoAparelho> = {}, agora = AGORA) => montarChecklist(retrato(extra), agora);

describe('formatarIdade', () => {
  it.each([
    [0, 'agora mesmo'],
    [59_999, 'agora mesmo'],
    [MIN, 'há 1 minuto'],
    [5 * MIN, 'há 5 minutos'],
    [59 * MIN + 59_999, 'há 59 minutos'],
    [60 * MIN, 'há 1 hora'],
    [23 * 60 * MIN + 59 * MIN, 'há 23 horas'],
    [24 * 60 * MIN, 'há 1 dia'],
    [3 * 24 * 60 * MIN + 5 * MIN, 'há 3 dias'],
  ])('%i ms -> %s', (ms, texto) => {
    expect(formatarIdade(new Date(AGORA - ms).toISOString(), AGORA)).toBe(texto);
  });

  it('uma cópia com hora à frente do relógio do celular vale como agora', () => {
    expect(formatarIdade(new Date(AGORA + 10 * MIN).toISOString(), AGORA)).toBe('agora mesmo');
  });
});

describe('montarChecklist', () => {
  it('tudo no aparelho e recente: os oito itens prontos, com a idade de cada cópia', () => {
    const itens = checklist();
    expect(itens.map((i) => [i.id, i.estado])).toEqual([
      ['rota', 'ok'],
      ['vendas', 'ok'],
      ['despesas', 'ok'],
      ['saldo', 'ok'],
      ['salario', 'ok'],
      ['persistente', 'ok'],
      ['espaco', 'ok'],
      ['fila', 'ok'],
    ]);
    expect(item(itens, 'rota')).toMatchObject({ titulo: 'Rota ativa e 12 cidades', detalhe: 'atualizado há 5 minutos' });
    expect(item(itens, 'vendas')).toMatchObject({ titulo: 'Vendas recentes', detalhe: 'atualizado há 5 minutos' });
    expect(item(itens, 'despesas').titulo).toBe('Suas despesas');
    expect(item(itens, 'saldo').titulo).toBe('Saldo');
    expect(item(itens, 'persistente').titulo).toBe('Armazenamento persistente concedido');
    expect(item(itens, 'espaco').titulo).toBe('Espaço livre: 1,0 GB');
    expect(item(itens, 'fila').titulo).toBe('Fila vazia');
    expect(resumirChecklist(itens)).toEqual({ pronto: true, faltam: 0, avisos: 0, preparando: 0, texto: 'Tudo pronto para trabalhar sem sinal' });
  });

  it('uma rota de 1 cidade diz "1 cidade"', () => {
    expect(item(checklist({ rotas: { ...ha(MIN), ativa: { nome: 'R', cidades: 1 } } }), 'rota').titulo).toBe('Rota ativa e 1 cidade');
  });

  it('validade de 24 h: exatamente 24 h ainda vale; 1 ms a mais é aviso, com a idade', () => {
    expect(item(checklist({ saldo: ha(VALIDADE_COPIA_MS) }), 'saldo').estado).toBe('ok');
    const velho = item(checklist({ saldo: ha(VALIDADE_COPIA_MS + 1) }), 'saldo');
    expect(velho).toMatchObject({ estado: 'aviso', detalhe: 'atualizado há 1 dia: cópia antiga, atualize com sinal' });
  });

  it('a idade de um item é a da cópia mais antiga dele (o que a tela mostraria offline)', () => {
    const itens = checklist({ historico: ha(2 * MIN), diaDeHoje: ha(30 * 60 * MIN) });
    expect(item(itens, 'vendas')).toMatchObject({ estado: 'aviso', detalhe: 'atualizado há 1 dia: cópia antiga, atualize com sinal' });
    expect(item(checklist({ rotas: { ...ha(MIN), ativa: { nome: 'R', cidades: 3 } }, finalizadas: ha(3 * 60 * MIN) }), 'rota').detalhe).toBe('atualizado há 3 horas');
  });

  it('sem a rota no aparelho: a rota falta, e as vendas e o salário, que dependem dela, também', () => {
    const itens = checklist({ rotas: null, historico: null, diaDeHoje: null, salario: null });
    expect(item(itens, 'rota')).toMatchObject({ estado: 'falta', titulo: 'Rota ativa e cidades', detalhe: 'Não está neste aparelho: toque em Atualizar tudo com sinal.' });
    expect(item(itens, 'vendas')).toMatchObject({ estado: 'falta', detalhe: 'Depende da rota ativa.' });
    expect(item(itens, 'salario').estado).toBe('falta');
    expect(item(itens, 'despesas').estado).toBe('ok');
    expect(resumirChecklist(itens)).toMatchObject({ pronto: false, faltam: 3, texto: 'Faltam 3 itens' });
  });

  it('a cópia diz que não há rota ativa: "Nenhuma rota ativa"', () => {
    expect(item(checklist({ rotas: { ...ha(MIN), ativa: null } }), 'rota')).toMatchObject({ estado: 'falta', titulo: 'Nenhuma rota ativa' });
  });

  it('cópias complementares ausentes são aviso, não falta (a tela abre, com menos)', () => {
    expect(item(checklist({ diaDeHoje: null }), 'vendas')).toMatchObject({ estado: 'aviso', detalhe: 'atualizado há 5 minutos; falta o dia de hoje' });
    expect(item(checklist({ finalizadas: null }), 'rota')).toMatchObject({ estado: 'aviso', detalhe: 'atualizado há 5 minutos; faltam as rotas concluídas' });
    expect(item(checklist({ historico: null }), 'vendas').estado).toBe('falta');
  });

  it('despesas, saldo e salário ausentes faltam', () => {
    const itens = checklist({ despesas: null, saldo: null, salario: null });
    expect(['despesas', 'saldo', 'salario'].map((id) => item(itens, id as IdItemViagem).estado)).toEqual(['falta', 'falta', 'falta']);
  });

  it('armazenamento persistente: concedido, negado, o navegador não informa', () => {
    expect(item(checklist({ persistente: false }), 'persistente')).toMatchObject({ estado: 'aviso', titulo: 'Armazenamento persistente não concedido' });
    expect(item(checklist({ persistente: null }), 'persistente')).toMatchObject({ estado: 'aviso', titulo: 'Armazenamento persistente: o navegador não informa' });
  });

  it('espaço livre: aviso abaixo de 200 MB e falta abaixo de 20 MB, dizendo quanto', () => {
    expect(item(checklist({ livreBytes: ESPACO_AVISO_BYTES }), 'espaco')).toMatchObject({ estado: 'ok', titulo: 'Espaço livre: 200 MB' });
    expect(item(checklist({ livreBytes: ESPACO_AVISO_BYTES - 1 }), 'espaco').estado).toBe('aviso');
    expect(item(checklist({ livreBytes: 150 * MB }), 'espaco')).toMatchObject({ estado: 'aviso', titulo: 'Pouco espaço livre: 150 MB' });
    expect(item(checklist({ livreBytes: ESPACO_FALTA_BYTES }), 'espaco').estado).toBe('aviso');
    expect(item(checklist({ livreBytes: ESPACO_FALTA_BYTES - 1 }), 'espaco').estado).toBe('falta');
    expect(item(checklist({ livreBytes: 12 * MB }), 'espaco').titulo).toBe('Quase sem espaço: 12 MB livres');
    expect(item(checklist({ livreBytes: null }), 'espaco')).toMatchObject({ estado: 'aviso', titulo: 'Espaço livre: não foi possível medir' });
  });

  it('fila: vazia, itens aguardando (vão sozinhos: não é alarme), travados (aviso), recusados (falta)', () => {
    expect(item(checklist({ fila: { aguardando: 1, recusados: 0 } }), 'fila')).toMatchObject({ estado: 'ok', titulo: '1 item aguardando envio' });
    expect(item(checklist({ fila: { aguardando: 2, recusados: 0, travados: 1 } }), 'fila')).toMatchObject({ estado: 'aviso', titulo: '2 itens aguardando envio' });
    expect(item(checklist({ fila: { aguardando: 3, recusados: 0 } }), 'fila').titulo).toBe('3 itens aguardando envio');
    expect(item(checklist({ fila: { aguardando: 0, recusados: 1 } }), 'fila')).toMatchObject({ estado: 'falta', titulo: '1 item precisa de atenção' });
    expect(item(checklist({ fila: { aguardando: 2, recusados: 2 } }), 'fila').titulo).toBe('2 itens aguardando envio, 2 itens precisam de atenção');
  });
});

describe('resumirChecklist', () => {
  it('falta 1 item; faltas e avisos; só avisos', () => {
    expect(resumirChecklist(checklist({ saldo: null })).texto).toBe('Falta 1 item');
    expect(resumirChecklist(checklist({ saldo: null, despesas: null, persistente: false })).texto).toBe('Faltam 2 itens e 1 item para conferir');
    expect(resumirChecklist(checklist({ fila: { aguardando: 2, recusados: 0, travados: 2 } }))).toEqual({
      pronto: false,
      faltam: 0,
      avisos: 1,
      preparando: 0,
      texto: 'Quase pronto: 1 item para conferir',
    });
    expect(resumirChecklist(checklist({ persistente: false, livreBytes: 100 * MB })).texto).toBe('Quase pronto: 2 itens para conferir');
  });
});

describe('montarChecklist com sinal: alarme só para o que o app não resolve sozinho', () => {
  const comSinal = (preparando: boolean) => ({ comSinal: true, preparando });
  const vazio = retrato({ rotas: null, finalizadas: null, historico: null, diaDeHoje: null, despesas: null, saldo: null, salario: null });

  it('primeiro login com sinal: nada no aparelho é "baixando", nunca "falta"', () => {
    const itens = montarChecklist(vazio, AGORA, comSinal(true));
    expect(itens.filter((i) => i.estado === 'falta')).toEqual([]);
    expect(itens.filter((i) => i.estado === 'preparando').map((i) => i.id)).toEqual(['rota', 'vendas', 'despesas', 'saldo', 'salario']);
    expect(resumirChecklist(itens)).toMatchObject({ pronto: false, faltam: 0, preparando: 5, texto: 'Preparando o aparelho para trabalhar sem sinal' });
  });

  it('uma cópia antiga com sinal é do app atualizar; se a última tentativa falhou, é aviso (nunca falta)', () => {
    const antigo = retrato({ saldo: ha(VALIDADE_COPIA_MS + 1) });
    expect(item(montarChecklist(antigo, AGORA, comSinal(true)), 'saldo').estado).toBe('preparando');
    expect(item(montarChecklist(antigo, AGORA, comSinal(false)), 'saldo')).toMatchObject({
      estado: 'aviso',
      detalhe: 'Não veio na última tentativa: o app tenta de novo sozinho, ou toque em Atualizar tudo.',
    });
    expect(item(montarChecklist(vazio, AGORA, comSinal(false)), 'rota').estado).toBe('aviso');
  });

  it('com sinal, o que o app não resolve continua alarme: itens recusados, pouco espaço', () => {
    const itens = montarChecklist(retrato({ fila: { aguardando: 0, recusados: 1 }, livreBytes: ESPACO_FALTA_BYTES - 1 }), AGORA, comSinal(true));
    expect(item(itens, 'fila').estado).toBe('falta');
    expect(item(itens, 'espaco').estado).toBe('falta');
  });
});
