/**
 * 'Registro Diário de Vendas' (spec section 2, employee view): the day's closing of each city of the
 * employee's active route. Works offline: the data comes from the device cache when there is no
 * signal, and every save goes to the outbox and shows at once.
 */
import { Search, WifiOff } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useBlocker } from 'react-router-dom';
import { TextoComAcao, toast, type AcaoDoAviso } from '../components/avisos';
import { v7 as uuidv7 } from 'uuid';
import { formatarData, formatarDataHora } from '../../../shared/dates';
import type { Usuario } from '../../../shared/schemas/usuarios';
import { ehPrevia, useCopiaDoAparelhoPrimeiro } from '../app/copiaPrimeiro';
import { Abas } from '../components/Abas';
import { Botao } from '../components/Botao';
import { Carregando } from '../components/Carregando';
import { Confirmacao } from '../components/Confirmacao';
import { useLarguraMaxima } from '../components/useLarguraMaxima';
import { useOnline } from '../components/useOnline';
import { inicioDaRota } from '../../../shared/periodoRota';
import { fusoDoApp, hojeNoApp } from '../config/configApp';
import { motorSync, useEstadoSync } from '../offline';
import { dadosDaCarga } from '../offline/cache';
import { bancoLocal } from '../offline/db';
import { itensDoUsuario } from '../offline/outbox';
import { chavesCacheRotas, chavesRotas, rotaAtivaDaLista, useRotaAtivaDoFuncionario } from '../rotas/consultas';
import { CartaoCidade } from './CartaoCidade';
import { chavesCache, chavesVendas, useDiaDaRota, useHistoricoDaRota } from './consultas';
import {
  buscarCidades,
  CARTOES_POR_PAGINA,
  CARTOES_POR_PAGINA_CELULAR,
  cidadesDaAba,
  montarDia,
  paginar,
  type AbaCidades,
  type CidadeDoDia,
} from './estadoCidades';
import { chaveDoDia, OPERACAO_REGISTRAR_VISITA, type DadosVisitaFila } from './fila';
import { camposDe, carregarLeitorDoFormulario, oQueEnviar, type CamposVenda } from './formulario';
import { desfazerVisita, enfileirarVenda, enfileirarVisita } from './operacoes';
import { apagarRascunhoVendas, lerRascunhoVendas, salvarRascunhoVendas } from './rascunho';
import { useFilaDeVendas } from './useFilaDeVendas';
import { contadorDasCopias } from '../offline/escritas';

export const MENSAGEM_SUCESSO = 'Fechamento realizado com sucesso!';
/** Saved with no signal: kept on the phone, not yet at the server. */
export const MENSAGEM_GUARDADO = 'Fechamento guardado neste aparelho; será enviado quando houver sinal.';
export const mensagemVisita = (cidade: string) => `Visita registrada: ${cidade} ficou como visitada (sem venda).`;
export const MENSAGEM_VISITA_GUARDADA = 'Visita guardada neste aparelho; será enviada quando houver sinal.';
export const mensagemVisitaDesfeita = (cidade: string) => `Visita desfeita: ${cidade} voltou a ficar em aberto.`;
/** How long the visit's toast offers 'Desfazer' (a few seconds: enough to notice a wrong tap). */
export const DESFAZER_VISITA_MS = 6000;
/** Kept because the server ended the session (there was signal): it leaves at the next sign-in. */
export const MENSAGEM_GUARDADO_SEM_SESSAO = 'Fechamento guardado neste aparelho; será enviado quando você entrar de novo.';
export const MENSAGEM_VISITA_GUARDADA_SEM_SESSAO = 'Visita guardada neste aparelho; será enviada quando você entrar de novo.';

interface TextosDoAviso {
  /** The server has it (or is about to: the phone has signal). */
  enviado: string;
  /** Only on this phone until there is signal. */
  guardado: string;
  /** Only on this phone until the person signs in again (the server ended the session). */
  guardadoSemSessao: string;
}

const semSinal = () => !navigator.onLine || !motorSync.estado().online;

/**
 * One confirmation at a time: closing city after city must not bury the phone's screen in toasts.
 * It says at once what is known (no signal: kept on this phone), then, once the sync pass has
 * answered, what happened: still waiting in the queue (no answer from the server, whatever the
 * browser says about the connection) or received.
 */
