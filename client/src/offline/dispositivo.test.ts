import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, definirFetch } from '../api/client';
import { salvarSessao } from '../auth/sessaoLocal';
import { ADMIN_TESTE, FUNCIONARIO_TESTE } from '../test/renderizar';
import { versaoApp } from '../versaoApp';
import { BancoLocal } from './db';
import { cabecalhosDoDispositivo, CHAVE_DISPOSITIVO, ESPERA_RELATO_MS, idDoDispositivo, iniciarRelatorioDoDispositivo, resumirFila, tipoDaFila } from './dispositivo';
import { enfileirar } from './outbox';
import { CHAVE_ULTIMA_SYNC } from './sync';

let banco: BancoLocal;
let n = 0;
let parar: (() => void) | null = null;
let enviados: Record<string, string>[];

beforeEach(async () => {
  banco = new BancoLocal(`teste-dispositivo-${++n}`);
  await banco.open();
  enviados = [];
  definirFetch(async (url, init) => {
    enviados.push({ ...(init?.headers as Record<string, string>), url: `${init?.method} ${String(url)}` });
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  });
});
afterEach(async () => {
  parar?.();
  parar = null;
  definirFetch((...a) => fetch(...a));
  await banco.delete();
});

const enfileirarTipo = async (tipo: string, usuarioId: number, criadoEm?: string) => {
  const item = await enfileirar(banco, { tipo, usuarioId, dados: {}, chaves: [], descricao: tipo });
  if (criadoEm) await banco.outbox.where('id').equals(item.id).modify({ criadoEm });
};

describe('resumo da fila para o servidor', () => {
  it('conta por tipo (venda, visita, despesa, rota) e por dono, com o item mais antigo; itens recusados também esperam no celular', () => {
    const r = resumirFila([
      { usuarioId: 2, tipo: 'despesa.criar', criadoEm: '2026-11-20T10:00:00.000Z' },
      { usuarioId: 2, tipo: 'despesa.excluir', criadoEm: '2026-11-19T08:00:00.000Z' },
      { usuarioId: 2, tipo: 'venda.salvar', criadoEm: '2026-11-21T10:00:00.000Z' },
      { usuarioId: 2, tipo: 'visita.registrar', criadoEm: 'lixo' },
      { usuarioId: 2, tipo: 'rota.finalizar', criadoEm: '2026-11-21T11:00:00.000Z' },
      { usuarioId: 2, tipo: 'desconhecido.x', criadoEm: '2026-11-01T00:00:00.000Z' },
      { usuarioId: 3, tipo: 'venda.salvar', criadoEm: '2026-11-22T00:00:00.000Z' },
    ]);
    expect(r.get(2)).toEqual({ fila: { venda: 1, visita: 1, despesa: 2, rota: 1 }, maisAntigoMs: Date.parse('2026-11-01T00:00:00.000Z') });
    expect(r.get(3)).toEqual({ fila: { venda: 1, visita: 0, despesa: 0, rota: 0 }, maisAntigoMs: Date.parse('2026-11-22T00:00:00.000Z') });
    expect(tipoDaFila('venda.salvar')).toBe('venda');
    expect(tipoDaFila('brinde.dar')).toBeNull();
  });

  it('o id do aparelho é criado uma vez e guardado; não depende de quem entrou', async () => {
    const id = await idDoDispositivo(banco);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await idDoDispositivo(banco)).toBe(id);
    expect((await banco.meta.get(CHAVE_DISPOSITIVO))?.valor).toBe(id);
  });

  it('o id é lido do IndexedDB uma vez por banco aberto: cada passada do motor não abre outra transação de escrita', async () => {
    const transacao = vi.spyOn(banco, 'transaction');
    const ids = await Promise.all([idDoDispositivo(banco), idDoDispositivo(banco)]);
    expect(await idDoDispositivo(banco)).toBe(ids[0]);
    expect(ids[1]).toBe(ids[0]);
    expect(transacao).toHaveBeenCalledTimes(1);
    // Another install (another database) has its own.
    const outro = new BancoLocal(`teste-dispositivo-outro-${n}`);
    try {
      expect(await idDoDispositivo(outro)).not.toBe(ids[0]);
    } finally {
      await outro.delete();
    }
  });
});

