/**
 * News reaches the phone on every screen: while an employee is signed in, the
 * evaluations of their expenses and the credits to their balance are read every minute online and
 * at once when the app comes back to the front; what is new is said as a toast that names the expense
 * ('Alimentação · R$ 48,00 · 03/12 rejeitada: …') and opens it ('Ver despesa'). On Despesas the page's
 * 'Novidades' list says it instead (toasts would cover the form). Mounted app-wide with the employee's
 * priming (dashboard/PreparoAutomatico.tsx).
 */
import { useEffect } from 'react';
import { enderecoDaDespesa } from '../../../shared/enderecosDasTelas';
import { navegarPara } from '../app/navegacao';
import { useSaldoProprio } from '../saldo/consultas';
import { useNovidadesDespesas } from './consultas';
import { anunciar } from './releitura';

const naPaginaDeDespesas = () => window.location.pathname.startsWith('/despesas');

export function VigiaDeNoticias({ usuarioId }: { usuarioId: number }) {
  const novidades = useNovidadesDespesas(usuarioId, true);
  useSaldoProprio(usuarioId, true, { avisar: () => !naPaginaDeDespesas() });
  const novas = novidades.data;
  useEffect(() => {
    // Mounted around the router (app/Provedores.tsx): it navigates through app/navegacao.ts.
    if (novas && novas.length > 0 && !naPaginaDeDespesas()) anunciar(novas, (id) => navegarPara(enderecoDaDespesa(id)));
  }, [novas]);
  return null;
}
