/**
 * First visit: what the first screen does not need waits until it is drawn and the
 * browser is idle. The service worker's registration starts the download of every screen (the
 * precache, ~1 MB): on a 3G link it shared the six connections with the login screen's own files.
 * Priming (every offline copy, with its IndexedDB writes) competed the same way with the
 * dashboard's first reads. Both still start on the first visit, a few seconds in.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FUNCIONARIO_TESTE } from '../test/renderizar';

const montagensDoPreparo = vi.hoisted(() => ({ total: 0 }));
vi.mock('../dashboard/PreparoAutomatico', () => ({
  PreparoAutomatico: () => {
    montagensDoPreparo.total += 1;
    return <p>preparo em andamento</p>;
  },
}));
vi.mock('../pwa/AvisoAtualizacao', () => ({ AvisoAtualizacao: () => null }));
// The sync engine's chunk (offline/estado.ts carregarSync loads these two): counted, not run.
const motor = vi.hoisted(() => ({ iniciados: 0, parados: 0, retomados: 0 }));
vi.mock('../offline/operacoes', () => ({}));
vi.mock('../offline', () => ({
  iniciarOffline: () => {
    motor.iniciados += 1;
    return () => {
      motor.parados += 1;
    };
  },
  motorSync: {
    retomar: () => {
      motor.retomados += 1;
      return Promise.resolve();
    },
  },
}));

import { Provedores } from './Provedores';

let ociosos: IdleRequestCallback[] = [];
const registrar = vi.fn(() => Promise.resolve({} as ServiceWorkerRegistration));

/** Runs the idle callbacks the app asked for so far (the browser has nothing else to do). */
function ficarOcioso() {
  const fila = ociosos;
  ociosos = [];
  act(() => fila.forEach((cb) => cb({ didTimeout: false, timeRemaining: () => 50 })));
}

beforeEach(() => {
  montagensDoPreparo.total = 0;
  Object.assign(motor, { iniciados: 0, parados: 0, retomados: 0 });
  ociosos = [];
  registrar.mockClear();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.stubGlobal('requestIdleCallback', (cb: IdleRequestCallback) => ociosos.push(cb));
  vi.stubGlobal('cancelIdleCallback', () => undefined);
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { register: registrar } });
  // Every request of the providers answered at once: the session check confirms the stored user (none
  // stored: 401), the rest (the sync engine's) finds the server unavailable.
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      const usuario = localStorage.getItem('user');
      if (String(url).endsWith('/api/auth/me')) {
        return Promise.resolve(usuario ? Response.json({ usuario: JSON.parse(usuario) as unknown }) : Response.json({ error: 'Não autenticado' }, { status: 401 }));
      }
      return Promise.resolve(Response.json({ error: 'Serviço indisponível' }, { status: 503 }));
    }),
  );
});

afterEach(() => {
  cleanup(); // before the stubs go: unmounting cancels the idle callbacks
  vi.useRealTimers();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('Provedores: o que a primeira tela não usa espera ela aparecer', () => {
  it('registra o service worker só depois da tela desenhada e do navegador ocioso', async () => {
    render(
      <Provedores>
        <p>tela de login</p>
      </Provedores>,
    );
    expect(screen.getByText('tela de login')).toBeInTheDocument();
    await act(async () => undefined);
    expect(registrar).not.toHaveBeenCalled();

    await act(async () => {
      vi.runOnlyPendingTimers();
    });
    ficarOcioso();
    await act(async () => undefined);
    expect(registrar).toHaveBeenCalledTimes(1);
    expect(registrar).toHaveBeenCalledWith('/sw.js', { scope: '/' });
  });

  it('sem service worker pedido (testes, navegadores sem suporte), nunca registra', async () => {
    render(
      <Provedores comServiceWorker={false}>
        <p>tela</p>
      </Provedores>,
    );
    await act(async () => {
      vi.runOnlyPendingTimers();
    });
    ficarOcioso();
    await act(async () => undefined);
    expect(registrar).not.toHaveBeenCalled();
  });

  it('a funcionária já conectada vê a tela antes de o preparo (cópias para viajar) começar', async () => {
    localStorage.setItem('token', 'token-de-teste');
    localStorage.setItem('user', JSON.stringify(FUNCIONARIO_TESTE));
    render(
      <Provedores comServiceWorker={false}>
        <p>dashboard</p>
      </Provedores>,
    );
    expect(screen.getByText('dashboard')).toBeInTheDocument();
    // Its code is already at hand (the same module the app would import): drawn now if nothing waited.
    await act(async () => {
      await import('../dashboard/PreparoAutomatico');
    });
    for (let i = 0; i < 5; i++) await act(async () => undefined);
    expect(montagensDoPreparo.total).toBe(0);

    await act(async () => {
      vi.runOnlyPendingTimers();
    });
    ficarOcioso();
    // Its code loads on demand: wait for it to be drawn (vi.waitFor moves the fake clock itself).
    await vi.waitFor(() => expect(screen.getByText('preparo em andamento')).toBeInTheDocument());
    expect(montagensDoPreparo.total).toBeGreaterThan(0);
  });

  it('a tela de login de um celular novo não inicia o motor de sincronização (nem o IndexedDB) antes de ficar ociosa', async () => {
    const { unmount } = render(
      <Provedores comServiceWorker={false}>
        <p>tela de login</p>
      </Provedores>,
    );
    for (let i = 0; i < 5; i++) await act(async () => undefined);
    expect(motor.iniciados).toBe(0);
    await act(async () => {
      vi.runOnlyPendingTimers();
    });
    ficarOcioso();
    await vi.waitFor(() => expect(motor.iniciados).toBe(1));
    unmount();
    expect(motor.parados).toBe(1);
  });

  it('com a sessão guardada, o motor inicia na hora, uma vez só, e retoma a fila da pessoa', async () => {
    localStorage.setItem('token', 'token-de-teste');
    localStorage.setItem('user', JSON.stringify(FUNCIONARIO_TESTE));
    render(
      <Provedores comServiceWorker={false}>
        <p>dashboard</p>
      </Provedores>,
    );
    await vi.waitFor(() => expect(motor.iniciados).toBe(1));
    expect(motor.retomados).toBeGreaterThan(0);
    await act(async () => {
      vi.runOnlyPendingTimers();
    });
    ficarOcioso();
    for (let i = 0; i < 5; i++) await act(async () => undefined);
    expect(motor.iniciados).toBe(1);
  });
});