let ultimoAviso: string | number | null = null;
async function avisarESincronizar(itemId: string, textos: TextosDoAviso, acao?: AcaoDoAviso) {
  if (ultimoAviso !== null) toast.dismiss(ultimoAviso);
  let guardado = semSinal();
  // Still queued after an answer: because the server ended the session (there was signal) or for want of signal.
  const texto = () => (guardado ? (motorSync.estado().pausadoPorSessao ? textos.guardadoSemSessao : textos.guardado) : textos.enviado);
  const tipo = () => (guardado ? 'info' : 'success');
  const aviso = (ultimoAviso = acao ? toast.comAcao(texto(), tipo(), acao, DESFAZER_VISITA_MS) : guardado ? toast.info(texto()) : toast.success(texto()));
  await motorSync.sincronizarAgora();
  const item = await bancoLocal.outbox.where('id').equals(itemId).first();
  // Refused: it stays queued, marked on its card; the notice says why, never that it was received.
  if (item?.estado === 'erro') {
    if (toast.isActive(aviso)) toast.update(aviso, item.erro ?? textos.guardado, 'error');
    return;
  }
  const aindaNaFila = item?.estado === 'pendente';
  if (aindaNaFila === guardado || !toast.isActive(aviso)) return;
  guardado = aindaNaFila;
  toast.update(aviso, acao ? <TextoComAcao texto={texto()} acao={acao} /> : texto(), tipo());
}
/** The active route kept on the device is the list the server answered (rotas/consultas.ts). */

export const VAZIO_FECHADAS = 'No momento não há cidades com fechamento ou visitadas.';

