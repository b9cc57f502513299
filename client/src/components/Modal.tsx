/**
 * A dialog: Escape and the backdrop close it (through `aoFechar`, so a form can ask before losing
 * data), focus moves into it and returns to where it was, the page behind does not scroll. Its body,
 * when longer than the screen, can be focused and scrolled from the keyboard (a body of plain text,
 * the route's result, had no stop for the keyboard to scroll it); toasts keep below its header.
 */
import { X } from 'lucide-react';
import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { useFormularioAberto } from '../pwa/formularios';
import { afastarAvisosDosDialogos } from './avisos';
import { ErroDoEnvio } from './RecusaDoFormulario';

/**
 * While open: the body is in the Tab order only while it scrolls (measured as its content and size
 * change), and the toasts are kept below the header.
 */
function useCorpoRolavel(corpo: RefObject<HTMLDivElement | null>, cabecalho: RefObject<HTMLDivElement | null>, aberto: boolean) {
  useEffect(() => {
    const el = corpo.current;
    if (!aberto || !el) return;
    const medir = () => {
      if (el.scrollHeight > el.clientHeight + 1) el.setAttribute('tabindex', '0');
      else el.removeAttribute('tabindex');
      afastarAvisosDosDialogos();
    };
    medir();
    // Absent where there is no layout (jsdom): the window's resize and the content's changes still measure.
    const tamanho = typeof ResizeObserver === 'function' ? new ResizeObserver(medir) : null;
    tamanho?.observe(el);
    if (cabecalho.current) tamanho?.observe(cabecalho.current);
    const conteudo = new MutationObserver(medir);
    conteudo.observe(el, { childList: true, subtree: true, characterData: true });
    window.addEventListener('resize', medir);
    return () => {
      tamanho?.disconnect();
      conteudo.disconnect();
      window.removeEventListener('resize', medir);
      // After the portal is gone: the header no longer counts.
      requestAnimationFrame(afastarAvisosDosDialogos);
    };
  }, [corpo, cabecalho, aberto]);
}

interface PropsModal {
  aberto: boolean;
  titulo: ReactNode;
  aoFechar: () => void;
  children: ReactNode;
  rodape?: ReactNode;
  tamanho?: 'pequeno' | 'medio' | 'grande';
  /** A refused send (the server's answer, no connection): shown in the footer, next to the buttons. */
  erro?: ReactNode;
}

export function Modal({ aberto, titulo, aoFechar, children, rodape, tamanho = 'medio', erro }: PropsModal) {
  const idTitulo = useId();
  const caixa = useRef<HTMLDivElement>(null);
  const corpo = useRef<HTMLDivElement>(null);
  const cabecalho = useRef<HTMLDivElement>(null);
  const fechar = useRef(aoFechar);
  useCorpoRolavel(corpo, cabecalho, aberto);
  // An open dialog holds back an app update (see pwa/AvisoAtualizacao).
  useFormularioAberto(aberto);
  useEffect(() => {
    fechar.current = aoFechar;
  });

  useEffect(() => {
    if (!aberto) return;
    const anterior = document.activeElement as HTMLElement | null;
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    const primeiro = caixa.current?.querySelector<HTMLElement>('input, select, textarea, button:not([data-fechar])');
    (primeiro ?? caixa.current)?.focus();
    const teclado = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        fechar.current();
      }
    };
    document.addEventListener('keydown', teclado);
    return () => {
      document.removeEventListener('keydown', teclado);
      document.body.style.overflow = overflow;
      anterior?.focus?.();
    };
  }, [aberto]);

  if (!aberto) return null;
  return createPortal(
    <div
      className="modal-fundo"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) aoFechar();
      }}
    >
      <div
        ref={caixa}
        className={`modal${tamanho === 'medio' ? '' : ` modal--${tamanho}`}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={idTitulo}
        tabIndex={-1}
      >
        <div ref={cabecalho} className="modal__cabecalho">
          <h2 id={idTitulo}>{titulo}</h2>
          <button type="button" className="botao-icone" onClick={aoFechar} aria-label="Fechar" data-fechar>
            <X size={20} />
          </button>
        </div>
        <div ref={corpo} className="modal__corpo">
          {children}
        </div>
        {(rodape || erro) && (
          <div className="modal__rodape">
            {erro && <ErroDoEnvio>{erro}</ErroDoEnvio>}
            {rodape}
          </div>
        )}
      </div>
    </div>,
    document.body,
  );
}
