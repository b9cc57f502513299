/**
 * One city of the day (spec section 2, 'Vendas, employee view'): name and uf, Editar/Cancelar, the
 * expand arrow; the closing form while editing; read-only details and 'Histórico de vendas' when open.
 */
import { AlertTriangle, CheckCircle2, ChevronDown, Clock, MapPinCheck } from 'lucide-react';
import type { FormEvent } from 'react';
import { formatarData, formatarHora } from '../../../shared/dates';
import { formatarReais, lerValorDigitado, somarReais } from '../../../shared/money';
import { Botao } from '../components/Botao';
import { Campo } from '../components/Campo';
import { camposMudaram, useFecharFormulario } from '../components/fecharFormulario';
import { useApontarCampoRecusado } from '../components/RecusaDoFormulario';
import { Selo } from '../components/Selo';
import type { CidadeDoDia, SituacaoEnvio } from './estadoCidades';
import { CAMPOS_DINHEIRO, camposDe, type CamposVenda } from './formulario';
import './vendasCampo.css';

interface PropsCartao {
  cidade: CidadeDoDia;
  fuso: string;
  expandida: boolean;
  /** The form's fields while editing. */
  edicao: CamposVenda | undefined;
  erros: Record<string, string> | undefined;
  /** The history could not be loaded (offline, never stored). */
  historicoIndisponivel: boolean;
  aoAlternarEdicao: () => void;
  aoAlternarDetalhes: () => void;
  aoMudarCampo: (campo: keyof CamposVenda, valor: string) => void;
  /** Resolves false when a field was refused. */
  aoSalvar: () => Promise<boolean>;
  /** 'Marcar como visitada' on an open city: the visit without opening the form. */
  aoMarcarVisitada: () => void;
}

function Envio({ envio, fuso }: { envio: SituacaoEnvio; fuso: string }) {
  if (envio.estado === 'pendente') {
    return (
      <span className="envio-venda envio-venda--fila">
        <Clock size={14} aria-hidden="true" /> Aguardando envio
      </span>
    );
  }
  if (envio.estado === 'erro') {
    return (
      <span className="envio-venda envio-venda--erro" title={envio.erro}>
        <AlertTriangle size={14} aria-hidden="true" /> Precisa de atenção: {envio.erro}
      </span>
    );
  }
  if (!envio.recebidoEm) return null;
  return (
    <span className="envio-venda envio-venda--ok">
      <CheckCircle2 size={14} aria-hidden="true" /> Recebido pelo servidor às {formatarHora(envio.recebidoEm, fuso)}
    </span>
  );
}

/** A live total under the form, read the way the save will read it. */
function totalDigitado(e: CamposVenda): number | null {
  const valores = CAMPOS_DINHEIRO.map(({ campo }) => lerValorDigitado(e[campo]));
  return valores.some((v) => v === null) ? null : somarReais(...(valores as number[]));
}

