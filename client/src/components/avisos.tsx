/**
 * Toasts (react-toastify, spec: top-right, closing after 5 s), loaded with the first toast instead of
 * with the first screen: an employee opening the app needs them only once something is saved, and
 * the library is a twentieth of that screen's JavaScript. The service worker precaches the chunk, so
 * the first toast shows at once offline too. Toasts sent before the container mounts are queued by
 * react-toastify and shown when it does.
 */
import { useEffect, useState } from 'react';
import type { ToastOptions } from 'react-toastify/unstyled';

type Biblioteca = typeof import('react-toastify/unstyled');
type Id = string | number;

let biblioteca: Promise<Biblioteca> | null = null;
const aoCarregar = new Set<(b: Biblioteca) => void>();

function carregar(): Promise<Biblioteca> {
  biblioteca ??= import('react-toastify/unstyled').then((b) => {
    aoCarregar.forEach((avisar) => avisar(b));
    return b;
  });
  return biblioteca;
}

let sequencia = 0;

function mostrar(tipo: 'success' | 'error' | 'info', mensagem: string, opcoes: ToastOptions = {}): Id {
  // The id is known now, so a caller can dismiss a toast whose library is still loading.
  const toastId = opcoes.toastId ?? `aviso-${++sequencia}`;
  void carregar().then((b) => b.toast[tipo](mensagem, { ...opcoes, toastId }));
  return toastId;
}

export const toast = {
  success: (mensagem: string, opcoes?: ToastOptions) => mostrar('success', mensagem, opcoes),
  error: (mensagem: string, opcoes?: ToastOptions) => mostrar('error', mensagem, opcoes),
  info: (mensagem: string, opcoes?: ToastOptions) => mostrar('info', mensagem, opcoes),
  dismiss: (id?: Id) => void carregar().then((b) => b.toast.dismiss(id)),
};

/** Where toasts appear; renders nothing until the first toast loads the library. */
export function Avisos() {
  const [b, definir] = useState<Biblioteca | null>(null);
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
