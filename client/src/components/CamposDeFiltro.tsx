/**
 * The fields of a list's filter bar (Auditoria, Rotas, Relatórios, Despesas): a choice with its
 * 'Todos' option and a date, each labelled through Campo. One shape for every filter bar.
 */
import { Campo } from './Campo';

export interface OpcaoFiltro {
  valor: string | number;
  rotulo: string;
}

interface PropsFiltroSelecao<V extends string> {
  rotulo: string;
  valor: V;
  aoMudar: (valor: V) => void;
  opcoes: readonly OpcaoFiltro[];
  /** The empty option's text: 'Todos', 'Todas'. */
  todos?: string;
}

export function FiltroSelecao<V extends string>({ rotulo, valor, aoMudar, opcoes, todos = 'Todos' }: PropsFiltroSelecao<V>) {
  return (
    <Campo rotulo={rotulo}>
      {(p) => (
        <select {...p} className="selecao" value={valor} onChange={(e) => aoMudar(e.target.value as V)}>
          <option value="">{todos}</option>
          {opcoes.map((o) => (
            <option key={o.valor} value={o.valor}>
              {o.rotulo}
            </option>
          ))}
        </select>
      )}
    </Campo>
  );
}

export function FiltroData({ rotulo, valor, aoMudar }: { rotulo: string; valor: string; aoMudar: (valor: string) => void }) {
  return <Campo rotulo={rotulo}>{(p) => <input {...p} type="date" className="entrada" value={valor} onChange={(e) => aoMudar(e.target.value)} />}</Campo>;
}
