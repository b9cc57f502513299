/**
 * The shared data table (spec section 2): title, search, optional export (and CSV of its rows), client-side paging
 * (10 a page; 5 under 768 px), search back to page 1, and cards instead of rows under 768 px.
 * A list paged by the server (Vendas) passes `paginacaoServidor`: the rows are that page,
 * the controls move the server's page, and the search looks inside the page on screen.
 */
import { FileDown, Search } from 'lucide-react';
import { Fragment, useMemo, useState, type ReactNode } from 'react';
import { gerarCsv, type CelulaCsv } from '../../../shared/csv';
import { formatarNumero } from '../../../shared/numeros';
import { normalizarBusca } from '../../../shared/texto';
import { baixarArquivo } from './baixarArquivo';
import { Botao } from './Botao';
import { LARGURA_CELULAR, useLarguraMaxima } from './useLarguraMaxima';

export interface Coluna<T> {
  chave: string;
  titulo: string;
  render?: (linha: T) => ReactNode;
  /** Text searched for this column; defaults to the row's field of the same key. */
  textoBusca?: (linha: T) => string;
  numerica?: boolean;
  /**
   * Only in the computer's table or only in the phone's cards: on the computer two short columns may
   * share a cell (a name with its e-mail below) that the phone shows as two fields.
   */
  so?: 'computador' | 'celular';
  /** Class of the computer's cells of this column (width, wrapping: 'coluna-nome', 'sem-quebra'...). */
  classe?: string;
  /**
   * The column's cell in the CSV export: by default the row's number of the same key (money as
   * a number the spreadsheet sums), else the searched text; `false` leaves it out (a computer cell that
   * joins two fields the phone's columns give apart).
   */
  csv?: ((linha: T) => CelulaCsv) | false;
  /** The CSV header when the screen's title does not fit the exported value. */
  tituloCsv?: string;
}

interface PropsTabela<T> {
  titulo?: ReactNode;
  colunas: Coluna<T>[];
  linhas: T[];
  chaveLinha: (linha: T) => string | number;
  acoes?: (linha: T) => ReactNode;
  tituloAcoes?: string;
  exportar?: ReactNode;
  placeholderBusca?: string;
  vazio?: string;
  carregando?: boolean;
  /** Class of the computer's <table>, besides 'tabela' (widths a screen fits its own columns with). */
  classeTabela?: string;
  /** What the phone card shows as its heading. */
  tituloCartao?: (linha: T) => ReactNode;
  /**
   * Long free text (a note) shown whole on a line of its own under the row on the computer, where a
   * column would cut it; on the phone it is a field of the card (give it a column with `so: 'celular'`).
   */
  linhaExtra?: (linha: T) => ReactNode;
  /** The rows are one page of the server's list: these controls ask it for another. */
  paginacaoServidor?: PaginacaoServidor;
  /** File name (without .csv) of the 'Exportar CSV' button; absent, no button. */
  arquivoCsv?: string;
  /** The search the table opens with (a screen opened at one record's address); read when it mounts. */
  buscaInicial?: string;
}

export interface PaginacaoServidor {
  pagina: number;
  totalPaginas: number;
  /** Shown beside the controls, e.g. '1.500 vendas'. */
  resumo?: string;
  aoMudar: (pagina: number) => void;
}


export const POR_PAGINA = 10;
export const POR_PAGINA_CELULAR = 5;

function celulaCsv<T>(coluna: Coluna<T>, linha: T): CelulaCsv {
  if (coluna.csv) return coluna.csv(linha);
  const valor = (linha as Record<string, unknown>)[coluna.chave];
  return typeof valor === 'number' ? valor : textoDaColuna(coluna, linha);
}

/** The rows matching the search, every page of them (a server-paged table: the page on screen), as CSV. */
function baixarCsv<T>(colunas: Coluna<T>[], linhas: T[], arquivo: string) {
  const exportadas = colunas.filter((c) => c.csv !== false);
  const csv = gerarCsv(
    exportadas.map((c) => c.tituloCsv ?? c.titulo),
    linhas.map((l) => exportadas.map((c) => celulaCsv(c, l))),
  );
  baixarArquivo(new Blob([csv], { type: 'text/csv;charset=utf-8' }), `${arquivo}.csv`);
}

function textoDaColuna<T>(coluna: Coluna<T>, linha: T): string {
  if (coluna.textoBusca) return coluna.textoBusca(linha);
  const valor = (linha as Record<string, unknown>)[coluna.chave];
  return valor === null || valor === undefined ? '' : String(valor);
}

