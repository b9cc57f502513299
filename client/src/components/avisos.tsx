/**
 * Toasts (react-toastify, spec: top-right, closing after 5 s; below the header, avisos.css), behind one module so every screen
 * uses the same options. Loaded with the app: a build where the library came in its own chunk,
 * loaded on demand, lost the first toast in clean-clone CI runs (cause not yet found), and a lost
 * 'Email ou senha inválidos.' is worse than 10 KB of JavaScript.
 */
import type { ReactNode } from 'react';
import { toast as toastify, ToastContainer, type ToastOptions } from 'react-toastify/unstyled';
import './avisos.css';

type Id = string | number;

export const toast = {
  success: (mensagem: string, opcoes?: ToastOptions): Id => toastify.success(mensagem, opcoes),
  error: (mensagem: string, opcoes?: ToastOptions): Id => toastify.error(mensagem, opcoes),
  info: (mensagem: string, opcoes?: ToastOptions): Id => toastify.info(mensagem, opcoes),
  dismiss: (id?: Id) => toastify.dismiss(id),
  /** Changes a toast still on screen (what a save turned out to be once the sync answered). */
  update: (id: Id, mensagem: ReactNode, tipo: 'success' | 'info' | 'error') => toastify.update(id, { render: mensagem, type: tipo }),
  /**
   * A toast with one action ('Desfazer') for `duracaoMs`: a tap on the text does not close it (only
   * the action or the ×), so the action is not lost to a tap beside it.
   */
  comAcao: (mensagem: string, tipo: 'success' | 'info' | 'error', acao: AcaoDoAviso, duracaoMs: number): Id => {
    let id: Id = '';
    // The action also closes its toast: what it offered is done.
    const aoClicar = () => {
      toastify.dismiss(id);
      acao.aoClicar();
    };
    id = toastify[tipo](<TextoComAcao texto={mensagem} acao={{ ...acao, aoClicar }} />, { autoClose: duracaoMs, closeOnClick: false });
    return id;
  },
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

export interface AcaoDoAviso {
  rotulo: string;
  aoClicar: () => void;
}

/** A toast's text and its action, also for toast.update (the text changes, the action stays). */
export function TextoComAcao({ texto, acao }: { texto: string; acao: AcaoDoAviso }) {
  return (
    <span className="aviso-com-acao">
      <span>{texto}</span>
      <button type="button" className="aviso-com-acao__botao" onClick={acao.aoClicar}>
        {acao.rotulo}
      </button>
    </span>
  );
}

/** Where toasts appear. */
export function Avisos() {
  return <ToastContainer position="top-right" autoClose={5000} theme="light" newestOnTop closeOnClick pauseOnFocusLoss={false} />;
}