describe('cabeçalhos em cada requisição', () => {
  it('funcionário: versão, id do aparelho, fila dele, idade do mais antigo e da última sincronização, tudo ASCII', async () => {
    salvarSessao('tok', FUNCIONARIO_TESTE);
    const agora = Date.now();
    await enfileirarTipo('despesa.criar', FUNCIONARIO_TESTE.id, new Date(agora - 2 * 86400_000).toISOString());
    await enfileirarTipo('despesa.criar', FUNCIONARIO_TESTE.id);
    await enfileirarTipo('despesa.editar', FUNCIONARIO_TESTE.id);
    await enfileirarTipo('venda.salvar', FUNCIONARIO_TESTE.id);
    await enfileirarTipo('venda.salvar', 99); // someone else's, left on this phone
    await banco.meta.put({ chave: CHAVE_ULTIMA_SYNC, valor: new Date(agora - 600_000).toISOString() });
    parar = iniciarRelatorioDoDispositivo(banco);
    await expect.poll(() => cabecalhosDoDispositivo(FUNCIONARIO_TESTE.id)['X-Fila']).toBe('venda=1;visita=0;despesa=3;rota=0');
    await expect.poll(() => cabecalhosDoDispositivo(FUNCIONARIO_TESTE.id)['X-Sync-Idade']).toBeDefined();

    await api.get('/rotas/ativas/funcionario');
    const c = enviados[0]!;
    expect(c['X-Versao-App']).toBe(versaoApp());
    expect(c['X-Dispositivo']).toBe((await banco.meta.get(CHAVE_DISPOSITIVO))?.valor);
    expect(c['X-Fila']).toBe('venda=1;visita=0;despesa=3;rota=0');
    expect(Number(c['X-Fila-Idade'])).toBeGreaterThanOrEqual(2 * 86400);
    expect(Number(c['X-Fila-Idade'])).toBeLessThan(2 * 86400 + 60);
    expect(Number(c['X-Sync-Idade'])).toBeGreaterThanOrEqual(600);
    expect(c.Authorization).toBe('Bearer tok');
    for (const [k, v] of Object.entries(c)) if (k !== 'url') expect(v).toMatch(/^[\x20-\x7e]*$/);

    // The queue empties: the next request says so.
    await banco.outbox.where('usuarioId').equals(FUNCIONARIO_TESTE.id).delete();
    await expect.poll(() => cabecalhosDoDispositivo(FUNCIONARIO_TESTE.id)['X-Fila']).toBe('venda=0;visita=0;despesa=0;rota=0');
    await api.get('/rotas/ativas/funcionario');
    expect(enviados[1]!['X-Fila']).toBe('venda=0;visita=0;despesa=0;rota=0');
    expect(enviados[1]!['X-Fila-Idade']).toBeUndefined();
  });

  it('admin e sem sessão: só a versão (o navegador do admin não é um celular em campo); parado, nada de relato', async () => {
    parar = iniciarRelatorioDoDispositivo(banco);
    await expect.poll(async () => (await banco.meta.get(CHAVE_DISPOSITIVO))?.valor).toBeTypeOf('string');
    salvarSessao('tok-admin', ADMIN_TESTE);
    await api.get('/usuarios');
    localStorage.clear();
    await api.get('/config');
    for (const c of enviados) {
      expect(c['X-Versao-App']).toBe(versaoApp());
      expect(c['X-Dispositivo']).toBeUndefined();
      expect(c['X-Fila']).toBeUndefined();
    }
    salvarSessao('tok', FUNCIONARIO_TESTE);
    parar();
    parar = null;
    await api.get('/rotas');
    expect(enviados[2]!['X-Dispositivo']).toBeUndefined();
  });
});

describe('a fila mudou sem nenhuma requisição saindo', () => {
  it('um relato curto avisa o servidor (a fila esvaziou depois do envio); sem mudança, nada é enviado', async () => {
    salvarSessao('tok', FUNCIONARIO_TESTE);
    await enfileirarTipo('venda.salvar', FUNCIONARIO_TESTE.id);
    parar = iniciarRelatorioDoDispositivo(banco);
    await expect.poll(() => cabecalhosDoDispositivo(FUNCIONARIO_TESTE.id)['X-Fila']).toBe('venda=1;visita=0;despesa=0;rota=0');
    await api.get('/rotas/ativas/funcionario'); // the server heard of the 1 sale
    await new Promise((r) => setTimeout(r, ESPERA_RELATO_MS + 300));
    expect(enviados.map((e) => e.url)).toEqual(['GET /api/rotas/ativas/funcionario']); // nothing new to say

    await banco.outbox.clear(); // what a sync does when the server confirms
    await expect.poll(() => enviados.map((e) => e.url), { timeout: ESPERA_RELATO_MS + 3000 }).toContain('POST /api/dispositivos/relato');
    const relato = enviados.find((e) => e.url === 'POST /api/dispositivos/relato')!;
    expect(relato['X-Fila']).toBe('venda=0;visita=0;despesa=0;rota=0');
    expect(relato.Authorization).toBe('Bearer tok');
  });
});
