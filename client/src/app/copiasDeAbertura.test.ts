import { beforeEach, describe, expect, it, vi } from 'vitest';
import { bancoLocal } from '../offline/db';
import { NOME_DO_BANCO } from '../offline/nomeDoBanco';
import { chavesRotas } from '../rotas/chaves';
import { chavesVendas } from '../vendas/chaves';
import { criarQueryClient } from './Provedores';
import { lerCopiasDeAbertura, tomarCopiaDeAbertura } from './copiasDeAbertura';

const EU = 3;
const OUTRA = 4;
const CHAVE = `rotas:ativas:${EU}`;
const HOJE = '2026-11-28';
const hoje = () => HOJE;
const ROTA = { id: 7, nome: 'Rota Sul', status: 'ativa', cidades: [] };

beforeEach(async () => {
  await bancoLocal.cache.clear();
  await bancoLocal.cache.put({ chave: CHAVE, usuarioId: EU, dados: [], atualizadoEm: '2026-11-28T10:00:00.000Z' });
});

describe('cópias lidas na partida', () => {
  it('valem uma vez, só para quem as leu, e só nos primeiros 10 s', async () => {
    await lerCopiasDeAbertura('/dashboard', EU, hoje, criarQueryClient());
    // Another person signed in on the shared phone meanwhile: not theirs.
    expect(tomarCopiaDeAbertura(CHAVE, OUTRA)).toBeUndefined();

    await lerCopiasDeAbertura('/dashboard', EU, hoje, criarQueryClient());
    await expect(tomarCopiaDeAbertura(CHAVE, EU)).resolves.toMatchObject({ dados: [], origem: 'cache' });
    expect(tomarCopiaDeAbertura(CHAVE, EU)).toBeUndefined();

    await lerCopiasDeAbertura('/dashboard', EU, hoje, criarQueryClient());
    expect(tomarCopiaDeAbertura(CHAVE, EU, Date.now() + 10_001)).toBeUndefined();
  });

  it('Vendas: a rota ativa, o dia e o histórico já estão nas consultas da tela antes de ela montar, como prévias', async () => {
    await bancoLocal.cache.bulkPut([
      { chave: CHAVE, usuarioId: EU, dados: [ROTA], atualizadoEm: '2026-11-28T10:00:00.000Z' },
      { chave: `vendas:dia:7:${HOJE}`, usuarioId: EU, dados: { status: [], vendas: [] }, atualizadoEm: '2026-11-28T10:01:00.000Z', confirmacoesAte: 4 },
      { chave: 'vendas:historico:7', usuarioId: EU, dados: [{ id: 'h' }], atualizadoEm: '2026-11-28T10:02:00.000Z' },
    ]);
    const consultas = criarQueryClient();
    await lerCopiasDeAbertura('/vendas', EU, hoje, consultas);
    expect(consultas.getQueryData(chavesRotas.ativaDoFuncionario(EU))).toEqual({ dados: ROTA, origem: 'cache', atualizadoEm: '2026-11-28T10:00:00.000Z', previa: true });
    expect(consultas.getQueryData(chavesVendas.dia(EU, 7, HOJE))).toEqual({ dados: { status: [], vendas: [] }, origem: 'cache', atualizadoEm: '2026-11-28T10:01:00.000Z', confirmacoesAte: 4, previa: true });
    expect(consultas.getQueryData(chavesVendas.historico(EU, 7))).toMatchObject({ dados: [{ id: 'h' }], previa: true });
    // Stale: the screen's query still asks the server.
    expect(consultas.getQueryState(chavesRotas.ativaDoFuncionario(EU))?.dataUpdatedAt).toBe(0);
  });

  it('uma resposta que chegou primeiro não é trocada pela cópia, e a cópia de outra pessoa não aparece', async () => {
    await bancoLocal.cache.put({ chave: CHAVE, usuarioId: OUTRA, dados: [ROTA], atualizadoEm: '2026-11-28T10:00:00.000Z' });
    const consultas = criarQueryClient();
    await lerCopiasDeAbertura('/vendas', EU, hoje, consultas);
    expect(consultas.getQueryData(chavesRotas.ativaDoFuncionario(EU))).toBeUndefined();

    await bancoLocal.cache.put({ chave: CHAVE, usuarioId: EU, dados: [ROTA], atualizadoEm: '2026-11-28T10:00:00.000Z' });
    const resposta = { dados: { ...ROTA, nome: 'Do servidor' }, origem: 'servidor', atualizadoEm: '2026-11-28T11:00:00.000Z' };
    consultas.setQueryData(chavesRotas.ativaDoFuncionario(EU), resposta);
    await lerCopiasDeAbertura('/vendas', EU, hoje, consultas);
    expect(consultas.getQueryData(chavesRotas.ativaDoFuncionario(EU))).toBe(resposta);
  });

  it('num aparelho sem banco ainda, a leitura não cria o banco (quem o cria é o Dexie, na versão certa)', async () => {
    bancoLocal.close();
    await new Promise<void>((ok, erro) => {
      const pedido = indexedDB.deleteDatabase(NOME_DO_BANCO);
      pedido.onsuccess = () => ok();
      pedido.onerror = () => erro(pedido.error);
    });
    await lerCopiasDeAbertura('/vendas', EU, hoje, criarQueryClient());
    expect((await indexedDB.databases()).map((b) => b.name)).not.toContain(NOME_DO_BANCO);
    await bancoLocal.open();
    expect(bancoLocal.verno).toBe(4);
    expect(await bancoLocal.cache.count()).toBe(0);
  });

  it('aberto no dashboard: a rota é lida na partida, o dia de Vendas não (Vendas o lê quando abrir), e a data de hoje nem é calculada', async () => {
    await bancoLocal.cache.bulkPut([
      { chave: CHAVE, usuarioId: EU, dados: [ROTA], atualizadoEm: '2026-11-28T10:00:00.000Z' },
      { chave: `vendas:dia:7:${HOJE}`, usuarioId: EU, dados: { status: [], vendas: [] }, atualizadoEm: '2026-11-28T10:01:00.000Z' },
    ]);
    const consultas = criarQueryClient();
    // Today's date is an Intl format (the first one starts ICU): the dashboard's read of its copies does not need it.
    const perguntarHoje = vi.fn(hoje);
    await lerCopiasDeAbertura('/dashboard', EU, perguntarHoje, consultas);
    expect(perguntarHoje).not.toHaveBeenCalled();
    expect(consultas.getQueryData(chavesRotas.ativaDoFuncionario(EU))).toMatchObject({ dados: ROTA, previa: true });
    expect(consultas.getQueryData(chavesVendas.dia(EU, 7, HOJE))).toBeUndefined();
    expect(tomarCopiaDeAbertura(`vendas:dia:7:${HOJE}`, EU)).toBeUndefined();
  });
});
