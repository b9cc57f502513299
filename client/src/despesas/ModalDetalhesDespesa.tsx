/**
 * Details of one expense (spec: date, city, value, status, type, registered by, route, description
 * and rejection reason), with the receipt, when the server received it, and the role's actions.
 */
import { Check, ExternalLink, Pencil, Receipt, RotateCcw, Trash2, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatarData, formatarDataHora } from '../../../shared/dates';
import { formatarReais } from '../../../shared/money';
import { formatarChaveNfce, lerChaveNfce, resumoNfce, urlConsultaNfce } from '../../../shared/nfce';
import { Botao } from '../components/Botao';
import { Modal } from '../components/Modal';
import { fusoDoApp } from '../config/configApp';
import { cidadeDaDespesa, SeloLimite, SelosDespesa, SeloStatus, TEXTO_DINHEIRO_REJEITADA, temCupom, tipoDaDespesa } from './apresentacao';
import type { DespesaExibida } from './fila';

interface PropsDetalhes {
  despesa: DespesaExibida | null;
  aoFechar: () => void;
  aoVerCupom: (d: DespesaExibida) => void;
  /** Admin actions (approve/reject); absent for employees. */
  aoAprovar?: (d: DespesaExibida) => void;
  aoRejeitar?: (d: DespesaExibida) => void;
  aprovando?: boolean;
  /** The admin's view: the daily limit's badge (the phone's own rows may have queued changes the server has not flagged). */
  admin?: boolean;
  /** Employee actions, only when the expense can still change. */
  aoEditar?: (d: DespesaExibida) => void;
  aoExcluir?: (d: DespesaExibida) => void;
  /** A rejected expense of the employee: correct it and send it again. */
  aoCorrigir?: (d: DespesaExibida) => void;
}

function Item({ rotulo, children }: { rotulo: string; children: ReactNode }) {
  return (
    <div className="detalhes__item">
      <dt>{rotulo}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export function ModalDetalhesDespesa({ despesa: d, aoFechar, aoVerCupom, aoAprovar, aoRejeitar, aprovando, admin = false, aoEditar, aoExcluir, aoCorrigir }: PropsDetalhes) {
  const fuso = fusoDoApp();
  return (
    <Modal
      aberto={d !== null}
      titulo="Detalhes da Despesa"
      aoFechar={aoFechar}
      rodape={
        d && (
          <>
            {aoExcluir && (
              <Botao variante="danger" icone={<Trash2 size={16} />} onClick={() => aoExcluir(d)}>
                Excluir
              </Botao>
            )}
            {aoEditar && (
              <Botao variante="outline" icone={<Pencil size={16} />} onClick={() => aoEditar(d)}>
                Editar
              </Botao>
            )}
            {aoCorrigir && (
              <Botao variante="orange" icone={<RotateCcw size={16} />} onClick={() => aoCorrigir(d)}>
                Corrigir e reenviar
              </Botao>
            )}
            {aoRejeitar && !d.rejeitada && (
              <Botao variante="danger" icone={<X size={16} />} onClick={() => aoRejeitar(d)}>
                Rejeitar
              </Botao>
            )}
            {aoAprovar && !d.aprovada && (
              <Botao variante="secondary" icone={<Check size={16} />} carregando={aprovando} onClick={() => aoAprovar(d)}>
                Aprovar
              </Botao>
            )}
            <Botao variante="outline" onClick={aoFechar}>
              Fechar
            </Botao>
          </>
        )
      }
    >
      {d && (
        <>
          <div className="detalhes__topo">
            <div>
              <div className="detalhes__tipo">{tipoDaDespesa(d)}</div>
              <div className="detalhes__valor">{formatarReais(d.valor)}</div>
            </div>
            <div className="detalhes__selos">
              <SelosDespesa despesa={d} />
              {admin && <SeloLimite despesa={d} />}
            </div>
          </div>
          {d.rejeitada && d.motivo_rejeicao && (
            <div className="alerta alerta--erro">
              <strong>Motivo da rejeição:</strong> {d.motivo_rejeicao}
            </div>
          )}
          {d.rejeitada && !d.excluida && aoCorrigir && <p className="detalhes__dinheiro">{TEXTO_DINHEIRO_REJEITADA(formatarReais(d.valor))}</p>}
          {d.envio?.estado === 'erro' && d.envio.erro && (
            <div className="alerta alerta--erro">
              <strong>O servidor recusou esta alteração:</strong> {d.envio.erro} Resolva pelo painel de sincronização.
            </div>
          )}
          <dl className="detalhes">
            <Item rotulo="Data">{formatarData(d.data_despesa)}</Item>
            <Item rotulo="Cidade">{cidadeDaDespesa(d)}</Item>
            <Item rotulo="Valor">{formatarReais(d.valor)}</Item>
            <Item rotulo="Status">
              <SeloStatus despesa={d} />
            </Item>
            <Item rotulo="Tipo">{tipoDaDespesa(d)}</Item>
            <Item rotulo="Registrado por">{d.funcionario_nome}</Item>
            <Item rotulo="Rota">{d.rota_nome}</Item>
            <Item rotulo="Descrição">{d.descricao || '—'}</Item>
            {d.rejeitada && <Item rotulo="Motivo da rejeição">{d.motivo_rejeicao || '—'}</Item>}
            <Item rotulo="Cupom Fiscal">
              {temCupom(d) ? (
                <button type="button" className="link-botao" onClick={() => aoVerCupom(d)} aria-label="Visualizar Cupom Fiscal">
                  <Receipt size={15} aria-hidden="true" /> Visualizar
                </button>
              ) : (
                'Sem comprovante'
              )}
            </Item>
            {d.chave_nfce && (
              <Item rotulo="NFC-e">
                <div className="detalhes__chave-nfce">
                  <code aria-label="Chave de acesso da NFC-e">{formatarChaveNfce(d.chave_nfce)}</code>
                  <span>{resumoNfce(lerChaveNfce(d.chave_nfce))}</span>
                  <a className="link-botao" href={urlConsultaNfce(d.chave_nfce)} target="_blank" rel="noopener noreferrer">
                    Consultar na SEFAZ <ExternalLink size={14} aria-hidden="true" />
                  </a>
                </div>
              </Item>
            )}
            <Item rotulo="Registrado no aparelho">{formatarDataHora(d.registrado_em, fuso)}</Item>
            <Item rotulo="Recebido pelo servidor">{d.recebido_em ? formatarDataHora(d.recebido_em, fuso) : 'Aguardando envio'}</Item>
          </dl>
        </>
      )}
    </Modal>
  );
}
