/**
 * A person's name with the 'Inativo' badge when the account was deactivated: Saldo keeps a deactivated
 * employee while money is given or owed, and the dashboard keeps one whose active route is still open.
 */
import type { ReactNode } from 'react';
import { Selo } from './Selo';

export function NomeComSituacao({ nome, ativo }: { nome: ReactNode; ativo: boolean }) {
  if (ativo) return <>{nome}</>;
  return (
    <span className="nome-com-situacao">
      {nome} <Selo cor="cinza" title="Usuário desativado">Inativo</Selo>
    </span>
  );
}

/** The same for the table's search: typing 'inativo' finds them. */
export function textoComSituacao(nome: string, ativo: boolean): string {
  return ativo ? nome : `${nome} Inativo`;
}
