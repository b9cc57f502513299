import { afterEach, describe, expect, it, vi } from 'vitest';
import { atualizarAplicativo } from './atualizacao';

/** A service worker container as the browser has one, with a registration we control. */
function instalarServiceWorker(registro: Partial<ServiceWorkerRegistration> | undefined) {
  const ouvintes: Record<string, (() => void)[]> = {};
  const container = {
    getRegistration: vi.fn(async () => registro),
    addEventListener: (tipo: string, f: () => void) => (ouvintes[tipo] ??= []).push(f),
  };
  Object.defineProperty(navigator, 'serviceWorker', { value: container, configurable: true });
  return { disparar: (tipo: string) => ouvintes[tipo]?.forEach((f) => f()) };
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('atualizarAplicativo ("Atualize o aplicativo")', () => {
  it('procura a versão nova, manda a que espera assumir e recarrega quando ela assume', async () => {
    const espera = { postMessage: vi.fn() };
    const registro = { update: vi.fn(async () => undefined), waiting: null as unknown, installing: null };
    registro.update.mockImplementation(async () => {
      registro.waiting = espera; // found on the server just now
    });
    const sw = instalarServiceWorker(registro as unknown as ServiceWorkerRegistration);
    const recarregar = vi.fn();
    expect(await atualizarAplicativo(recarregar)).toBe('atualizando');
    expect(registro.update).toHaveBeenCalled();
    expect(espera.postMessage).toHaveBeenCalledWith({ type: 'SKIP_WAITING' });
    expect(recarregar).not.toHaveBeenCalled();
    sw.disparar('controllerchange');
    expect(recarregar).toHaveBeenCalledTimes(1);
  });

  it('sem versão nova no servidor: diz isso e não recarrega à toa', async () => {
    instalarServiceWorker({ update: vi.fn(async () => undefined) as never, waiting: null, installing: null });
    const recarregar = vi.fn();
    expect(await atualizarAplicativo(recarregar)).toBe('sem_versao_nova');
    expect(recarregar).not.toHaveBeenCalled();
  });

  it('sem service worker (aba comum): recarregar já traz a versão nova', async () => {
    instalarServiceWorker(undefined);
    const recarregar = vi.fn();
    expect(await atualizarAplicativo(recarregar)).toBe('atualizando');
    expect(recarregar).toHaveBeenCalledTimes(1);
  });
});
