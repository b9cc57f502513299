/**
 * What a route came to, for its employee: the final salary with how it is reached, the route's expenses
 * and credits, the settlement (what is left to return or to receive, shared/acerto.ts, and when it was
 * settled), and what another phone sent after the finish with the admin's decision. Opens from 'Rotas
 * Finalizadas' and right after 'Finalizar Rota'; offline from the device's copy (rotas/consultas.ts, one
 * per person and route).
 */
import { CloudOff, Info } from 'lucide-react';
import { formatarData, formatarDataHora } from '../../../shared/dates';
import { formatarReais } from '../../../shared/money';
import { ROTULO_TIPO_DESPESA, type TipoDespesa } from '../../../shared/schemas/despesas';
import type { RelatorioSalarioRota } from '../../../shared/schemas/relatorios';
import { Carregando } from '../components/Carregando';
import { Modal } from '../components/Modal';
import { Selo } from '../components/Selo';
import { fusoDoApp } from '../config/configApp';
import { mensagemAluguel } from '../dashboard/apresentacao';
import { DetalhamentoSalario, linhasDaApi } from '../relatorios/DetalhamentoSalario';
import { QuadroAcerto } from '../relatorios/QuadroAcerto';
import { ListaTardios } from '../relatorios/RegistrosTardios';
import { useResultadoDaRota } from './consultas';
import './resultadoRota.css';
import type { RotaExibida } from './minhasRotas';

export const SEM_COPIA_RESULTADO = 'Sem conexão e sem cópia deste resultado neste aparelho. Ele aparece quando você abrir Minhas Rotas com internet.';

export function ModalResultadoRota({ usuarioId, rota, aoFechar }: { usuarioId: number; rota: RotaExibida | null; aoFechar: () => void }) {
  return (
    <Modal aberto={rota !== null} titulo="Resultado da rota" aoFechar={aoFechar}>
      {rota && <ConteudoResultado usuarioId={usuarioId} rota={rota} />}
    </Modal>
  );
}

function ConteudoResultado({ usuarioId, rota }: { usuarioId: number; rota: RotaExibida }) {
  const fuso = fusoDoApp();
  const consulta = useResultadoDaRota(usuarioId, rota.id);
  const carga = consulta.data;
  const finalizada = rota.status === 'finalizada';
  // The server's time of the finishing when the result has it (the card may be older than it).
  const finalizadaEm = (carga && 'resultado' in carga ? carga.resultado.resultado.finalizada_em : null) ?? rota.finalizada_em;

  return (
    <div className="resultado-rota">
      <div className="resultado-rota__cabecalho">
        <div className="resultado-rota__nome">
          <strong>{rota.nome}</strong>
          {rota.envio === 'pendente' ? <Selo cor="amarelo">Aguardando envio</Selo> : <Selo cor={finalizada ? 'cinza' : 'verde'}>{finalizada ? 'Finalizada' : 'Ativa'}</Selo>}
        </div>
        <p className="resultado-rota__periodo">
          {formatarData(rota.data_inicio)} a {formatarData(rota.data_fim)}
          {finalizada && finalizadaEm && <> · Finalizada em {formatarDataHora(finalizadaEm, fuso)}</>}
        </p>
      </div>

      {rota.envio === 'pendente' && (
        <div className="alerta alerta--aviso" role="status">
          A finalização ainda não chegou ao servidor. Estes números são os da última sincronização e podem mudar quando o que está neste aparelho for enviado.
        </div>
      )}

      {consulta.isPending ? (
        <Carregando texto="Carregando o resultado..." />
      ) : consulta.isError ? (
        <div className="alerta alerta--erro" role="alert">
          Erro ao carregar o resultado da rota. Tente novamente.
        </div>
      ) : carga && 'semDados' in carga ? (
        <div className="alerta alerta--aviso" role="status">
          {SEM_COPIA_RESULTADO}
        </div>
      ) : carga ? (
        <>
          {carga.doAparelhoEm && (
            <div className="alerta alerta--info aviso-cache" role="status">
              <CloudOff size={16} aria-hidden="true" /> Sem conexão: resultado salvo neste aparelho em {formatarDataHora(carga.doAparelhoEm, fuso)}.
            </div>
          )}
          <Numeros r={carga.resultado} finalizada={finalizada && rota.envio !== 'pendente'} />
        </>
      ) : null}
    </div>
  );
}

