import { describe, expect, it } from 'vitest';
import { cabecalhosDoRelato, filaVazia, formatarFila, lerFila, lerIdade, lerRelato, somarFilas, type RelatoDispositivo } from './dispositivos';

const ID = '0b6f1c2e-8d4a-4f3b-9c1d-2e3f4a5b6c7d';
const relato: RelatoDispositivo = { dispositivoId: ID, versao: '0.1.0', fila: { venda: 1, visita: 0, despesa: 3, rota: 0 }, filaIdadeS: 7260, syncIdadeS: 95 };

/** Headers as Node hands them to the server: lower-case names. */
const comoNode = (c: Record<string, string>) => Object.fromEntries(Object.entries(c).map(([k, v]) => [k.toLowerCase(), v]));

describe('cabeçalhos do relato do celular', () => {
  it('ida e volta: o que o celular monta o servidor lê igual', () => {
    const c = cabecalhosDoRelato(relato);
    expect(c).toEqual({ 'X-Dispositivo': ID, 'X-Versao-App': '0.1.0', 'X-Fila': 'venda=1;visita=0;despesa=3;rota=0', 'X-Fila-Idade': '7260', 'X-Sync-Idade': '95' });
    for (const v of Object.values(c)) expect(v).toMatch(/^[\x20-\x7e]+$/); // safe ASCII
    expect(lerRelato(comoNode(c))).toEqual(relato);
  });

  it('fila vazia não manda idade; nunca sincronizado não manda a última sincronização', () => {
    const c = cabecalhosDoRelato({ ...relato, fila: filaVazia(), filaIdadeS: 50, syncIdadeS: null });
    expect(c['X-Fila-Idade']).toBeUndefined();
    expect(c['X-Sync-Idade']).toBeUndefined();
    expect(lerRelato(comoNode(c))).toEqual({ dispositivoId: ID, versao: '0.1.0', fila: filaVazia(), filaIdadeS: null, syncIdadeS: null });
  });

  it('sem relato (scripts, admin) ou com lixo: null, nunca uma exceção', () => {
    const bom = comoNode(cabecalhosDoRelato(relato));
    expect(lerRelato({})).toBeNull();
    const lixos: Record<string, string | string[]>[] = [
      { 'x-dispositivo': 'não-é-uuid' },
      { 'x-dispositivo': `${ID}x` },
      { 'x-dispositivo': [ID, ID] },
      { 'x-versao-app': 'v1' },
      { 'x-versao-app': '1.0.0; drop table' },
      { 'x-fila': 'venda=-1' },
      { 'x-fila': 'venda=1;venda=2' },
      { 'x-fila': 'venda=1234567' },
      { 'x-fila': 'x'.repeat(300) },
      { 'x-fila-idade': '-5' },
      { 'x-fila-idade': '1e9' },
      { 'x-fila-idade': '99999999999' },
      { 'x-sync-idade': 'ontem' },
    ];
    for (const lixo of lixos) expect(lerRelato({ ...bom, ...lixo }), JSON.stringify(lixo)).toBeNull();
    const { 'x-versao-app': _v, ...semVersao } = bom;
    expect(lerRelato(semVersao)).toBeNull();
  });

  it('tipos de fila que uma versão mais nova criar são ignorados; os que faltam valem zero', () => {
    expect(lerFila('venda=2;brinde=4')).toEqual({ ...filaVazia(), venda: 2 });
    expect(lerFila('')).toBeNull();
    expect(formatarFila({ venda: 2.7, visita: -1, despesa: 10_000_000, rota: 0 })).toBe('venda=2;visita=0;despesa=999999;rota=0');
    expect(lerIdade('0')).toBe(0);
    expect(lerIdade('315360001')).toBeNull();
  });
});

describe('somarFilas', () => {
  it('soma por tipo o que vários celulares guardam; nenhum celular é a fila vazia', () => {
    expect(somarFilas([{ ...filaVazia(), venda: 2 }, { venda: 1, visita: 0, despesa: 3, rota: 1 }])).toEqual({ venda: 3, visita: 0, despesa: 3, rota: 1 });
    expect(somarFilas([])).toEqual(filaVazia());
  });
});
