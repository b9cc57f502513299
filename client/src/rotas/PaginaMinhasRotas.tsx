/**
 * 'Minhas Rotas' (employee, spec section 2): 'Rotas Ativas' with 'Finalizar Rota', 'Rotas
 * Finalizadas', and the route's cities. Opens offline from the device's copy; finishing goes to the
 * outbox, shows at once, and reaches the server in order when there is a connection.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { CalendarDays, CheckCircle2, CloudOff, Flag, MapPin, Wallet } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from '../components/avisos';
import { formatarData, formatarDataHora } from '../../../shared/dates';
import { ErroOffline } from '../api/client';
import { Botao } from '../components/Botao';
import { Carregando } from '../components/Carregando';
import { Confirmacao } from '../components/Confirmacao';
import { Selo } from '../components/Selo';
import { fusoDoApp } from '../config/configApp';
import { motorSync } from '../offline';
import { bancoLocal } from '../offline/db';
import { itensDoUsuario } from '../offline/outbox';
import { chavesRotas, guardarResultados, useListasDoFuncionario } from './consultas';
import { mesclarMinhasRotas, type RotaExibida } from './minhasRotas';
import { ModalCidadesRota } from './ModalCidadesRota';
import { ModalResultadoRota } from './ModalResultadoRota';
import { enfileirarFinalizacao, finalizacoesConfirmadas, finalizacoesNaFila } from './operacoes';
import { DadoDoCartao } from './DadoDoCartao';

export const CONFIRMACAO_FINALIZAR = 'Tem certeza que deseja finalizar esta rota? Essa ação não pode ser desfeita.';

export function PaginaMinhasRotas({ usuarioId }: { usuarioId: number }) {
  const consulta = useListasDoFuncionario(usuarioId);
  const queryClient = useQueryClient();
  const fila = useLiveQuery(() => itensDoUsuario(bancoLocal, usuarioId).then(finalizacoesNaFila), [usuarioId]);
  const confirmadas = useLiveQuery(
    () => bancoLocal.sincronizados.where('usuarioId').equals(usuarioId).toArray().then(finalizacoesConfirmadas),
    [usuarioId],
  );
  const [finalizando, setFinalizando] = useState<RotaExibida | null>(null);
  const [vendoCidades, setVendoCidades] = useState<RotaExibida | null>(null);
  const [vendoResultado, setVendoResultado] = useState<RotaExibida | null>(null);
  const fuso = fusoDoApp();

  // When a queued finishing leaves the outbox, the server has news: read the lists again.
  const naFilaAntes = useRef<number | null>(null);
  const quantosNaFila = fila?.length ?? null;
  useEffect(() => {
    if (quantosNaFila === null) return;
    if (naFilaAntes.current !== null && quantosNaFila < naFilaAntes.current) {
      void queryClient.invalidateQueries({ queryKey: chavesRotas.minhas(usuarioId) });
    }
    naFilaAntes.current = quantosNaFila;
  }, [quantosNaFila, queryClient, usuarioId]);

  const erro = consulta.error;
  useEffect(() => {
    // Spec section 8: a list that fails to load is logged; the lists show empty.
    if (erro && !(erro instanceof ErroOffline)) console.error('Erro ao carregar rotas:', erro);
  }, [erro]);

  // Lists read from the server: keep the recent finished routes' results on the device (offline).
  const finalizadasDoServidor = consulta.data && !consulta.data.doAparelhoEm ? consulta.data.finalizadas : null;
  useEffect(() => {
    if (finalizadasDoServidor?.length) void guardarResultados(usuarioId, finalizadasDoServidor);
  }, [finalizadasDoServidor, usuarioId]);

  const listas = useMemo(
    () =>
      mesclarMinhasRotas(
        { ativas: consulta.data?.ativas ?? [], finalizadas: consulta.data?.finalizadas ?? [] },
        fila ?? [],
        confirmadas ?? new Set(),
      ),
    [consulta.data, fila, confirmadas],
  );

  async function finalizar(rota: RotaExibida) {
    setFinalizando(null);
    let itemId: string;
    try {
      itemId = (await enfileirarFinalizacao(bancoLocal, rota, usuarioId)).id;
    } catch (e) {
      console.error('Erro ao finalizar rota:', e);
      toast.error('Erro ao finalizar rota');
      return;
    }
    await motorSync.sincronizarAgora();
    const item = await bancoLocal.outbox.where('id').equals(itemId).first();
    if (!item) {
      toast.success('Rota finalizada com sucesso!');
      // The route's result, at once: what the person earned and what is left to return.
      const { envio: _envio, erroEnvio: _erro, ...semEnvio } = rota;
      setVendoResultado({ ...semEnvio, status: 'finalizada' });
      return;
    }
    if (item.estado === 'erro') toast.error(item.erro || 'Erro ao finalizar rota');
    // Kept because the server ended the session (with signal): it leaves when the person signs in again.
    else if (motorSync.estado().pausadoPorSessao) toast.info('A finalização ficou guardada neste aparelho e será enviada quando você entrar de novo.');
    else if (!navigator.onLine || !motorSync.estado().online) toast.info('Sem conexão: a finalização ficou guardada neste aparelho e será enviada quando a internet voltar.');
    else toast.info('A finalização ficou guardada neste aparelho e será enviada depois dos registros que ainda aguardam envio.');
  }

  if (consulta.isLoading || fila === undefined) return <Carregando texto="Carregando suas rotas..." />;

  const semDados = erro instanceof ErroOffline;
  return (
    <div>
      <div className="pagina__topo">
        <div>
          <h1>Minhas Rotas</h1>
          <p className="pagina__descricao">Suas rotas ativas e finalizadas.</p>
        </div>
      </div>

      {consulta.data?.doAparelhoEm && (
        <div className="alerta alerta--info aviso-cache" role="status">
          <CloudOff size={16} aria-hidden="true" /> Sem conexão: mostrando as rotas salvas neste aparelho em {formatarDataHora(consulta.data.doAparelhoEm, fuso)}.
        </div>
      )}

      {semDados ? (
        <div className="alerta alerta--aviso" role="status">
          Sem conexão e nenhuma cópia das suas rotas neste aparelho. Conecte-se à internet uma vez para que elas fiquem disponíveis offline.
        </div>
      ) : (
        <>
          <section className="secao-rotas" aria-labelledby="titulo-ativas">
            <h2 id="titulo-ativas" className="secao-rotas__titulo">
              Rotas Ativas
            </h2>
            {listas.ativas.length === 0 ? (
              <p className="cartao vazio-rotas">Nenhuma rota ativa no momento</p>
            ) : (
              <ul className="grade-rotas" aria-label="Rotas ativas">
                {listas.ativas.map((rota) => (
                  <CartaoMinhaRota key={rota.id} rota={rota} aoVerCidades={() => setVendoCidades(rota)} aoFinalizar={() => setFinalizando(rota)} />
                ))}
              </ul>
            )}
          </section>

          <section className="secao-rotas" aria-labelledby="titulo-finalizadas">
            <h2 id="titulo-finalizadas" className="secao-rotas__titulo">
              Rotas Finalizadas
            </h2>
            {listas.finalizadas.length === 0 ? (
              <p className="cartao vazio-rotas">Nenhuma rota finalizada</p>
            ) : (
              <ul className="grade-rotas" aria-label="Rotas finalizadas">
                {listas.finalizadas.map((rota) => (
                  <CartaoMinhaRota key={rota.id} rota={rota} aoVerCidades={() => setVendoCidades(rota)} aoVerResultado={() => setVendoResultado(rota)} />
                ))}
              </ul>
            )}
          </section>
        </>
      )}

      <ModalCidadesRota rota={vendoCidades} aoFechar={() => setVendoCidades(null)} />
      <ModalResultadoRota usuarioId={usuarioId} rota={vendoResultado} aoFechar={() => setVendoResultado(null)} />
      <Confirmacao
        aberto={finalizando !== null}
        titulo="Finalizar Rota"
        mensagem={CONFIRMACAO_FINALIZAR}
        textoConfirmar="Finalizar"
        textoCancelar="Voltar"
        varianteConfirmar="danger"
        aoConfirmar={() => finalizando && void finalizar(finalizando)}
        aoCancelar={() => setFinalizando(null)}
      />
    </div>
  );
}

function CartaoMinhaRota({
  rota,
  aoVerCidades,
  aoFinalizar,
  aoVerResultado,
}: {
  rota: RotaExibida;
  aoVerCidades: () => void;
  aoFinalizar?: () => void;
  aoVerResultado?: () => void;
}) {
  const fuso = fusoDoApp();
  const ativa = rota.status === 'ativa';
  return (
    <li className="cartao cartao-rota" aria-label={rota.nome}>
      <div className="cartao-rota__topo">
        <h3 className="cartao-rota__nome">{rota.nome}</h3>
        {rota.envio === 'pendente' ? (
          <Selo cor="amarelo">Aguardando envio</Selo>
        ) : rota.envio === 'erro' ? (
          <Selo cor="vermelho">Finalização recusada</Selo>
        ) : (
          <Selo cor={ativa ? 'verde' : 'cinza'}>{ativa ? 'Ativa' : 'Finalizada'}</Selo>
        )}
      </div>
      <dl className="cartao-rota__dados">
        <DadoDoCartao icone={CalendarDays} rotulo="Período">
          {formatarData(rota.data_inicio)} a {formatarData(rota.data_fim)}
        </DadoDoCartao>
        <DadoDoCartao icone={MapPin} rotulo="Cidades">
          {rota.cidades.length}
        </DadoDoCartao>
        {!ativa && rota.finalizada_em && (
          <DadoDoCartao icone={CheckCircle2} rotulo="Finalizada em">
            {formatarDataHora(rota.finalizada_em, fuso)}
          </DadoDoCartao>
        )}
      </dl>
      {rota.envio === 'pendente' && <p className="campo__ajuda cartao-rota__nota">Finalizada neste aparelho. Será enviada ao servidor assim que houver conexão.</p>}
      {rota.envio === 'erro' && (
        <p className="campo__erro cartao-rota__nota">
          {rota.erroEnvio ?? 'O servidor recusou a finalização.'} Abra a sincronização para tentar novamente ou descartar.
        </p>
      )}
      <div className="cartao-rota__acoes cartao-rota__acoes--pilha">
        <Botao tamanho="sm" variante="outline" icone={<MapPin size={15} />} onClick={aoVerCidades} aria-label={`Cidades da rota ${rota.nome}`}>
          Cidades da Rota
        </Botao>
        {aoVerResultado && (
          <Botao tamanho="sm" variante="primary" icone={<Wallet size={15} />} onClick={aoVerResultado} aria-label={`Ver resultado da rota ${rota.nome}`}>
            Ver resultado
          </Botao>
        )}
        {aoFinalizar && rota.envio !== 'erro' && (
          <Botao tamanho="sm" variante="orange" icone={<Flag size={15} />} onClick={aoFinalizar} aria-label={`Finalizar Rota ${rota.nome}`}>
            Finalizar Rota
          </Botao>
        )}
      </div>
    </li>
  );
}
