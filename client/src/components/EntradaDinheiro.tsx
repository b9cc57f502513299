/**
 * A money field as pt-BR writes it ('1.280,50'): text with the decimal keypad, never `<input type="number">`,
 * whose browser field misreads the comma ('350,50' was saved as R$ 35.050,00). The form reads the text once,
 * with lerValorDigitado, into centavos; what happens on leaving the field (rewriting it) is each form's.
 */
import type { InputHTMLAttributes } from 'react';

type PropsEntradaDinheiro = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> & {
  valor: string;
  aoMudar: (texto: string) => void;
};

export function EntradaDinheiro({ valor, aoMudar, ...resto }: PropsEntradaDinheiro) {
  return <input {...resto} className="entrada" inputMode="decimal" autoComplete="off" placeholder="0,00" value={valor} onChange={(e) => aoMudar(e.target.value)} />;
}
