/**
 * Route details (spec section 2, Relatórios): cities visited x/total and the average, visited and
 * unvisited cities with their sales and expenses, the totals with the salary and the rent, the
 * final balance, the route's settlement (acerto: its figures, recording it, and the writes that arrived
 * after the finish), and the receipts.
 */
import { FileText } from 'lucide-react';
import { useState } from 'react';
import { formatarData } from '../../../shared/dates';
import { formatarReais } from '../../../shared/money';
import { mediaParaExibir } from '../../../shared/payroll/salario';
import { rotuloSalarioDaRota } from '../../../shared/relatorios';
import { ROTULO_TIPO_DESPESA, type CupomDespesa, type TipoDespesa } from '../../../shared/schemas/despesas';
import { api } from '../api/client';
import { ROTULO_STATUS_ROTA } from '../../../shared/schemas/rotas';
import { Carregando } from '../components/Carregando';
import { Modal } from '../components/Modal';
import { Selo } from '../components/Selo';
import { tipoDeVisualizacao } from '../despesas/compressao';
import { VisualizadorCupom, type CupomParaVer } from '../despesas/VisualizadorCupom';
import { useDetalhesRota, useTardiosDaRota } from './consultas';
import { QuadroAcerto } from './QuadroAcerto';
import { RegistrarAcerto } from './RegistrarAcerto';
import { ListaTardios } from './RegistrosTardios';
import { DecidirTardio } from './DecidirTardio';
import { DetalhamentoSalario, linhasDaApi } from './DetalhamentoSalario';

