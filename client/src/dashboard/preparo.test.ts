import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { BancoLocal } from '../offline/db';
import type { OpcoesAtualizacao, ResultadoAtualizacao } from './dadosDaViagem';
import { Preparo } from './preparo';

const opcoes = (usuarioId = 1) => ({
  banco: new BancoLocal(`preparo-${Math.random()}`),
  usuarioId,
  hoje: '2026-11-24',
  queryClient: new QueryClient(),
  sincronizar: async () => undefined,
  pedirPersistencia: async () => true,
});

/** A refresh that waits for the test to let it end, reporting progress as it goes. */
function atualizacaoControlada() {
  const execucoes: { o: OpcoesAtualizacao; terminar: () => void }[] = [];
  const atualizar = (o: OpcoesAtualizacao) =>
    new Promise<ResultadoAtualizacao>((resolve) => {
      o.aoProgredir?.(0, 7);
      execucoes.push({ o, terminar: () => (o.aoProgredir?.(7, 7), resolve({ falhas: [], semConexao: false, em: new Date().toISOString(), confirmacoesAte: execucoes.length })) });
    });
  return { atualizar, execucoes };
}

describe('Preparo', () => {
  it('uma execução por vez; um pedido durante ela pede uma (só uma) a mais depois', async () => {
    const { atualizar, execucoes } = atualizacaoControlada();
    const p = new Preparo(atualizar);
    const primeira = p.preparar(opcoes());
    expect(p.estado()).toMatchObject({ usuarioId: 1, rodando: true, feitos: 0, total: 7 });
    const segunda = p.preparar(opcoes());
    const terceira = p.preparar(opcoes());
    expect(execucoes).toHaveLength(1);
    execucoes[0]!.terminar();
    expect((await primeira).confirmacoesAte).toBe(1);
    await Promise.resolve();
    expect(execucoes).toHaveLength(2);
    expect(p.estado().rodando).toBe(true);
    execucoes[1]!.terminar();
    // Both later calls are covered by the run that started after them.
    expect((await segunda).confirmacoesAte).toBe(2);
    expect((await terceira).confirmacoesAte).toBe(2);
    expect(execucoes).toHaveLength(2);
    expect(p.estado()).toMatchObject({ rodando: false, feitos: 7, total: 7, ultimo: { confirmacoesAte: 2 } });
  });

  it('outra pessoa no aparelho: o resultado anterior não vale para ela', async () => {
    const { atualizar, execucoes } = atualizacaoControlada();
    const p = new Preparo(atualizar);
    const r = p.preparar(opcoes(1));
    execucoes[0]!.terminar();
    await r;
    expect(p.estado().ultimo).not.toBeNull();
    void p.preparar(opcoes(2));
    expect(p.estado()).toMatchObject({ usuarioId: 2, ultimo: null, rodando: true });
  });
});
