import { beforeEach, describe, expect, it } from 'vitest';
import { bancoLocal } from '../offline/db';
import { lerCopiasDeAbertura, tomarCopiaDeAbertura } from './copiasDeAbertura';

const EU = 3;
const OUTRA = 4;
const CHAVE = `rotas:ativas:${EU}`;

beforeEach(async () => {
  await bancoLocal.cache.clear();
  await bancoLocal.cache.put({ chave: CHAVE, usuarioId: EU, dados: [], atualizadoEm: '2026-11-28T10:00:00.000Z' });
});

describe('cópias lidas na partida', () => {
  it('valem uma vez, só para quem as leu, e só nos primeiros 10 s', async () => {
    await lerCopiasDeAbertura('/dashboard', EU, '2026-11-28');
    // Another person signed in on the shared phone meanwhile: not theirs.
    expect(tomarCopiaDeAbertura(CHAVE, OUTRA)).toBeUndefined();

    await lerCopiasDeAbertura('/dashboard', EU, '2026-11-28');
    await expect(tomarCopiaDeAbertura(CHAVE, EU)).resolves.toMatchObject({ dados: [], origem: 'cache' });
    expect(tomarCopiaDeAbertura(CHAVE, EU)).toBeUndefined();

    await lerCopiasDeAbertura('/dashboard', EU, '2026-11-28');
    expect(tomarCopiaDeAbertura(CHAVE, EU, Date.now() + 10_001)).toBeUndefined();
  });
});
