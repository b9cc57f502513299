/**
 * 'Rotas' for the admin (spec section 2): filters by status and employee applied with 'Filtrar',
 * route cards, create/edit, delete with the messages of section 8, the route's expenses,
 * cancelling an active route and reopening a cancelled one (docs/decisions/rotas.md).
 */
import { Ban, CalendarDays, Filter, MapPin, Pencil, Plus, Receipt, RotateCcw, Trash2, User, Users, Wallet } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../components/avisos';
import { formatarData } from '../../../shared/dates';
import { formatarCentavos, formatarReais } from '../../../shared/money';
import { limiteDiarioCentavos } from '../../../shared/politicaDespesas';
import { ROTULO_FILTRO_STATUS_ROTA, ROTULO_STATUS_ROTA, STATUS_ROTA, type Rota } from '../../../shared/schemas/rotas';
import { ErroApi, ErroOffline, mensagemDeErro } from '../api/client';
import { Botao } from '../components/Botao';
import { FiltroSelecao } from '../components/CamposDeFiltro';
import { Carregando } from '../components/Carregando';
import { Confirmacao } from '../components/Confirmacao';
import { SemConexao, useSemConexao } from '../components/SemConexao';
import { Selo } from '../components/Selo';
import { useFuncionarios } from '../usuarios/consultas';
import { useCancelarRota, useExcluirRota, useReabrirRota, useRotas, type FiltroRotas } from './consultas';
import { previaDeCidades } from './formularioRota';
import { ModalCidadesRota } from './ModalCidadesRota';
import { ModalDespesasRota } from './ModalDespesasRota';
import { ModalRota } from './ModalRota';
import { DadoDoCartao } from './DadoDoCartao';

/** Spec section 9: the route card shows 3 cities, then 'Ver todas'. */
export const CIDADES_NO_CARTAO = 3;

/** Spec section 9: the default route status filter is 'ativa'. */
const FILTRO_INICIAL: FiltroRotas = { status: 'ativa', funcionario_id: '' };

export function textoSecretario(rota: Pick<Rota, 'tem_secretario' | 'secretario_nome'>): string {
  if (!rota.tem_secretario) return 'Não';
  return rota.secretario_nome || 'Sim';
}

/** What the person reads after a delete attempt (spec section 8). */
export function mensagemExclusao(erro: unknown): string {
  if (erro instanceof ErroApi) {
    if (erro.status === 404) return 'Rota não encontrada ou já foi excluída';
    if (erro.status === 403) return 'Você não tem permissão para excluir esta rota';
    if (erro.status === 409) return mensagemDeErro(erro, 'Erro ao excluir rota. Tente novamente.');
  }
  if (erro instanceof ErroOffline) return mensagemDeErro(erro, 'Erro ao excluir rota. Tente novamente.');
  return 'Erro ao excluir rota. Tente novamente.';
}