export function CartaoCidade({
  cidade,
  fuso,
  expandida,
  edicao,
  erros = {},
  historicoIndisponivel,
  aoAlternarEdicao,
  aoAlternarDetalhes,
  aoMudarCampo,
  aoSalvar,
  aoMarcarVisitada,
}: PropsCartao) {
  const editando = edicao !== undefined;
  const idDetalhes = `detalhes-cidade-${cidade.cidade_id}`;
  const venda = cidade.venda;
  const { raiz, apontarCampoRecusado } = useApontarCampoRecusado();
  // 'Cancelar' on a form with typed values asks first; unchanged, it closes at once.
  const { pedirFechar, pergunta } = useFecharFormulario({ alterado: editando && camposMudaram(camposDe(venda), edicao), aoFechar: aoAlternarEdicao });

  function enviar(e: FormEvent) {
    e.preventDefault();
    void aoSalvar().then((aceito) => {
      if (!aceito) apontarCampoRecusado();
    });
  }

  const total = edicao ? totalDigitado(edicao) : null;

  return (
    <li className={`cartao cidade-venda${cidade.fechada ? ' cidade-venda--fechada' : ''}${editando ? ' cidade-venda--editando' : ''}`} aria-label={`${cidade.cidade_nome} (${cidade.uf})`}>
      <div className="cidade-venda__topo">
        <div className="cidade-venda__titulo">
          <h3 className="cidade-venda__nome">{cidade.cidade_nome}</h3>
          <span className="cidade-venda__uf">{cidade.uf}</span>
        </div>
        <div className="cidade-venda__acoes">
          <Botao
            tamanho="sm"
            variante={editando ? 'outline' : cidade.fechada ? 'default' : 'primary'}
            onClick={editando ? pedirFechar : aoAlternarEdicao}
            aria-label={`${editando ? 'Cancelar' : 'Editar'} ${cidade.cidade_nome}`}
          >
            {editando ? 'Cancelar' : 'Editar'}
          </Botao>
          <button
            type="button"
            className={`botao-icone cidade-venda__seta${expandida ? ' cidade-venda__seta--aberta' : ''}`}
            aria-expanded={expandida}
            aria-controls={idDetalhes}
            aria-label={`${expandida ? 'Ocultar' : 'Mostrar'} detalhes de ${cidade.cidade_nome}`}
            onClick={aoAlternarDetalhes}
          >
            <ChevronDown size={22} />
          </button>
        </div>
      </div>

      {!cidade.fechada && !editando && (
        <div className="cidade-venda__visita">
          <Botao
            variante="outline"
            tamanho="sm"
            icone={<MapPinCheck size={16} aria-hidden="true" />}
            onClick={aoMarcarVisitada}
            aria-label={`Marcar como visitada: ${cidade.cidade_nome}`}
          >
            Marcar como visitada
          </Botao>
        </div>
      )}

      {cidade.fechada && (
        <div className="cidade-venda__situacao">
          {cidade.semVenda ? (
            <Selo cor="azul">Visitada (sem venda)</Selo>
          ) : (
            <Selo cor="verde">Fechada · {formatarReais(venda?.total ?? 0)}</Selo>
          )}
          {cidade.envio && <Envio envio={cidade.envio} fuso={fuso} />}
        </div>
      )}

      {editando && (
        <form ref={raiz} className="form-venda" onSubmit={enviar} noValidate aria-label={`Fechamento de ${cidade.cidade_nome}`}>
          <div className="form-venda__grade">
            {CAMPOS_DINHEIRO.map(({ campo, rotulo }) => (
              <Campo key={campo} rotulo={rotulo} erro={erros[campo]}>
                {(p) => (
                  <div className="entrada-moeda">
                    <span aria-hidden="true">R$</span>
                    <input
                      {...p}
                      className="entrada"
                      type="text"
                      inputMode="decimal"
                      autoComplete="off"
                      placeholder="0,00"
                      value={edicao[campo]}
                      onChange={(e) => aoMudarCampo(campo, e.target.value)}
                    />
                  </div>
                )}
              </Campo>
            ))}
            <Campo rotulo="Boletos" erro={erros.valor_boletos}>
              {(p) => (
                <input
                  {...p}
                  className="entrada"
                  type="number"
                  inputMode="numeric"
                  min={0}
                  step={1}
                  placeholder="0"
                  value={edicao.valor_boletos}
                  onChange={(e) => aoMudarCampo('valor_boletos', e.target.value)}
                />
              )}
            </Campo>
            <div className="form-venda__total" aria-live="polite">
              <span>Total</span>
              <strong>{total === null ? '—' : formatarReais(total)}</strong>
            </div>
          </div>
          <Campo rotulo="Observações" erro={erros.observacoes}>
            {(p) => <textarea {...p} className="area-texto" rows={2} value={edicao.observacoes} onChange={(e) => aoMudarCampo('observacoes', e.target.value)} />}
          </Campo>
          <p className="campo__ajuda form-venda__ajuda">Em branco vale 0. Sem valores nem observação, a cidade fica como visitada (sem venda).</p>
          <div className="form-venda__botoes">
            <Botao variante="outline" tamanho="lg" onClick={pedirFechar}>
              Cancelar
            </Botao>
            <Botao type="submit" tamanho="lg">
              Salvar
            </Botao>
          </div>
        </form>
      )}

      {expandida && (
        <div id={idDetalhes} className="cidade-venda__detalhes">
          {!editando &&
            (venda ? (
              <dl className="detalhes-venda">
                {CAMPOS_DINHEIRO.map(({ campo, rotulo }) => (
                  <div key={campo}>
                    <dt>{rotulo}</dt>
                    <dd>{formatarReais(venda[campo])}</dd>
                  </div>
                ))}
                <div>
                  <dt>Boletos</dt>
                  <dd>{venda.valor_boletos}</dd>
                </div>
                <div className="detalhes-venda__total">
                  <dt>Total</dt>
                  <dd>{formatarReais(venda.total)}</dd>
                </div>
                <div className="detalhes-venda__obs">
                  <dt>Observações</dt>
                  <dd>{venda.observacoes || '—'}</dd>
                </div>
              </dl>
            ) : (
              <p className="cidade-venda__vazio">{cidade.visitada ? 'Cidade visitada nesta data, sem venda.' : 'Nenhum fechamento nesta data.'}</p>
            ))}

          <section className="historico-vendas" aria-label={`Histórico de vendas de ${cidade.cidade_nome}`}>
            <h4>Histórico de vendas</h4>
            {cidade.historico.length === 0 ? (
              <p className="cidade-venda__vazio">{historicoIndisponivel ? 'Histórico indisponível sem conexão.' : 'Sem vendas registradas'}</p>
            ) : (
              <ul>
                {cidade.historico.map((h) => (
                  <li key={h.data_venda}>
                    <span>
                      {formatarData(h.data_venda)}
                      {h.local && <span className="historico-vendas__local"> · neste aparelho</span>}
                    </span>
                    <strong>{formatarReais(h.total_vendas)}</strong>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
      {pergunta}
    </li>
  );
}