function Numeros({ r, finalizada }: { r: RelatorioSalarioRota; finalizada: boolean }) {
  const c = r.calculo_salario;
  const res = r.resultado;
  const titulo = finalizada ? 'Salário final' : 'Salário estimado';
  const negativo = c.total_salario < 0;
  return (
    <>
      <dl className="resultado-rota__resumo">
        <div>
          <dt>Vendas da rota</dt>
          <dd>{formatarReais(res.total_vendas)}</dd>
        </div>
        <div>
          <dt>Cidades visitadas</dt>
          <dd>
            {res.cidades_visitadas} de {res.total_cidades}
          </dd>
        </div>
      </dl>

      <section className="resultado-rota__bloco" aria-label={titulo}>
        <div className="salario__topo">
          <h3 className="salario__titulo">{titulo}</h3>
          <strong className={`salario__total${negativo ? ' valor-negativo' : ''}`} data-testid="resultado-salario-total">
            {formatarReais(c.total_salario)}
          </strong>
        </div>
        <DetalhamentoSalario linhas={linhasDaApi(c)} rotuloTotal="Total" />
        <p className="salario__aluguel">
          <Info size={16} aria-hidden="true" /> {mensagemAluguel(c.quem_paga_aluguel, Math.round(c.valor_aluguel * 100))}
        </p>
      </section>

      <section className="resultado-rota__bloco" aria-label="Dinheiro da rota">
        <h3 className="salario__titulo">Dinheiro da rota</h3>
        <dl className="salario__linhas">
          <div className="salario__linha">
            <dt>
              Créditos recebidos<span className="salario__detalhe">saldo enviado pelo administrador para esta rota</span>
            </dt>
            <dd>{formatarReais(res.total_creditos)}</dd>
          </div>
          <div className="salario__linha resultado-rota__despesas">
            <dt>Despesas</dt>
            <dd>{formatarReais(res.total_despesas)}</dd>
          </div>
        </dl>
        {res.despesas_por_tipo.length > 0 ? (
          <ul className="resultado-rota__tipos" aria-label="Despesas por tipo">
            {res.despesas_por_tipo.map((d) => (
              <li key={d.tipo}>
                <span>
                  {ROTULO_TIPO_DESPESA[d.tipo as TipoDespesa] ?? d.tipo} ({d.quantidade})
                </span>
                <span>{formatarReais(d.total)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="campo__ajuda">Nenhuma despesa registrada nesta rota.</p>
        )}
        {!res.acerto && <Saldo saldo={res.saldo_final} />}
      </section>

      {res.acerto && <QuadroAcerto acerto={res.acerto} status={res.status} leitor="funcionario" />}
      {r.tardios && <ListaTardios tardios={r.tardios} leitor="funcionario" />}
    </>
  );
}

/** A result stored on the phone before the settlement existed: créditos − despesas, as it was then. */
function Saldo({ saldo }: { saldo: number }) {
  const aReceber = saldo < 0;
  return (
    <div className={`resultado-rota__saldo${aReceber ? ' resultado-rota__saldo--receber' : ''}`} data-testid="resultado-saldo">
      <dl>
        <div className="salario__linha salario__linha--total">
          <dt>{aReceber ? 'A receber' : 'Saldo a devolver'}</dt>
          <dd>{formatarReais(Math.abs(saldo))}</dd>
        </div>
      </dl>
      <p className="resultado-rota__nota">
        {aReceber
          ? `As despesas passaram dos créditos: você pagou ${formatarReais(-saldo)} do próprio bolso.`
          : saldo > 0
            ? 'Créditos recebidos menos as despesas: é o que sobrou do dinheiro adiantado.'
            : 'As despesas usaram todo o crédito: não há nada a devolver.'}
      </p>
    </div>
  );
}