export function PaginaRotasAdmin() {
  const [rascunhoFiltro, setRascunhoFiltro] = useState<FiltroRotas>(FILTRO_INICIAL);
  const [filtro, setFiltro] = useState<FiltroRotas>(FILTRO_INICIAL);
  const lista = useRotas(filtro);
  const { data: rotas = [], isLoading, isFetching } = lista;
  const conexao = useSemConexao(lista);
  const { data: funcionarios = [] } = useFuncionarios();
  const [editando, setEditando] = useState<Rota | 'nova' | null>(null);
  const [excluindo, setExcluindo] = useState<Rota | null>(null);
  const [cancelando, setCancelando] = useState<Rota | null>(null);
  const [reabrindo, setReabrindo] = useState<Rota | null>(null);
  const [vendoCidades, setVendoCidades] = useState<Rota | null>(null);
  const [vendoDespesas, setVendoDespesas] = useState<Rota | null>(null);
  const excluir = useExcluirRota();
  const cancelar = useCancelarRota();
  const reabrir = useReabrirRota();

  async function confirmarExclusao() {
    if (!excluindo) return;
    try {
      await excluir.mutateAsync(excluindo.id);
      toast.success('Rota excluída com sucesso!');
    } catch (erro) {
      toast.error(mensagemExclusao(erro));
    } finally {
      setExcluindo(null);
    }
  }

  async function confirmarCancelamento() {
    if (!cancelando) return;
    try {
      await cancelar.mutateAsync(cancelando.id);
      toast.success('Rota cancelada com sucesso!');
    } catch (erro) {
      toast.error(mensagemDeErro(erro, 'Erro ao cancelar rota. Tente novamente.'));
    } finally {
      setCancelando(null);
    }
  }

  async function confirmarReabertura() {
    if (!reabrindo) return;
    try {
      await reabrir.mutateAsync(reabrindo.id);
      toast.success('Rota reaberta com sucesso!');
    } catch (erro) {
      // A 409 says why (another active route for the employee, no longer cancelled).
      toast.error(mensagemDeErro(erro, 'Erro ao reabrir rota. Tente novamente.'));
    } finally {
      setReabrindo(null);
    }
  }

  return (
    <div>
      <div className="pagina__topo">
        <div>
          <h1>Rotas</h1>
          <p className="pagina__descricao">Crie e acompanhe as rotas da equipe, suas cidades e despesas.</p>
        </div>
        <Botao icone={<Plus size={18} />} onClick={() => setEditando('nova')}>
          Nova Rota
        </Botao>
      </div>

      <form
        className="cartao filtros-rotas"
        aria-label="Filtros"
        onSubmit={(e) => {
          e.preventDefault();
          setFiltro(rascunhoFiltro);
        }}
      >
        <FiltroSelecao
          rotulo="Status"
          todos="Todas"
          valor={rascunhoFiltro.status}
          aoMudar={(status) => setRascunhoFiltro((f) => ({ ...f, status }))}
          opcoes={STATUS_ROTA.map((s) => ({ valor: s, rotulo: ROTULO_FILTRO_STATUS_ROTA[s] }))}
        />
        <FiltroSelecao
          rotulo="Funcionário"
          valor={rascunhoFiltro.funcionario_id}
          aoMudar={(funcionario_id) => setRascunhoFiltro((f) => ({ ...f, funcionario_id }))}
          opcoes={funcionarios.map((f) => ({ valor: f.id, rotulo: f.nome }))}
        />
        <Botao type="submit" variante="secondary" icone={<Filter size={17} />} carregando={isFetching && !isLoading}>
          Filtrar
        </Botao>
      </form>

      {conexao.semConexao ? (
        <SemConexao conexao={conexao} />
      ) : isLoading ? (
        <Carregando texto="Carregando rotas..." />
      ) : rotas.length === 0 ? (
        <div className="cartao vazio-rotas">Nenhuma rota encontrada.</div>
      ) : (
        <ul className="grade-rotas" aria-label="Rotas">
          {rotas.map((rota) => (
            <CartaoRota
              key={rota.id}
              rota={rota}
              aoEditar={() => setEditando(rota)}
              aoExcluir={() => setExcluindo(rota)}
              aoCancelar={() => setCancelando(rota)}
              aoReabrir={() => setReabrindo(rota)}
              aoVerCidades={() => setVendoCidades(rota)}
              aoVerDespesas={() => setVendoDespesas(rota)}
            />
          ))}
        </ul>
      )}

      {editando !== null && <ModalRota rota={editando === 'nova' ? null : editando} aoFechar={() => setEditando(null)} />}
      <ModalCidadesRota rota={vendoCidades} aoFechar={() => setVendoCidades(null)} />
      {vendoDespesas && <ModalDespesasRota rota={vendoDespesas} aoFechar={() => setVendoDespesas(null)} />}

      <Confirmacao
        aberto={excluindo !== null}
        titulo="Excluir rota"
        mensagem={`Excluir a rota "${excluindo?.nome}"? Essa ação não pode ser desfeita.`}
        textoConfirmar="Excluir"
        textoCancelar="Cancelar"
        varianteConfirmar="danger"
        processando={excluir.isPending}
        aoConfirmar={() => void confirmarExclusao()}
        aoCancelar={() => setExcluindo(null)}
      />
      <Confirmacao
        aberto={cancelando !== null}
        titulo="Cancelar rota"
        mensagem={`Cancelar a rota "${cancelando?.nome}"? Ela deixa de aceitar registros de depois de hoje, e o funcionário fica livre para uma nova rota. Vendas, visitas e despesas feitas até hoje que ainda estão no celular dele continuam sendo aceitas.`}
        textoConfirmar="Cancelar rota"
        textoCancelar="Voltar"
        varianteConfirmar="danger"
        processando={cancelar.isPending}
        aoConfirmar={() => void confirmarCancelamento()}
        aoCancelar={() => setCancelando(null)}
      />
      <Confirmacao
        aberto={reabrindo !== null}
        titulo="Reabrir rota"
        mensagem={`Reabrir a rota "${reabrindo?.nome}"? Ela volta a ficar ativa para ${reabrindo?.funcionario_nome} e aceita de novo vendas, visitas e despesas.`}
        textoConfirmar="Reabrir rota"
        textoCancelar="Voltar"
        processando={reabrir.isPending}
        aoConfirmar={() => void confirmarReabertura()}
        aoCancelar={() => setReabrindo(null)}
      />
    </div>
  );
}

