/**
 * Closing a form ('Cancelar', ×, Escape, the backdrop) asks before discarding what was typed; an
 * untouched form closes at once. The question is the route form's, the first that asked.
 */
import { useState } from 'react';
import { Confirmacao } from './Confirmacao';

interface OpcoesFechar {
  /** True once the form holds something the person typed or attached. */
  alterado: boolean;
  /** Discards and closes (a draft is dropped here too). */
  aoFechar: () => void;
  /** While saving, or while another question is open over the form, closing does nothing. */
  bloqueado?: boolean;
}

export function useFecharFormulario({ alterado, aoFechar, bloqueado }: OpcoesFechar) {
  const [perguntando, setPerguntando] = useState(false);
  function pedirFechar() {
    // Escape reaches the form too while its question is open: only the question answers it.
    if (bloqueado || perguntando) return;
    if (alterado) setPerguntando(true);
    else aoFechar();
  }
  const pergunta = (
    <Confirmacao
      aberto={perguntando}
      titulo="Fechar sem salvar?"
      mensagem="Os dados preenchidos serão perdidos. Deseja fechar mesmo assim?"
      textoConfirmar="Descartar"
      textoCancelar="Voltar"
      varianteConfirmar="danger"
      aoCancelar={() => setPerguntando(false)}
      aoConfirmar={() => {
        setPerguntando(false);
        aoFechar();
      }}
    />
  );
  return { pedirFechar, pergunta };
}

/** Whether a form's fields differ from how they opened (plain values, compared field by field). */
export function camposMudaram<T extends object>(aoAbrir: T, agora: T): boolean {
  return JSON.stringify(aoAbrir) !== JSON.stringify(agora);
}