export function ModalDetalhesRota({ rotaId, aoFechar }: { rotaId: number | null; aoFechar: () => void }) {
  const { data: d, isLoading, isError } = useDetalhesRota(rotaId);
  const { data: tardios } = useTardiosDaRota(rotaId);
  const [cupom, setCupom] = useState<CupomParaVer | CupomParaVer[] | null>(null);
  /** Every receipt of the expense, read when its cell is opened (the report names the first). */
  const abrirCupons = async (x: { id: string; cupom_url: string | null; cupom_mime: string | null }) => {
    const primeiro: CupomParaVer = { url: x.cupom_url, arquivoLocal: null, mime: x.cupom_mime, nome: null };
    try {
      const { cupons } = await api.get<{ cupons: CupomDespesa[] }>(`/despesas/${x.id}/cupons`);
      setCupom(cupons.length > 0 ? cupons.map((c) => ({ url: c.url, arquivoLocal: null, mime: c.mime, nome: c.nome })) : primeiro);
    } catch {
      setCupom(primeiro); // offline or an older server: the first, as before
    }
  };
  const visitadas = d?.cidades.filter((c) => c.visitada) ?? [];
  const naoVisitadas = d?.cidades.filter((c) => !c.visitada) ?? [];
  const comCupom = d?.despesas.filter((x) => x.cupom_url) ?? [];

  return (
    <Modal aberto={rotaId !== null} titulo={d ? d.rota_nome : 'Detalhes da rota'} aoFechar={aoFechar} tamanho="grande">
      {isLoading && <Carregando texto="Carregando detalhes..." />}
      {isError && (
        <div className="alerta alerta--erro" role="alert">
          Erro ao buscar detalhes da rota
        </div>
      )}
      {d && (
        <div className="detalhes-rota">
          <div className="detalhes-rota__cabecalho">
            <div>
              <div className="detalhes-rota__rotulo">Funcionário</div>
              <strong>{d.funcionario_nome}</strong>
            </div>
            <div>
              <div className="detalhes-rota__rotulo">Status</div>
              <Selo cor={d.status === 'ativa' ? 'verde' : 'cinza'}>{ROTULO_STATUS_ROTA[d.status]}</Selo>
            </div>
            <div>
              <div className="detalhes-rota__rotulo">Período</div>
              <strong>
                {d.data_inicio_formatada} a {d.data_fim_formatada}
              </strong>
            </div>
            <div>
              <div className="detalhes-rota__rotulo">Cidades visitadas</div>
              <strong>
                {d.cidades_visitadas}/{d.total_cidades}
              </strong>
            </div>
            <div>
              <div className="detalhes-rota__rotulo">Desempenho médio</div>
              <strong>{mediaParaExibir(d.media_bolsas_cidade).toLocaleString('pt-BR', { maximumFractionDigits: 2 })} bolsas por cidade</strong>
            </div>
          </div>

          <details className="dobravel" open>
            <summary>Cidades visitadas ({visitadas.length})</summary>
            {visitadas.length === 0 ? (
              <p className="campo__ajuda">Nenhuma cidade visitada.</p>
            ) : (
              <table className="tabela tabela--compacta">
                <thead>
                  <tr>
                    <th>Cidade</th>
                    <th className="numero">Vendas</th>
                    <th className="numero">Despesas</th>
                  </tr>
                </thead>
                <tbody>
                  {visitadas.map((c) => (
                    <tr key={c.cidade_id}>
                      <td>
                        {c.cidade_nome} ({c.uf})
                      </td>
                      <td className="numero">{formatarReais(c.total_vendas)}</td>
                      <td className="numero">{formatarReais(c.total_despesas)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </details>

          <details className="dobravel">
            <summary>Cidades não visitadas ({naoVisitadas.length})</summary>
            {naoVisitadas.length === 0 ? (
              <p className="campo__ajuda">Todas as cidades da rota foram visitadas.</p>
            ) : (
              <ul className="lista-cidades">
                {naoVisitadas.map((c) => (
                  <li key={c.cidade_id}>
                    {c.cidade_nome} ({c.uf})
                  </li>
                ))}
              </ul>
            )}
          </details>

          <section aria-label="Totais" className="totais-rota">
            <Total rotulo="Vendas" valor={formatarReais(d.total_vendas)} />
            <Total rotulo="Despesas" valor={formatarReais(d.total_despesas)} />
            <Total rotulo="Créditos" valor={formatarReais(d.total_creditos)} />
            {/* 'Salário pago' only when the route is finished: before, it is an estimate. */}
            <Total rotulo={rotuloSalarioDaRota(d.status)} valor={formatarReais(d.total_salario)} />
            <Total rotulo="Valor do aluguel" valor={formatarReais(d.valor_aluguel)} />
            <Total rotulo="Desconto do funcionário" valor={formatarReais(d.desconto_aluguel_funcionario)} />
            <Total rotulo="Pago pela escola" valor={formatarReais(d.desconto_aluguel_escola)} />
            <Total rotulo="Quem pagou o aluguel" valor={d.valor_aluguel > 0 ? d.quem_pagou_aluguel : 'Sem aluguel'} />
            <Total
              rotulo={d.saldo_final < 0 ? 'Saldo final (a receber)' : 'Saldo final (a devolver)'}
              valor={formatarReais(Math.abs(d.saldo_final))}
              classe={d.saldo_final > 0 ? 'totais-rota__valor--positivo' : d.saldo_final < 0 ? 'totais-rota__valor--negativo' : undefined}
            />
          </section>

          <QuadroAcerto acerto={d.acerto} status={d.status} leitor="admin" />
          <RegistrarAcerto rotaId={d.rota_id} status={d.status} funcionarioNome={d.funcionario_nome} acerto={d.acerto} tardiosPendentes={d.tardios_pendentes} />
          <ListaTardios tardios={tardios ?? []} leitor="admin" acoes={(t) => <DecidirTardio tardio={t} rotaId={d.rota_id} />} />

          <details className="dobravel" aria-label="Como o salário foi calculado">
            <summary>Como o salário foi calculado</summary>
            <DetalhamentoSalario linhas={linhasDaApi(d.calculo_salario)} rotuloTotal={rotuloSalarioDaRota(d.status)} />
          </details>

          <details className="dobravel">
            <summary>Comprovantes ({comCupom.length})</summary>
            {comCupom.length === 0 ? (
              <p className="campo__ajuda">Nenhuma despesa desta rota tem comprovante.</p>
            ) : (
              <ul className="grade-cupons">
                {comCupom.map((x) => (
                  <li key={x.id}>
                    <button type="button" className="cupom-miniatura" onClick={() => void abrirCupons(x)}>
                      {tipoDeVisualizacao(x.cupom_mime) !== 'imagem' ? (
                        <span className="cupom-miniatura__pdf">
                          <FileText size={28} aria-hidden="true" />
                          {tipoDeVisualizacao(x.cupom_mime) === 'pdf' ? 'PDF' : 'Arquivo'}
                        </span>
                      ) : (
                        <img src={x.cupom_url!} alt={`Comprovante de ${formatarData(x.data_despesa)}`} loading="lazy" />
                      )}
                      {(x.cupons_quantidade ?? 1) > 1 && (
                        <span className="cupom-miniatura__quantidade" aria-label={`${x.cupons_quantidade} comprovantes`}>
                          {x.cupons_quantidade}
                        </span>
                      )}
                      <span className="cupom-miniatura__legenda">
                        {formatarData(x.data_despesa)} · {x.tipo === 'outro' && x.tipo_outro ? x.tipo_outro : (ROTULO_TIPO_DESPESA[x.tipo as TipoDespesa] ?? x.tipo)} · {formatarReais(x.valor)}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </details>
        </div>
      )}
      <VisualizadorCupom cupom={cupom} aoFechar={() => setCupom(null)} />
    </Modal>
  );
}

function Total({ rotulo, valor, classe }: { rotulo: string; valor: string; classe?: string }) {
  return (
    <div className="totais-rota__item">
      <span className="totais-rota__rotulo">{rotulo}</span>
      <strong className={classe}>{valor}</strong>
    </div>
  );
}
