/**
 * The expense rows: a table on the computer (spec columns), cards with a menu on the phone
 * (Ver Detalhes, Visualizar Cupom Fiscal, Editar, Excluir; the admin's Aprovar/Rejeitar).
 */
import { Check, Eye, EllipsisVertical, Pencil, Receipt, RotateCcw, Trash2, X } from 'lucide-react';
import { Fragment, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { formatarData } from '../../../shared/dates';
import { formatarReais } from '../../../shared/money';
import { Botao } from '../components/Botao';
import { CelulaDupla } from '../components/TabelaDados';
import type { SelecaoVisivel } from '../components/useSelecaoVisivel';
import { cidadeDaDespesa, SeloLimite, SelosDespesa, temCupom, textoVerCupons, tipoDaDespesa } from './apresentacao';
import { quantidadeDeCupons, type DespesaExibida } from './fila';

export interface AcoesDespesa {
  verDetalhes: (d: DespesaExibida) => void;
  verCupom: (d: DespesaExibida) => void;
  /** Present only for what this person may do with this row. */
  editar?: (d: DespesaExibida) => void;
  excluir?: (d: DespesaExibida) => void;
  /** A rejected expense: correct it and send it again. */
  corrigir?: (d: DespesaExibida) => void;
  aprovar?: (d: DespesaExibida) => void;
  rejeitar?: (d: DespesaExibida) => void;
}

interface PropsLista {
  despesas: DespesaExibida[];
  acoes: (d: DespesaExibida) => AcoesDespesa;
  admin: boolean;
  /** The admin's ticked rows for bulk approval; absent, no checkboxes. */
  selecao?: SelecaoVisivel<string>;
}

const nomeLinha = (d: DespesaExibida) => `${tipoDaDespesa(d)} de ${formatarReais(d.valor)} em ${formatarData(d.data_despesa)}`;

export function TabelaDespesas({ despesas, acoes, admin, selecao }: PropsLista) {
  const colunas = selecao ? 9 : 8;
  return (
    <div className="tabela-rolagem">
      <table className="tabela tabela-despesas">
        <thead>
          <tr>
            {selecao && (
              <th scope="col" className="coluna-selecao">
                <CaixaTodas selecao={selecao} />
              </th>
            )}
            <th scope="col">Data</th>
            {/* Who and on which route share a cell, and the description has a line of its own under the
                row: ten columns do not fit beside the sidebar at 1280 px. */}
            <th scope="col" className="coluna-rota">
              Registrado por e Rota
            </th>
            <th scope="col">Cidade</th>
            <th scope="col">Tipo</th>
            <th scope="col" className="numero">
              Valor
            </th>
            <th scope="col">Status</th>
            <th scope="col">Cupom Fiscal</th>
            <th scope="col">Ações</th>
          </tr>
        </thead>
        <tbody>
          {despesas.map((d) => {
            const a = acoes(d);
            const nome = nomeLinha(d);
            return (
              <Fragment key={d.id}>
                <tr
                  className={[d.envio && 'linha-na-fila', d.descricao && 'tabela__linha--com-extra', selecao?.marcada(d.id) && 'linha-marcada'].filter(Boolean).join(' ') || undefined}
                >
                  {selecao && (
                    <td className="coluna-selecao">
                      <input type="checkbox" aria-label={`Selecionar: ${nome}`} checked={selecao.marcada(d.id)} onChange={() => selecao.alternar(d.id)} />
                    </td>
                  )}
                  <td>{formatarData(d.data_despesa)}</td>
                  <td className="coluna-rota">
                    <CelulaDupla principal={d.funcionario_nome} secundario={d.rota_nome} />
                  </td>
                  <td>{cidadeDaDespesa(d)}</td>
                  <td>{tipoDaDespesa(d)}</td>
                  <td className="numero">{formatarReais(d.valor)}</td>
                  <td>
                    <div className="selos">
                      <SelosDespesa despesa={d} soAprovacao={admin} />
                      {admin && <SeloLimite despesa={d} />}
                    </div>
                    {d.rejeitada && d.motivo_rejeicao && <p className="tabela-despesas__motivo">Motivo: {d.motivo_rejeicao}</p>}
                  </td>
                  <td>
                    {temCupom(d) ? (
                      <button
                        type="button"
                        className="link-botao"
                        onClick={() => a.verCupom(d)}
                        aria-label={quantidadeDeCupons(d) > 1 ? `Visualizar os ${quantidadeDeCupons(d)} comprovantes: ${nome}` : `Visualizar cupom fiscal: ${nome}`}
                      >
                        {textoVerCupons(d)}
                      </button>
                    ) : (
                      <span className="texto-suave">—</span>
                    )}
                  </td>
                  <td>
                    <div className="acoes-linha">
                      <Botao tamanho="sm" variante="outline" icone={<Eye size={15} />} onClick={() => a.verDetalhes(d)} aria-label={`Ver detalhes: ${nome}`}>
                        Ver Detalhes
                      </Botao>
                      {a.editar && (
                        <Botao tamanho="sm" variante="outline" icone={<Pencil size={15} />} onClick={() => a.editar!(d)} aria-label={`Editar: ${nome}`}>
                          Editar
                        </Botao>
                      )}
                      {a.excluir && (
                        <Botao tamanho="sm" variante="danger" icone={<Trash2 size={15} />} onClick={() => a.excluir!(d)} aria-label={`Excluir: ${nome}`}>
                          Excluir
                        </Botao>
                      )}
                      {a.corrigir && (
                        <Botao tamanho="sm" variante="orange" icone={<RotateCcw size={15} />} onClick={() => a.corrigir!(d)} aria-label={`Corrigir e reenviar: ${nome}`}>
                          Corrigir e reenviar
                        </Botao>
                      )}
                      {admin && a.aprovar && !d.aprovada && (
                        <Botao tamanho="sm" variante="secondary" icone={<Check size={15} />} onClick={() => a.aprovar!(d)} aria-label={`Aprovar: ${nome}`}>
                          Aprovar
                        </Botao>
                      )}
                      {admin && a.rejeitar && !d.rejeitada && (
                        <Botao tamanho="sm" variante="danger" icone={<X size={15} />} onClick={() => a.rejeitar!(d)} aria-label={`Rejeitar: ${nome}`}>
                          Rejeitar
                        </Botao>
                      )}
                    </div>
                  </td>
                </tr>
                {d.descricao && (
                  <tr className={['tabela__linha-extra', d.envio && 'linha-na-fila', selecao?.marcada(d.id) && 'linha-marcada'].filter(Boolean).join(' ')}>
                    <td colSpan={colunas}>
                      <span className="linha-extra__rotulo">Descrição:</span> {d.descricao}
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** 'Selecionar todas da página': ticked when every row is, half-ticked when some are. */
export function CaixaTodas({ selecao, comTexto = false }: { selecao: SelecaoVisivel<string>; comTexto?: boolean }) {
  const caixa = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (caixa.current) caixa.current.indeterminate = selecao.alguma && !selecao.todas;
  }, [selecao.alguma, selecao.todas]);
  const input = <input ref={caixa} type="checkbox" aria-label={comTexto ? undefined : 'Selecionar todas da página'} checked={selecao.todas} onChange={selecao.alternarTodas} />;
  return comTexto ? (
    <label className="caixa-todas">
      {input} Selecionar todas da página
    </label>
  ) : (
    input
  );
}

interface ItemMenu {
  rotulo: string;
  icone: ReactNode;
  perigo?: boolean;
  acao: () => void;
}

/** The phone card's "⋮" menu. Closes on a choice, outside tap or Escape. */
function MenuAcoes({ rotulo, itens }: { rotulo: string; itens: ItemMenu[] }) {
  const [aberto, setAberto] = useState(false);
  const id = useId();
  const caixa = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!aberto) return;
    const fora = (e: PointerEvent) => {
      if (!caixa.current?.contains(e.target as Node)) setAberto(false);
    };
    const tecla = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setAberto(false);
    };
    document.addEventListener('pointerdown', fora);
    document.addEventListener('keydown', tecla);
    caixa.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    return () => {
      document.removeEventListener('pointerdown', fora);
      document.removeEventListener('keydown', tecla);
    };
  }, [aberto]);
  return (
    <div className="menu-acoes" ref={caixa}>
      <button
        type="button"
        className="botao-icone"
        aria-label={rotulo}
        aria-haspopup="menu"
        aria-expanded={aberto}
        aria-controls={aberto ? id : undefined}
        onClick={() => setAberto((a) => !a)}
      >
        <EllipsisVertical size={20} />
      </button>
      {aberto && (
        <ul className="menu-acoes__lista" role="menu" id={id}>
          {itens.map((item) => (
            <li key={item.rotulo} role="none">
              <button
                type="button"
                role="menuitem"
                className={`menu-acoes__item${item.perigo ? ' menu-acoes__item--perigo' : ''}`}
                onClick={() => {
                  setAberto(false);
                  item.acao();
                }}
              >
                {item.icone}
                {item.rotulo}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function CartoesDespesas({ despesas, acoes, admin, selecao }: PropsLista) {
  return (
    <ul className="cartoes-despesa">
      {despesas.map((d) => {
        const a = acoes(d);
        const itens: ItemMenu[] = [{ rotulo: 'Ver Detalhes', icone: <Eye size={17} />, acao: () => a.verDetalhes(d) }];
        if (temCupom(d)) itens.push({ rotulo: 'Visualizar Cupom Fiscal', icone: <Receipt size={17} />, acao: () => a.verCupom(d) });
        if (a.editar) itens.push({ rotulo: 'Editar', icone: <Pencil size={17} />, acao: () => a.editar!(d) });
        if (a.excluir) itens.push({ rotulo: 'Excluir', icone: <Trash2 size={17} />, perigo: true, acao: () => a.excluir!(d) });
        if (a.corrigir) itens.push({ rotulo: 'Corrigir e reenviar', icone: <RotateCcw size={17} />, acao: () => a.corrigir!(d) });
        if (admin && a.aprovar && !d.aprovada) itens.push({ rotulo: 'Aprovar', icone: <Check size={17} />, acao: () => a.aprovar!(d) });
        if (admin && a.rejeitar && !d.rejeitada) itens.push({ rotulo: 'Rejeitar', icone: <X size={17} />, perigo: true, acao: () => a.rejeitar!(d) });
        return (
          <li key={d.id} className={['cartao-despesa', d.envio && 'cartao-despesa--na-fila', selecao?.marcada(d.id) && 'cartao-despesa--marcada'].filter(Boolean).join(' ')}>
            <div className="cartao-despesa__topo">
              {selecao && (
                <input
                  type="checkbox"
                  className="cartao-despesa__caixa"
                  aria-label={`Selecionar: ${nomeLinha(d)}`}
                  checked={selecao.marcada(d.id)}
                  onChange={() => selecao.alternar(d.id)}
                />
              )}
              <div className="cartao-despesa__titulo">
                <span className="cartao-despesa__tipo">{tipoDaDespesa(d)}</span>
                <span className="cartao-despesa__local">
                  {cidadeDaDespesa(d)} · {formatarData(d.data_despesa)}
                </span>
              </div>
              <span className="cartao-despesa__valor">{formatarReais(d.valor)}</span>
              <MenuAcoes rotulo={`Ações: ${nomeLinha(d)}`} itens={itens} />
            </div>
            {admin && <div className="cartao-despesa__pessoa">{d.funcionario_nome} · {d.rota_nome}</div>}
            {d.descricao && <p className="cartao-despesa__descricao">{d.descricao}</p>}
            <div className="selos">
              <SelosDespesa despesa={d} />
              {admin && <SeloLimite despesa={d} />}
              {temCupom(d) && (
                <span className="cartao-despesa__cupom">
                  <Receipt size={13} aria-hidden="true" /> {quantidadeDeCupons(d) > 1 ? `${quantidadeDeCupons(d)} comprovantes` : 'Com comprovante'}
                </span>
              )}
            </div>
            {d.rejeitada && d.motivo_rejeicao && <p className="cartao-despesa__motivo">Motivo: {d.motivo_rejeicao}</p>}
            {a.corrigir && (
              <div className="cartao-despesa__corrigir">
                <span className="texto-suave">O valor continua descontado do seu saldo.</span>
                <Botao tamanho="sm" variante="orange" icone={<RotateCcw size={15} />} onClick={() => a.corrigir!(d)} aria-label={`Corrigir e reenviar: ${nomeLinha(d)}`}>
                  Corrigir e reenviar
                </Botao>
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