export function TabelaDados<T>({
  titulo,
  colunas,
  linhas,
  chaveLinha,
  acoes,
  tituloAcoes = 'Ações',
  exportar,
  placeholderBusca = 'Buscar...',
  vazio = 'Nenhum registro encontrado.',
  carregando,
  classeTabela,
  tituloCartao,
  linhaExtra,
  paginacaoServidor,
  arquivoCsv,
  buscaInicial = '',
}: PropsTabela<T>) {
  const celular = useLarguraMaxima(LARGURA_CELULAR);
  const [busca, setBusca] = useState(buscaInicial);
  const [pagina, setPagina] = useState(1);
  const porPagina = celular ? POR_PAGINA_CELULAR : POR_PAGINA;

  const filtradas = useMemo(() => {
    const termo = normalizarBusca(busca);
    if (!termo) return linhas;
    return linhas.filter((l) => colunas.some((c) => normalizarBusca(textoDaColuna(c, l)).includes(termo)));
  }, [linhas, colunas, busca]);

  const totalPaginas = paginacaoServidor ? Math.max(1, paginacaoServidor.totalPaginas) : Math.max(1, Math.ceil(filtradas.length / porPagina));
  const paginaAtual = paginacaoServidor ? Math.min(paginacaoServidor.pagina, totalPaginas) : Math.min(pagina, totalPaginas);
  const irPara = paginacaoServidor ? paginacaoServidor.aoMudar : setPagina;
  const visiveis = paginacaoServidor ? filtradas : filtradas.slice((paginaAtual - 1) * porPagina, paginaAtual * porPagina);
  const mostrarPaginacao = paginacaoServidor ? totalPaginas > 1 || !!paginacaoServidor.resumo : filtradas.length > porPagina;
  const colunasDaTela = colunas.filter((c) => c.so !== (celular ? 'computador' : 'celular'));
  const classeDaCelula = (c: Coluna<T>) => [c.numerica && 'numero', c.classe].filter(Boolean).join(' ') || undefined;

  return (
    <section className="cartao tabela-dados">
      <div className="tabela-dados__topo">
        {titulo && <h2>{titulo}</h2>}
        <div className="tabela-dados__busca">
          <Search size={18} aria-hidden="true" />
          <input
            className="entrada"
            type="search"
            placeholder={placeholderBusca}
            aria-label={placeholderBusca}
            value={busca}
            onChange={(e) => {
              setBusca(e.target.value);
              setPagina(1);
            }}
          />
        </div>
        {exportar}
        {arquivoCsv && (
          <Botao variante="outline" icone={<FileDown size={17} />} onClick={() => baixarCsv(colunas, filtradas, arquivoCsv)} disabled={carregando || filtradas.length === 0}>
            {paginacaoServidor ? 'Exportar página em CSV' : 'Exportar CSV'}
          </Botao>
        )}
      </div>

      {carregando ? (
        <div className="tabela__vazio">Carregando...</div>
      ) : visiveis.length === 0 ? (
        <div className="tabela__vazio">{vazio}</div>
      ) : celular ? (
        <ul className="cartoes-linha">
          {visiveis.map((linha) => (
            <li key={chaveLinha(linha)} className="cartao-linha">
              {tituloCartao && <div style={{ fontWeight: 700, marginBottom: '0.35rem' }}>{tituloCartao(linha)}</div>}
              {colunasDaTela.map((c) => (
                <div key={c.chave} className="cartao-linha__campo">
                  <span className="cartao-linha__rotulo">{c.titulo}</span>
                  <span className="cartao-linha__valor">{c.render ? c.render(linha) : textoDaColuna(c, linha)}</span>
                </div>
              ))}
              {acoes && <div className="cartao-linha__acoes">{acoes(linha)}</div>}
            </li>
          ))}
        </ul>
      ) : (
        <div className="tabela-rolagem">
          <table className={classeTabela ? `tabela ${classeTabela}` : 'tabela'}>
            <thead>
              <tr>
                {colunasDaTela.map((c) => (
                  <th key={c.chave} className={classeDaCelula(c)} scope="col">
                    {c.titulo}
                  </th>
                ))}
                {acoes && <th scope="col">{tituloAcoes}</th>}
              </tr>
            </thead>
            <tbody>
              {visiveis.map((linha) => {
                const extra = linhaExtra?.(linha);
                const temExtra = extra !== undefined && extra !== null && extra !== false && extra !== '';
                return (
                  <Fragment key={chaveLinha(linha)}>
                    <tr className={temExtra ? 'tabela__linha--com-extra' : undefined}>
                      {colunasDaTela.map((c) => (
                        <td key={c.chave} className={classeDaCelula(c)}>
                          {c.render ? c.render(linha) : textoDaColuna(c, linha)}
                        </td>
                      ))}
                      {acoes && (
                        <td>
                          <div className="acoes-linha">{acoes(linha)}</div>
                        </td>
                      )}
                    </tr>
                    {temExtra && (
                      <tr className="tabela__linha-extra">
                        <td colSpan={colunasDaTela.length + (acoes ? 1 : 0)}>{extra}</td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      {mostrarPaginacao && (
        <nav className="paginacao" aria-label="Paginação">
          <Botao variante="outline" tamanho="sm" onClick={() => irPara(paginaAtual - 1)} disabled={paginaAtual <= 1}>
            Anterior
          </Botao>
          <span className="paginacao__posicao">
            <span>
              Página {formatarNumero(paginaAtual)} de {formatarNumero(totalPaginas)}
            </span>
            {paginacaoServidor?.resumo && <span className="paginacao__resumo">{paginacaoServidor.resumo}</span>}
          </span>
          <Botao variante="outline" tamanho="sm" onClick={() => irPara(paginaAtual + 1)} disabled={paginaAtual >= totalPaginas}>
            Próxima
          </Botao>
        </nav>
      )}
    </section>
  );
}

/** Two facts in one computer cell, the second below in muted text (a name and its e-mail, a person and the route). */
export function CelulaDupla({ principal, secundario }: { principal: ReactNode; secundario?: ReactNode }) {
  return (
    <span className="celula-dupla">
      <span className="celula-dupla__principal">{principal}</span>
      {secundario !== undefined && secundario !== null && secundario !== '' && <span className="celula-dupla__secundario">{secundario}</span>}
    </span>
  );
}

/**
 * An e-mail that may wrap after '@' and '.' (never in the middle of a word): a long address takes
 * two lines instead of widening its column past the screen.
 */
export function EmailQuebravel({ email }: { email: string }) {
  const partes = email.split(/(?<=[@.])/);
  return (
    <>
      {partes.map((p, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {p}
        </Fragment>
      ))}
    </>
  );
}
