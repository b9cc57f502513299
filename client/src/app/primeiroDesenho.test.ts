import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { esperaDoPrimeiroDesenho, LIMITE_ESPERA_PRIMEIRO_DESENHO_MS } from './primeiroDesenho';

/** A promise settled from outside, as a chunk or an IndexedDB read arriving. */
function peca() {
  let resolver!: () => void;
  let rejeitar!: (erro: Error) => void;
  const promessa = new Promise<void>((r, j) => {
    resolver = r;
    rejeitar = j;
  });
  return { promessa, resolver, rejeitar };
}

/** Whether `espera` has resolved, after the microtasks queued so far. */
async function resolvida(espera: Promise<void>): Promise<boolean> {
  let pronta = false;
  void espera.then(() => (pronta = true));
  await vi.advanceTimersByTimeAsync(0);
  return pronta;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('esperaDoPrimeiroDesenho', () => {
  it('sem sessão (o login) ou sem service worker (primeira visita): desenha na hora', () => {
    const tela = peca();
    expect(esperaDoPrimeiroDesenho({ comSessao: false, controlado: true, pecas: [tela.promessa] })).toBeNull();
    expect(esperaDoPrimeiroDesenho({ comSessao: true, controlado: false, pecas: [tela.promessa] })).toBeNull();
  });

  it('o app instalado com sessão: espera o código da tela e as cópias do aparelho, as duas', async () => {
    const tela = peca();
    const copias = peca();
    const espera = esperaDoPrimeiroDesenho({ comSessao: true, controlado: true, pecas: [tela.promessa, copias.promessa] })!;
    expect(await resolvida(espera)).toBe(false);
    tela.resolver();
    expect(await resolvida(espera)).toBe(false);
    copias.resolver();
    expect(await resolvida(espera)).toBe(true);
  });

  it('uma peça que falha não segura o desenho: a tela mostra o próprio aviso', async () => {
    const tela = peca();
    const espera = esperaDoPrimeiroDesenho({ comSessao: true, controlado: true, pecas: [tela.promessa, Promise.resolve()] })!;
    tela.rejeitar(new Error('sem o pedaço da tela'));
    expect(await resolvida(espera)).toBe(true);
  });

  it('uma peça que não chega: a casca é desenhada no limite, nunca uma tela em branco para sempre', async () => {
    const nuncaChega = peca();
    const espera = esperaDoPrimeiroDesenho({ comSessao: true, controlado: true, pecas: [nuncaChega.promessa] })!;
    await vi.advanceTimersByTimeAsync(LIMITE_ESPERA_PRIMEIRO_DESENHO_MS - 1);
    expect(await resolvida(espera)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await resolvida(espera)).toBe(true);
  });
});
