/**
 * Type-ahead over the route's cities, shown 'name (uf)' (spec: Cidade in the expense modal).
 * Accent- and case-insensitive ('anap' finds 'Anápolis'); leaving the field with text that is not a
 * city puts back the chosen one, so the value is always a city of the route or none.
 */
import { ChevronDown } from 'lucide-react';
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import type { CidadeResumo } from '../../../shared/schemas/rotas';
import { normalizarBusca } from '../../../shared/texto';
import type { PropsControle } from '../components/Campo';

export const rotuloCidade = (c: Pick<CidadeResumo, 'nome' | 'uf'>) => `${c.nome} (${c.uf})`;

interface PropsCampoCidade {
  controle: PropsControle;
  cidades: CidadeResumo[];
  valor: number | null;
  aoMudar: (id: number | null) => void;
  desabilitado?: boolean;
}

export function CampoCidade({ controle, cidades, valor, aoMudar, desabilitado }: PropsCampoCidade) {
  const idLista = useId();
  const escolhida = cidades.find((c) => c.id === valor) ?? null;
  const [texto, setTexto] = useState<string | null>(null); // null: showing the chosen city
  const [aberta, setAberta] = useState(false);
  const [destaque, setDestaque] = useState(0);
  const exibido = texto ?? (escolhida ? rotuloCidade(escolhida) : '');

  const opcoes = useMemo(() => {
    const termo = normalizarBusca(texto ?? '');
    return termo ? cidades.filter((c) => normalizarBusca(rotuloCidade(c)).includes(termo)) : cidades;
  }, [cidades, texto]);

  function escolher(c: CidadeResumo) {
    aoMudar(c.id);
    setTexto(null);
    setAberta(false);
  }

  function teclado(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setAberta(true);
      setDestaque((d) => Math.min(d + 1, opcoes.length - 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setDestaque((d) => Math.max(d - 1, 0));
    } else if (e.key === 'Enter' && aberta && opcoes[destaque]) {
      e.preventDefault();
      escolher(opcoes[destaque]);
    } else if (e.key === 'Escape' && aberta) {
      e.stopPropagation(); // closes the list, not the modal
      setAberta(false);
      setTexto(null);
    }
  }

  return (
    <div className="combo">
      <div className="combo__entrada">
        <input
          {...controle}
          className="entrada"
          role="combobox"
          aria-expanded={aberta}
          aria-controls={idLista}
          aria-autocomplete="list"
          autoComplete="off"
          placeholder={cidades.length === 0 ? 'Nenhuma cidade na rota' : escolhida ? rotuloCidade(escolhida) : 'Digite para buscar a cidade'}
          value={exibido}
          disabled={desabilitado || cidades.length === 0}
          // Focus starts a new search (the chosen city stays as the placeholder and comes back on leaving).
          onFocus={() => {
            setTexto('');
            setDestaque(0);
            setAberta(true);
          }}
          onChange={(e) => {
            setTexto(e.target.value);
            setDestaque(0);
            setAberta(true);
            if (e.target.value.trim() === '') aoMudar(null);
          }}
          onBlur={() => {
            setAberta(false);
            setTexto(null);
          }}
          onKeyDown={teclado}
        />
        <ChevronDown size={18} className="combo__seta" aria-hidden="true" />
      </div>
      {aberta && (
        <ul className="combo__lista" id={idLista} role="listbox">
          {opcoes.length === 0 ? (
            <li className="combo__vazio">Nenhuma cidade da rota com esse nome.</li>
          ) : (
            opcoes.map((c, i) => (
              <li
                key={c.id}
                role="option"
                aria-selected={c.id === valor}
                className={`combo__opcao${i === destaque ? ' combo__opcao--destaque' : ''}`}
                // mousedown, not click: the input's blur would close the list first.
                onMouseDown={(e) => {
                  e.preventDefault();
                  escolher(c);
                }}
              >
                {rotuloCidade(c)}
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}
