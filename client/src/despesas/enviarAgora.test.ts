import { describe, expect, it } from 'vitest';
import { BancoLocal, type ItemOutbox } from '../offline/db';
import type { EstadoSync } from '../offline/sync';
import { enviarAgora } from './operacoes';

/** A queued item the server has not answered for: what the form tells the person depends on why. */
async function itemNaFila(nome: string) {
  const banco = new BancoLocal(nome);
  await banco.open();
  await banco.outbox.put({ id: 'item-1', estado: 'pendente' } as unknown as ItemOutbox);
  return banco;
}

const motorParado = (pausadoPorSessao: boolean) => ({
  sincronizarAgora: async () => undefined,
  estado: () => ({ pausadoPorSessao }) as EstadoSync,
});

describe('enviarAgora: an expense still queued after the send', () => {
  it('says the session ended when the server ended it (there was signal)', async () => {
    const banco = await itemNaFila('enviar-agora-sem-sessao');
    expect(await enviarAgora('item-1', { banco, motor: motorParado(true), limiteMs: 50 })).toEqual({ estado: 'na-fila', semSessao: true });
  });

  it('says nothing of the session when it is only waiting for signal', async () => {
    const banco = await itemNaFila('enviar-agora-sem-sinal');
    expect(await enviarAgora('item-1', { banco, motor: motorParado(false), limiteMs: 50 })).toEqual({ estado: 'na-fila', semSessao: false });
  });
});
