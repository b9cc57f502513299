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

/** Where toasts appear. */
export function Avisos() {
  return <ToastContainer position="top-right" autoClose={5000} theme="light" newestOnTop closeOnClick pauseOnFocusLoss={false} />;
}