export function VendasFuncionario({ usuario, pedido = null }: { usuario: Usuario; pedido?: { data: string; cidadeId: number | null } | null }) {
  const fuso = fusoDoApp();
  const hoje = hojeNoApp();
  const [data, setData] = useState(pedido?.data ?? hoje);
  const [busca, setBusca] = useState('');
  const [aba, setAba] = useState<AbaCidades>('abertas');
  const [pagina, setPagina] = useState(1);
  const [expandidas, setExpandidas] = useState<ReadonlySet<number>>(new Set());
  const [edicoes, setEdicoes] = useState<Record<number, CamposVenda>>({});
  const [erros, setErros] = useState<Record<number, Record<string, string>>>({});
  const [dataPendente, setDataPendente] = useState<string | null>(null);
  const pequena = useLarguraMaxima(600);
  const queryClient = useQueryClient();
  const online = useOnline();
  const { ultimaSincronizacao } = useEstadoSync();
  /** Cities whose visit is being stored: a second tap meanwhile does nothing. */
  const marcando = useRef(new Set<string>());
  /**
   * Cities marked visited from this list: they stay where they were, with the badge, until the tab
   * or the date changes. A card leaving the list moved the next one's button under the
   * finger, and the second tap of a double tap marked that city too.
   */
  const [mantidasNoLugar, setMantidasNoLugar] = useState<ReadonlySet<number>>(new Set());

  const rotaQ = useRotaAtivaDoFuncionario(usuario.id);
  const rota = dadosDaCarga(rotaQ.data) ?? null;
  const diaQ = useDiaDaRota(usuario.id, rota?.id ?? null, data);
  const historicoQ = useHistoricoDaRota(usuario.id, rota?.id ?? null);
  // The device's copies on screen at once, the server's answers replacing them as they come.
  useCopiaDoAparelhoPrimeiro(chavesRotas.ativaDoFuncionario(usuario.id), chavesCacheRotas.ativas(usuario.id), usuario.id, rotaAtivaDaLista);
  useCopiaDoAparelhoPrimeiro(chavesVendas.dia(usuario.id, rota?.id ?? 0, data), rota ? chavesCache.dia(rota.id, data) : null, usuario.id);
  useCopiaDoAparelhoPrimeiro(chavesVendas.historico(usuario.id, rota?.id ?? 0), rota ? chavesCache.historico(rota.id) : null, usuario.id);
  const fila = useFilaDeVendas(usuario.id, contadorDasCopias(diaQ.data, historicoQ.data));

  const dia = dadosDaCarga(diaQ.data) ?? null;
  const historico = dadosDaCarga(historicoQ.data);
  const cidades = useMemo<CidadeDoDia[]>(() => {
    if (!rota) return [];
    const lista = dia?.status.map((s) => ({ cidade_id: s.cidade_id, cidade_nome: s.cidade_nome, uf: s.uf })) ??
      rota.cidades.map((c) => ({ cidade_id: c.id, cidade_nome: c.nome, uf: c.uf }));
    return montarDia({ rotaId: rota.id, data, cidades: lista, status: dia?.status ?? null, vendas: dia?.vendas ?? [], historico: historico ?? [] }, fila.itens, fila.visitasRecebidas);
  }, [rota, dia, historico, data, fila.itens, fila.visitasRecebidas]);

  // A piece read from the device's copy (no signal) is read from the server again as soon as the
  // connection is back and after each sync pass: answers stay fresh for 30 s, so without this the
  // screen kept 'Sem conexão…' after the signal returned and the queue was sent.
  // A preview (the copy shown while the request is on its way) is not: that request is the refresh.
  const doAparelho = [rotaQ.data, diaQ.data, historicoQ.data].some((c) => c !== undefined && !ehPrevia(c) && ('semDados' in c || c.origem === 'cache'));
  useEffect(() => {
    if (!online || !doAparelho) return;
    void queryClient.invalidateQueries({ queryKey: chavesRotas.ativaDoFuncionario(usuario.id) });
    void queryClient.invalidateQueries({ queryKey: chavesVendas.funcionario(usuario.id) });
  }, [online, ultimaSincronizacao, doAparelho, queryClient, usuario.id]);

  const editando = Object.keys(edicoes).length > 0;

  // Drafts: what is being typed survives the page being unloaded (Android, another app opened).
  // The draft of this route and date is read once before anything is written back.
  const rotaId = rota?.id ?? null;
  const [rascunhoLido, setRascunhoLido] = useState<string | null>(null);
  const chaveRascunho = rotaId === null ? null : `${rotaId}:${data}`;
  useEffect(() => {
    if (rotaId === null) return;
    let cancelado = false;
    void lerRascunhoVendas(usuario.id, rotaId, data).then((rascunho) => {
      if (cancelado) return;
      if (rascunho) setEdicoes((atual) => (Object.keys(atual).length > 0 ? atual : rascunho));
      setRascunhoLido(`${rotaId}:${data}`);
    });
    return () => {
      cancelado = true;
    };
  }, [usuario.id, rotaId, data]);
  useEffect(() => {
    if (rotaId === null || rascunhoLido !== chaveRascunho) return;
    if (editando) void salvarRascunhoVendas(usuario.id, rotaId, data, edicoes);
    else void apagarRascunhoVendas(usuario.id, rotaId, data);
  }, [usuario.id, rotaId, data, edicoes, editando, rascunhoLido, chaveRascunho]);

  // The sync panel's 'Editar' of a refused closing: once that day's cities and the queue are here, open the
  // city. Not before the queue is read: the copy can arrive first, and the form would open without the
  // refused values to correct.
  const [pedidoPendente, setPedidoPendente] = useState(pedido?.cidadeId ? pedido.cidadeId : null);
  const cidadePedida = pedidoPendente !== null && dia && fila.carregada ? cidades.find((c) => c.cidade_id === pedidoPendente) : undefined;
  if (cidadePedida) {
    setPedidoPendente(null);
    setEdicoes((atual) => (atual[cidadePedida.cidade_id] ? atual : { ...atual, [cidadePedida.cidade_id]: camposDe(cidadePedida.venda) }));
    setAba(cidadePedida.venda || cidadePedida.visitada ? 'fechadas' : 'abertas');
  }

  // The browser's own warning before leaving (reload, closing the tab) with an edit open.
  useEffect(() => {
    if (!editando) return;
    const avisar = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', avisar);
    return () => window.removeEventListener('beforeunload', avisar);
  }, [editando]);
  // And the same question when leaving for another screen of the app.
  const bloqueio = useBlocker(({ currentLocation, nextLocation }) => editando && currentLocation.pathname !== nextLocation.pathname);

  const porPagina = pequena ? CARTOES_POR_PAGINA_CELULAR : CARTOES_POR_PAGINA;
  const daAba = buscarCidades(aba === 'abertas' ? cidades.filter((c) => !c.fechada || mantidasNoLugar.has(c.cidade_id)) : cidadesDaAba(cidades, aba), busca);
  const paginaAtual = paginar(daAba, pagina, porPagina);
  const abertas = cidadesDaAba(cidades, 'abertas').length;
  const fechadas = cidadesDaAba(cidades, 'fechadas').length;

  function trocarData(nova: string) {
    if (!nova || nova === data) return;
    if (editando) setDataPendente(nova);
    else aplicarData(nova);
  }

  /**
   * 'Descartar' in the question: what was typed is dropped, the draft kept on the device too
   * (otherwise coming back to the screen or the date reopened the form with the typed values).
   */
  function descartarEdicoes() {
    if (rotaId !== null) void apagarRascunhoVendas(usuario.id, rotaId, data);
    setEdicoes({});
    setErros({});
  }

  function aplicarData(nova: string) {
    setData(nova);
    setMantidasNoLugar(new Set());
    setEdicoes({});
    setErros({});
    setPagina(1);
    setDataPendente(null);
  }

  function alternarEdicao(cidade: CidadeDoDia) {
    void carregarLeitorDoFormulario().catch(() => undefined); // ready by the time Salvar is tapped
    setEdicoes((atual) => {
      const proximo = { ...atual };
      if (proximo[cidade.cidade_id]) delete proximo[cidade.cidade_id];
      else proximo[cidade.cidade_id] = camposDe(cidade.venda);
      return proximo;
    });
    setErros((atual) => ({ ...atual, [cidade.cidade_id]: {} }));
  }

  function alternarDetalhes(cidadeId: number) {
    setExpandidas((atual) => {
      const proximo = new Set(atual);
      if (!proximo.delete(cidadeId)) proximo.add(cidadeId);
      return proximo;
    });
  }

  function mudarCampo(cidadeId: number, campo: keyof CamposVenda, valor: string) {
    setEdicoes((atual) => (atual[cidadeId] ? { ...atual, [cidadeId]: { ...atual[cidadeId], [campo]: valor } } : atual));
    setErros((atual) => {
      const daCidade = atual[cidadeId];
      if (!daCidade?.[campo]) return atual;
      const resto = { ...daCidade };
      delete resto[campo];
      return { ...atual, [cidadeId]: resto };
    });
  }

  /** False when a field was refused: the card then brings the first refused field into view. */
  async function salvar(cidade: CidadeDoDia): Promise<boolean> {
    if (!rota) return true;
    const campos = edicoes[cidade.cidade_id];
    if (!campos) return true;
    if (data > hojeNoApp()) {
      toast.error('A data da venda não pode estar no futuro.');
      return true;
    }
    const leitor = await carregarLeitorDoFormulario().catch((erro: unknown) => {
      console.error('Erro ao carregar a validação do fechamento:', erro);
      return null;
    });
    if (!leitor) {
      toast.error('Não foi possível guardar o fechamento neste aparelho. Tente de novo.');
      return true;
    }
    const lido = leitor.lerCampos(campos);
    if (!lido.ok) {
      setErros((atual) => ({ ...atual, [cidade.cidade_id]: lido.erros }));
      return false;
    }
    const comum = { rota_id: rota.id, cidade_id: cidade.cidade_id, registrado_em: new Date().toISOString(), cidade_nome: cidade.cidade_nome, cidade_uf: cidade.uf };
    let itemId: string | null = null;
    try {
      if (oQueEnviar(lido.valores, cidade.venda !== null) === 'venda') {
        // The city's closing keeps its id: an edit converges on the same record.
        // The version it was based on: an edit of a copy another device changed since is a conflict, not a silent overwrite.
        itemId = (await enfileirarVenda(bancoLocal, usuario.id, { ...comum, ...lido.valores, id: cidade.venda?.id ?? uuidv7(), data_venda: data, versao_base: cidade.venda?.versao ?? null })).id;
      } else if (!cidade.visitada) {
        itemId = (await enfileirarVisita(bancoLocal, usuario.id, { ...comum, id: uuidv7(), data })).id;
      }
    } catch (erro) {
      console.error('Erro ao guardar o fechamento:', erro);
      toast.error('Não foi possível guardar o fechamento neste aparelho. Tente de novo.');
      return true;
    }
    setEdicoes((atual) => {
      const proximo = { ...atual };
      delete proximo[cidade.cidade_id];
      return proximo;
    });
    if (itemId === null) {
      // Nothing new to send (an already visited city saved blank): the day is as it was.
      if (ultimoAviso !== null) toast.dismiss(ultimoAviso);
      ultimoAviso = toast.success(MENSAGEM_SUCESSO);
      return true;
    }
    await avisarESincronizar(itemId, { enviado: MENSAGEM_SUCESSO, guardado: MENSAGEM_GUARDADO, guardadoSemSessao: MENSAGEM_GUARDADO_SEM_SESSAO });
    return true;
  }

  /** 'Marcar como visitada' straight from an open city's card: no form to fill and save blank. */
  async function marcarVisitada(cidade: CidadeDoDia) {
    if (!rota || cidade.fechada) return;
    if (data > hojeNoApp()) {
      toast.error('A data da visita não pode estar no futuro.');
      return;
    }
    // A double tap, or a tap before the card showed its badge, queues the visit once.
    const chave = chaveDoDia(rota.id, cidade.cidade_id, data);
    if (marcando.current.has(chave)) return;
    marcando.current.add(chave);
    let itemId: string;
    const dados: DadosVisitaFila = {
      id: uuidv7(),
      rota_id: rota.id,
      cidade_id: cidade.cidade_id,
      data,
      registrado_em: new Date().toISOString(),
      cidade_nome: cidade.cidade_nome,
      cidade_uf: cidade.uf,
    };
    try {
      // The day's last queued write decides: a visit already waiting (not one undone since) is enough.
      const doDia = (await itensDoUsuario(bancoLocal, usuario.id)).filter((i) => i.estado === 'pendente' && i.chaves.includes(chave));
      if (doDia.at(-1)?.tipo === OPERACAO_REGISTRAR_VISITA) return;
      itemId = (await enfileirarVisita(bancoLocal, usuario.id, dados)).id;
      setMantidasNoLugar((atual) => new Set(atual).add(cidade.cidade_id));
    } catch (erro) {
      console.error('Erro ao guardar a visita:', erro);
      toast.error('Não foi possível guardar a visita neste aparelho. Tente de novo.');
      return;
    } finally {
      marcando.current.delete(chave);
    }
    let desfeita = false;
    const desfazer = () => {
      if (desfeita) return;
      desfeita = true;
      if (ultimoAviso !== null) toast.dismiss(ultimoAviso);
      void desfazerVisitaMarcada(itemId, dados);
    };
    await avisarESincronizar(itemId, { enviado: mensagemVisita(cidade.cidade_nome), guardado: MENSAGEM_VISITA_GUARDADA, guardadoSemSessao: MENSAGEM_VISITA_GUARDADA_SEM_SESSAO }, { rotulo: 'Desfazer', aoClicar: desfazer });
  }

  /** The toast's 'Desfazer': the visit leaves the queue, or its removal follows it to the server. */
  async function desfazerVisitaMarcada(itemId: string, dados: DadosVisitaFila) {
    try {
      const como = await desfazerVisita(bancoLocal, usuario.id, { itemId, dados });
      ultimoAviso = toast.info(mensagemVisitaDesfeita(dados.cidade_nome ?? 'a cidade'));
      if (como === 'remocao_na_fila') void motorSync.sincronizarAgora();
    } catch (erro) {
      console.error('Erro ao desfazer a visita:', erro);
      toast.error('Não foi possível desfazer a visita neste aparelho. Tente de novo.');
    }
  }

  if (rotaQ.isPending) return <Carregando texto="Carregando" />;

  const semConexaoNuncaAberta = rotaQ.data && 'semDados' in rotaQ.data;
  const cabecalho = (
    <div className="pagina__topo">
      <div>
        <h1>Registro Diário de Vendas</h1>
        {rota && (
          <p className="pagina__descricao">
            {rota.nome} · {rota.cidades.length} {rota.cidades.length === 1 ? 'cidade' : 'cidades'}
          </p>
        )}
      </div>
    </div>
  );

  if (semConexaoNuncaAberta) {
    return (
      <div>
        {cabecalho}
        <div className="alerta alerta--aviso" role="status">
          Sem conexão. Abra esta tela uma vez com internet para poder usá-la offline neste aparelho.
        </div>
      </div>
    );
  }
  if (!rota) {
    return (
      <div>
        {cabecalho}
        <div className="cartao vazio-vendas">Nenhuma rota ativa no momento.</div>
      </div>
    );
  }

  const doCache = [rotaQ.data, diaQ.data, historicoQ.data].find((c) => c && 'origem' in c && c.origem === 'cache');
  const diaIndisponivel = diaQ.data && 'semDados' in diaQ.data;

  return (
    <div className="vendas-funcionario">
      {cabecalho}

      <div className="vendas-barra">
        <label className="vendas-barra__data">
          <span className="campo__rotulo">Data</span>
          {/* From the route's first day (shared/periodoRota.ts): the server refuses a sale dated earlier. */}
          <input
            className="entrada"
            type="date"
            value={data}
            min={inicioDaRota({ dataInicio: rota.data_inicio, criadoEm: rota.criado_em }, fuso)}
            max={hoje}
            onChange={(e) => trocarData(e.target.value)}
          />
        </label>
        <div className="entrada-com-icone vendas-barra__busca">
          <Search size={18} aria-hidden="true" />
          <input
            className="entrada"
            type="search"
            placeholder="Buscar cidade..."
            aria-label="Buscar cidade..."
            value={busca}
            onChange={(e) => {
              setBusca(e.target.value);
              setPagina(1);
            }}
          />
        </div>
      </div>

      {diaIndisponivel ? (
        <div className="alerta alerta--aviso" role="status">
          <WifiOff size={16} aria-hidden="true" /> Sem conexão e sem dados de {formatarData(data)} neste aparelho: as cidades aparecem em aberto e o que foi
          registrado em outro aparelho não aparece. Os fechamentos feitos aqui são guardados e enviados quando a internet voltar.
        </div>
      ) : (
        doCache &&
        'origem' in doCache &&
        (ehPrevia(doCache) ? (
          <p className="vendas-offline vendas-offline--atualizando" role="status">
            Dados guardados neste aparelho em {formatarDataHora(doCache.atualizadoEm, fuso)}; atualizando...
          </p>
        ) : (
          <p className="vendas-offline" role="status">
            <WifiOff size={15} aria-hidden="true" /> Sem conexão: dados guardados neste aparelho em {formatarDataHora(doCache.atualizadoEm, fuso)}.
          </p>
        ))
      )}

      <Abas
        rotulo="Situação das cidades"
        atual={aba}
        aoMudar={(a) => {
          setAba(a);
          setPagina(1);
          setMantidasNoLugar(new Set());
        }}
        abas={[
          { valor: 'abertas', rotulo: `Em aberto (${abertas})` },
          { valor: 'fechadas', rotulo: `Fechadas (${fechadas})` },
        ]}
      />

      {diaQ.isPending ? (
        <Carregando />
      ) : paginaAtual.itens.length === 0 ? (
        <div className="cartao vazio-vendas">
          {busca.trim()
            ? `Nenhuma cidade encontrada para "${busca.trim()}".`
            : aba === 'fechadas'
              ? VAZIO_FECHADAS
              : 'Todas as cidades desta data já foram fechadas ou visitadas.'}
        </div>
      ) : (
        <ul className="grade-cidades" aria-label={aba === 'abertas' ? 'Cidades em aberto' : 'Cidades fechadas'}>
          {paginaAtual.itens.map((cidade) => (
            <CartaoCidade
              key={cidade.cidade_id}
              cidade={cidade}
              fuso={fuso}
              expandida={expandidas.has(cidade.cidade_id)}
              edicao={edicoes[cidade.cidade_id]}
              erros={erros[cidade.cidade_id]}
              historicoIndisponivel={historicoQ.data !== undefined && 'semDados' in historicoQ.data}
              aoAlternarEdicao={() => alternarEdicao(cidade)}
              aoAlternarDetalhes={() => alternarDetalhes(cidade.cidade_id)}
              aoMudarCampo={(campo, valor) => mudarCampo(cidade.cidade_id, campo, valor)}
              aoSalvar={() => salvar(cidade)}
              aoMarcarVisitada={() => void marcarVisitada(cidade)}
            />
          ))}
        </ul>
      )}

      {paginaAtual.totalPaginas > 1 && (
        <nav className="paginacao vendas-paginacao" aria-label="Paginação das cidades">
          <Botao variante="outline" onClick={() => setPagina(paginaAtual.pagina - 1)} disabled={paginaAtual.pagina <= 1}>
            Anterior
          </Botao>
          <span>
            Página {paginaAtual.pagina} de {paginaAtual.totalPaginas}
          </span>
          <Botao variante="outline" onClick={() => setPagina(paginaAtual.pagina + 1)} disabled={paginaAtual.pagina >= paginaAtual.totalPaginas}>
            Próxima
          </Botao>
        </nav>
      )}

      <Confirmacao
        aberto={dataPendente !== null || bloqueio.state === 'blocked'}
        titulo="Fechamento em edição"
        mensagem="Há um fechamento em edição que ainda não foi salvo. Deseja sair e descartar o que foi digitado?"
        textoConfirmar="Descartar"
        textoCancelar="Continuar editando"
        varianteConfirmar="danger"
        aoCancelar={() => {
          setDataPendente(null);
          if (bloqueio.state === 'blocked') bloqueio.reset();
        }}
        aoConfirmar={() => {
          descartarEdicoes();
          if (dataPendente) aplicarData(dataPendente);
          if (bloqueio.state === 'blocked') bloqueio.proceed();
        }}
      />
    </div>
  );
}
