/**
 * Toasts (react-toastify, spec: top-right, closing after 5 s), loaded after the first screen instead
 * of with it: an employee opening the app needs them only once something is saved, and
 * the library is a twentieth of that screen's JavaScript. The service worker precaches the chunk, so
 * the first toast shows at once offline too. Toasts sent before the container mounts are queued by
 * react-toastify and shown when it does.
 */
import { useEffect, useState } from 'react';
import type { ToastOptions } from 'react-toastify/unstyled';
import { useQuandoOcioso } from './useQuandoOcioso';

const ESPERA_PRE_CARGA_MS = 2000;

type Biblioteca = typeof import('react-toastify/unstyled');
type Id = string | number;

let biblioteca: Promise<Biblioteca> | null = null;
const aoCarregar = new Set<(b: Biblioteca) => void>();

function carregar(): Promise<Biblioteca> {
  biblioteca ??= import('react-toastify/unstyled').then(
    (b) => {
      aoCarregar.forEach((avisar) => avisar(b));
      return b;
    },
    (erro: unknown) => {
      // A failed load (a dropped request on a weak signal) must not silence every later toast.
      biblioteca = null;
      throw erro;
    },
  );
  return biblioteca;
}

/** Tries once more if the library failed to load: the message still reaches the person. */
function comBiblioteca(usar: (b: Biblioteca) => void): void {
  carregar()
    .catch(() => carregar())
    .then(usar)
    .catch((erro: unknown) => console.error('Não foi possível mostrar o aviso:', erro));
}

let sequencia = 0;

function mostrar(tipo: 'success' | 'error' | 'info', mensagem: string, opcoes: ToastOptions = {}): Id {
  // The id is known now, so a caller can dismiss a toast whose library is still loading.
  const toastId = opcoes.toastId ?? `aviso-${++sequencia}`;
  comBiblioteca((b) => b.toast[tipo](mensagem, { ...opcoes, toastId }));
  return toastId;
}

export const toast = {
  success: (mensagem: string, opcoes?: ToastOptions) => mostrar('success', mensagem, opcoes),
  error: (mensagem: string, opcoes?: ToastOptions) => mostrar('error', mensagem, opcoes),
  info: (mensagem: string, opcoes?: ToastOptions) => mostrar('info', mensagem, opcoes),
  dismiss: (id?: Id) => comBiblioteca((b) => b.toast.dismiss(id)),
};

/**
 * Where toasts appear; renders nothing until the library loads: with the first toast, or once the
 * first screen is drawn and the browser is idle, so the first toast does not wait for it.
 */
export function Avisos() {
  const [b, definir] = useState<Biblioteca | null>(null);
  const ocioso = useQuandoOcioso(ESPERA_PRE_CARGA_MS);
  useEffect(() => {
    if (ocioso) carregar().catch(() => undefined); // a toast later tries again
  }, [ocioso]);
  useEffect(() => {
    let ativo = true;
    const ao = (carregada: Biblioteca) => ativo && definir(() => carregada);
    if (biblioteca) void biblioteca.then(ao);
    else aoCarregar.add(ao);
    return () => {
      ativo = false;
      aoCarregar.delete(ao);
    };
  }, []);
  if (!b) return null;
  return <b.ToastContainer position="top-right" autoClose={5000} theme="light" newestOnTop closeOnClick pauseOnFocusLoss={false} />;
}
