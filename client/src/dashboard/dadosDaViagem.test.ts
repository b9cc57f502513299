import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BancoLocal, type EntradaCache } from '../offline/db';
import { rotaDeTeste } from '../test/rotas';
import { anotarLeiturasDeValores } from '../test/leiturasDoBanco';
import { chavesCacheViagem, lerCopiasDoAparelho } from './dadosDaViagem';

const EU = 3;
const OUTRA_PESSOA = 4;
const HOJE = '2026-11-28';
let banco: BancoLocal;
let n = 0;

beforeEach(async () => {
  banco = new BancoLocal(`dados-da-viagem-${++n}`);
  await banco.open();
});
afterEach(async () => {
  banco.close();
  await banco.delete();
});

/** A day's worth of history: what makes reading a copy's contents cost on a cheap phone. */
const historicoGrande = Array.from({ length: 400 }, (_, i) => ({ id: i, cidade: `Cidade ${i}`, valores: { dinheiro: 100 * i, pix: 0, cartao: 0 }, observacoes: 'x'.repeat(200) }));

async function guardar(chave: string, atualizadoEm: string, dados: unknown, usuarioId = EU) {
  const entrada: EntradaCache = { chave, usuarioId, dados, atualizadoEm };
  await banco.cache.put(entrada);
}

describe('o retrato do aparelho para "Pronto para viajar"', () => {
  it('diz a data de cada cópia lendo só o conteúdo da lista de rotas (as outras cópias não saem do IndexedDB)', async () => {
    const rota = rotaDeTeste({ id: 7, nome: 'Rota do Vale', cidades: [{ id: 1, nome: 'Goiânia', uf: 'GO' }, { id: 2, nome: 'Anápolis', uf: 'GO' }] });
    await guardar(`rotas:ativas:${EU}`, '2026-11-28T10:00:00.000Z', [rota]);
    await guardar(`rotas:finalizadas:${EU}`, '2026-11-28T10:01:00.000Z', []);
    await guardar('vendas:historico:7', '2026-11-28T10:02:00.000Z', historicoGrande);
    await guardar(`vendas:dia:7:${HOJE}`, '2026-11-28T10:03:00.000Z', historicoGrande);
    await guardar(chavesCacheViagem.despesas, '2026-11-28T10:04:00.000Z', historicoGrande);
    await guardar(chavesCacheViagem.saldo, '2026-11-28T10:05:00.000Z', { saldo: 0 });
    await guardar('relatorios:salario:7', '2026-11-28T10:06:00.000Z', { base: 0 });
    // Another person's copies on a shared phone: not read.
    await guardar(`rotas:ativas:${OUTRA_PESSOA}`, '2026-11-28T11:00:00.000Z', [rota], OUTRA_PESSOA);

    const lidos = await anotarLeiturasDeValores(banco, 'cache', (valor) => (valor as EntradaCache).chave);
    const copias = await lerCopiasDoAparelho(banco, EU, HOJE);

    expect(copias).toEqual({
      rotas: { atualizadoEm: '2026-11-28T10:00:00.000Z', ativa: { nome: 'Rota do Vale', cidades: 2 } },
      finalizadas: { atualizadoEm: '2026-11-28T10:01:00.000Z' },
      historico: { atualizadoEm: '2026-11-28T10:02:00.000Z' },
      diaDeHoje: { atualizadoEm: '2026-11-28T10:03:00.000Z' },
      despesas: { atualizadoEm: '2026-11-28T10:04:00.000Z' },
      saldo: { atualizadoEm: '2026-11-28T10:05:00.000Z' },
      salario: { atualizadoEm: '2026-11-28T10:06:00.000Z' },
      fila: { aguardando: 0, recusados: 0, travados: 0 },
    });
    expect(lidos).toEqual([`rotas:ativas:${EU}`]);
  });

  it('sem cópias desta pessoa: nada no aparelho, mesmo com as de outra', async () => {
    await guardar(`rotas:ativas:${OUTRA_PESSOA}`, '2026-11-28T10:00:00.000Z', []);
    await guardar(chavesCacheViagem.saldo, '2026-11-28T10:05:00.000Z', { saldo: 1 }, OUTRA_PESSOA);
    const copias = await lerCopiasDoAparelho(banco, EU, HOJE);
    expect(copias).toMatchObject({ rotas: null, finalizadas: null, historico: null, diaDeHoje: null, despesas: null, saldo: null, salario: null });
  });
});
