/**
 * Toasts (react-toastify, spec: top-right, closing after 5 s; below the header, avisos.css), behind one module so every screen
 * uses the same options. Loaded with the app: a build where the library came in its own chunk,
 * loaded on demand, lost the first toast in clean-clone CI runs (cause not yet found), and a lost
 * 'Email ou senha inválidos.' is worse than 10 KB of JavaScript.
 */
import { toast as toastify, ToastContainer, type ToastOptions } from 'react-toastify/unstyled';
import './avisos.css';

type Id = string | number;

export const toast = {
  success: (mensagem: string, opcoes?: ToastOptions): Id => toastify.success(mensagem, opcoes),
  error: (mensagem: string, opcoes?: ToastOptions): Id => toastify.error(mensagem, opcoes),
  info: (mensagem: string, opcoes?: ToastOptions): Id => toastify.info(mensagem, opcoes),
  dismiss: (id?: Id) => toastify.dismiss(id),
  /** Changes a toast still on screen (what a save turned out to be once the sync answered). */
  update: (id: Id, mensagem: string, tipo: 'success' | 'info' | 'error') => toastify.update(id, { render: mensagem, type: tipo }),
  isActive: (id: Id): boolean => toastify.isActive(id),
};

/**
 * Toasts start below the header of every open dialog, never over its title or its close button: a
 * toast shown as a dialog opens ('Rota finalizada com sucesso!' over the route's result) covered both
 * for 5 s. Called by the dialog as it opens, changes size and closes; avisos.css reads the variable.
 */
export function afastarAvisosDosDialogos(): void {
  const raiz = document.documentElement;
  const fundos = Array.from(document.querySelectorAll('.modal__cabecalho'), (c) => c.getBoundingClientRect().bottom);
  if (fundos.length === 0) raiz.style.removeProperty('--fim-dos-dialogos');
  else raiz.style.setProperty('--fim-dos-dialogos', `${Math.ceil(Math.max(...fundos))}px`);
}

/** Where toasts appear. */
export function Avisos() {
  return <ToastContainer position="top-right" autoClose={5000} theme="light" newestOnTop closeOnClick pauseOnFocusLoss={false} />;
}