interface PropsCartao {
  rota: Rota;
  aoEditar: () => void;
  aoExcluir: () => void;
  aoCancelar: () => void;
  aoReabrir: () => void;
  aoVerCidades: () => void;
  aoVerDespesas: () => void;
}

function CartaoRota({ rota, aoEditar, aoExcluir, aoCancelar, aoReabrir, aoVerCidades, aoVerDespesas }: PropsCartao) {
  const previa = previaDeCidades(rota.cidades, CIDADES_NO_CARTAO);
  return (
    <li className="cartao cartao-rota" aria-label={rota.nome}>
      <div className="cartao-rota__topo">
        <h2 className="cartao-rota__nome">{rota.nome}</h2>
        <Selo cor={rota.status === 'ativa' ? 'verde' : 'cinza'}>{ROTULO_STATUS_ROTA[rota.status]}</Selo>
      </div>
      <dl className="cartao-rota__dados">
        <DadoDoCartao icone={CalendarDays} rotulo="Período">
          {formatarData(rota.data_inicio)} a {formatarData(rota.data_fim)}
        </DadoDoCartao>
        <DadoDoCartao icone={User} rotulo="Funcionário">
          {rota.funcionario_nome}
        </DadoDoCartao>
        <DadoDoCartao icone={Users} rotulo="Secretário">
          {textoSecretario(rota)}
        </DadoDoCartao>
        <DadoDoCartao icone={Wallet} rotulo="Aluguel">
          {formatarReais(rota.valor_aluguel)}
        </DadoDoCartao>
        <DadoDoCartao icone={Receipt} rotulo="Limite diário">
          {formatarCentavos(limiteDiarioCentavos(rota))}
        </DadoDoCartao>
      </dl>
      <div className="cartao-rota__cidades">
        <span className="cartao-rota__rotulo">
          <MapPin size={15} aria-hidden="true" /> Cidades ({rota.cidades.length})
        </span>
        <div className="tags">
          {previa.visiveis.map((c) => (
            <span key={c.id} className="tag">
              {c.nome} - {c.uf}
            </span>
          ))}
          {previa.restantes > 0 && (
            <button type="button" className="link-botao" onClick={aoVerCidades} aria-label={`Ver todas as ${rota.cidades.length} cidades de ${rota.nome}`}>
              Ver todas
            </button>
          )}
        </div>
      </div>
      {rota.observacoes && <p className="cartao-rota__obs">{rota.observacoes}</p>}
      <div className="cartao-rota__acoes">
        <Botao tamanho="sm" variante="outline" icone={<Pencil size={15} />} onClick={aoEditar} aria-label={`Editar ${rota.nome}`}>
          Editar
        </Botao>
        <Botao tamanho="sm" variante="secondary" icone={<Receipt size={15} />} onClick={aoVerDespesas} aria-label={`Ver despesas de ${rota.nome}`}>
          Ver despesas
        </Botao>
        {rota.status === 'ativa' && (
          <Botao tamanho="sm" variante="orange" icone={<Ban size={15} />} onClick={aoCancelar} aria-label={`Cancelar ${rota.nome}`}>
            Cancelar rota
          </Botao>
        )}
        {rota.status === 'cancelada' && (
          <Botao tamanho="sm" variante="outline" icone={<RotateCcw size={15} />} onClick={aoReabrir} aria-label={`Reabrir ${rota.nome}`}>
            Reabrir
          </Botao>
        )}
        {/* A finished route is the employee's history (salary, balance to return): it is never deleted. */}
        {rota.status !== 'finalizada' && (
          <Botao tamanho="sm" variante="danger" icone={<Trash2 size={15} />} onClick={aoExcluir} aria-label={`Excluir ${rota.nome}`}>
            Excluir
          </Botao>
        )}
      </div>
    </li>
  );
}
