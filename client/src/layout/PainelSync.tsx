/**
 * 'Sincronização': what waits on this device, what the server refused (with its reason, to retry or
 * discard), and what the server received and when.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { formatarDataHora, formatarHora } from '../../../shared/dates';
import { useAuth } from '../auth/AuthProvider';
import { Botao } from '../components/Botao';
import { Carregando } from '../components/Carregando';
import { Confirmacao } from '../components/Confirmacao';
import { Modal } from '../components/Modal';
import { Selo } from '../components/Selo';
import { fusoDoApp } from '../config/configApp';
import { useNavigate } from 'react-router-dom';
import { motorSync, operacoes, useEstadoSync } from '../offline';
import { bancoLocal, type ItemOutbox } from '../offline/db';
import { descartarItem, itensDoUsuario, manterDesteAparelho, tentarNovamente } from '../offline/outbox';
import type { ConflitoDeVersao } from '../../../shared/api/errors';
import { diferencasDoConflito, MENSAGEM_CONFLITO_DE_VERSAO } from '../../../shared/sync/diferencasDoConflito';
import { formatarBytes, lerUsoArmazenamento, type UsoArmazenamento } from '../pwa/armazenamento';
import { AvisoVersaoAntiga } from './AvisoVersaoAntiga';
import { ExportarPendencias } from './ExportarPendencias';
import { textoProgresso } from './IndicadorSync';
import { contagem } from '../../../shared/texto';
import { MENSAGEM_CHEGOU_DEPOIS } from '../../../shared/sync/operacoes';

export function PainelSync({ aberto, aoFechar, usuarioId }: { aberto: boolean; aoFechar: () => void; usuarioId: number }) {
  const { usuario } = useAuth();
  const estado = useEstadoSync();
  // Undefined until IndexedDB answers: the panel opens on a spinner, never on a false 'Nada aguardando'.
  const itensLidos = useLiveQuery(() => itensDoUsuario(bancoLocal, usuarioId), [usuarioId]);
  const itens = itensLidos ?? [];
  const recebidos =
    useLiveQuery(
      () => bancoLocal.sincronizados.where('usuarioId').equals(usuarioId).reverse().sortBy('recebidoEm').then((l) => l.slice(0, 20)),
      [usuarioId],
    ) ?? [];
  const [descartando, setDescartando] = useState<ItemOutbox | null>(null);
  const navegar = useNavigate();
  /** Where the person fixes a refused item, when its kind of write has a screen for it. */
  const ondeEditar = (item: ItemOutbox) => operacoes[item.tipo]?.editarEm?.(item.dados) ?? null;
  const [uso, setUso] = useState<UsoArmazenamento | null>(null);
  useEffect(() => {
    if (aberto) void lerUsoArmazenamento().then(setUso);
  }, [aberto, itens.length]);
  const fuso = fusoDoApp();
  const recusados = itens.filter((i) => i.estado === 'erro');
  const aguardando = itens.filter((i) => i.estado !== 'erro');

  return (
    <Modal
      aberto={aberto}
      aoFechar={aoFechar}
      titulo="Sincronização"
      rodape={
        <>
          <Botao variante="outline" onClick={aoFechar}>
            Fechar
          </Botao>
          <Botao onClick={() => void motorSync.sincronizarAgora({ ignorarEspera: true })} carregando={estado.sincronizando}>
            Sincronizar agora
          </Botao>
        </>
      }
    >
      <p className="campo__ajuda" style={{ marginTop: 0 }}>
        {estado.online ? 'Conectado.' : 'Sem conexão: os registros ficam guardados neste aparelho e são enviados quando a internet voltar.'}{' '}
        {estado.ultimaSincronizacao ? `Última sincronização: ${formatarDataHora(estado.ultimaSincronizacao, fuso)}.` : ''}
      </p>

      {estado.progresso && estado.progresso.total > 1 && (
        <p className="campo__ajuda" role="status">
          {textoProgresso(estado.progresso)}
        </p>
      )}
      {estado.deOutrosUsuarios > 0 && (
        <p className="campo__ajuda" role="note">
          {estado.deOutrosUsuarios === 1 ? '1 registro de outro usuário aguarda' : `${estado.deOutrosUsuarios} registros de outro usuário aguardam`} neste
          aparelho: eles são enviados quando essa pessoa entrar de novo (ou exportados pela tela de entrada).
        </p>
      )}

      <AvisoVersaoAntiga aguardando={itens.length} />
      {itensLidos === undefined && <Carregando />}
      {recusados.length > 0 && (
        <section aria-label="Precisam de atenção">
          <h3 style={{ margin: '1rem 0 0.5rem' }}>Precisam de atenção ({recusados.length})</h3>
          <ul className="lista-sync">
            {recusados.map((item) => (
              <li key={item.id} className="lista-sync__item lista-sync__item--erro">
                <div>
                  <strong>{item.descricao}</strong>
                  {/* A conflict's message repeats, in words, the table below it: only its first sentence. */}
                  <div className="campo__erro">{item.conflito ? `${MENSAGEM_CONFLITO_DE_VERSAO} Escolha qual manter.` : item.erro}</div>
                  {item.conflito && <ValoresDoConflito conflito={item.conflito} fuso={fuso} />}
                  <div className="campo__ajuda">Registrado em {formatarDataHora(item.criadoEm, fuso)}</div>
                </div>
                <div className="acoes-linha">
                  {item.conflito ? (
                    <Botao tamanho="sm" variante="outline" onClick={() => void manterDesteAparelho(bancoLocal, item.id).then(() => motorSync.sincronizarAgora({ ignorarEspera: true }))}>
                      Manter o deste aparelho
                    </Botao>
                  ) : (
                    <Botao tamanho="sm" variante="outline" onClick={() => void tentarNovamente(bancoLocal, item.id).then(() => motorSync.sincronizarAgora({ ignorarEspera: true }))}>
                      Tentar novamente
                    </Botao>
                  )}
                  {ondeEditar(item) && (
                    <Botao
                      tamanho="sm"
                      variante="outline"
                      onClick={() => {
                        aoFechar();
                        navegar(ondeEditar(item)!);
                      }}
                    >
                      Editar
                    </Botao>
                  )}
                  <Botao tamanho="sm" variante="danger" onClick={() => setDescartando(item)}>
                    {item.conflito ? 'Ficar com o do servidor' : 'Descartar'}
                  </Botao>
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}

      {itensLidos !== undefined && (
        <section aria-label="Aguardando envio">
          <h3 style={{ margin: '1rem 0 0.5rem' }}>Aguardando envio ({aguardando.length})</h3>
          {aguardando.length === 0 ? (
            <p className="campo__ajuda">Nada aguardando: tudo o que foi registrado neste aparelho já chegou ao servidor.</p>
          ) : (
            <ul className="lista-sync">
              {aguardando.map((item) => (
                <li key={item.id} className="lista-sync__item">
                  <div>
                    <strong>{item.descricao}</strong>
                    <div className="campo__ajuda">
                      Registrado em {formatarDataHora(item.criadoEm, fuso)}
                      {item.tentativas > 0 && ` · ${contagem(item.tentativas, 'tentativa', 'tentativas')} sem conexão`}
                    </div>
                  </div>
                  <Selo cor="amarelo">Na fila</Selo>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      {itensLidos !== undefined && itens.length > 0 && usuario && <ExportarPendencias dono={usuario} quantidade={itens.length} />}

      {recebidos.length > 0 && (
        <section aria-label="Recebidos pelo servidor">
          <h3 style={{ margin: '1rem 0 0.5rem' }}>Recebidos pelo servidor</h3>
          <ul className="lista-sync">
            {recebidos.map((item) => (
              <li key={item.id} className="lista-sync__item">
                <div>
                  <strong>{item.descricao}</strong>
                  <div className="campo__ajuda">Recebido pelo servidor às {formatarHora(item.recebidoEm, fuso)} de {formatarDataHora(item.recebidoEm, fuso).slice(0, 10)}</div>
                  {item.tardia && <div className="campo__ajuda">{MENSAGEM_CHEGOU_DEPOIS} O resultado aparece em Minhas Rotas, na rota finalizada.</div>}
                </div>
                {item.tardia ? <Selo cor="amarelo">Aguardando o administrador</Selo> : <Selo cor="verde">Enviado</Selo>}
              </li>
            ))}
          </ul>
        </section>
      )}

      {uso && (
        <p className="campo__ajuda" style={{ marginTop: '1.25rem' }}>
          Espaço usado neste aparelho: {formatarBytes(uso.usadoBytes)}
          {uso.cotaBytes > 0 && ` de ${formatarBytes(uso.cotaBytes)} disponíveis`}.{' '}
          {uso.persistente
            ? 'Armazenamento persistente: o navegador não apaga estes dados sozinho.'
            : 'O navegador ainda não garantiu armazenamento persistente; instale o aplicativo para mais segurança.'}
        </p>
      )}

      <Confirmacao
        aberto={descartando !== null}
        titulo={descartando?.conflito ? 'Ficar com o valor do servidor' : 'Descartar registro'}
        mensagem={
          descartando?.conflito
            ? `Ficar com o valor do servidor e descartar "${descartando.descricao}" deste aparelho?`
            : `Descartar "${descartando?.descricao}"? Ele será apagado deste aparelho e nunca chegará ao servidor.`
        }
        textoConfirmar={descartando?.conflito ? 'Ficar com o do servidor' : 'Descartar'}
        textoCancelar="Cancelar"
        varianteConfirmar="danger"
        aoCancelar={() => setDescartando(null)}
        aoConfirmar={() => {
          if (descartando) void descartarItem(bancoLocal, descartando.id);
          setDescartando(null);
        }}
      />
    </Modal>
  );
}

/**
 * What the conflict is about: only the fields where this device and the server differ (the server's
 * note among them), each with both values, and when the server's version changed. The totals alone
 * did not say which payment to check.
 */
function ValoresDoConflito({ conflito, fuso }: { conflito: ConflitoDeVersao; fuso: string }) {
  const diferencas = diferencasDoConflito(conflito);
  return (
    <div className="conflito">
      <table className="conflito__tabela">
        <caption className="sr-only">Diferenças entre este aparelho e o servidor</caption>
        <thead>
          <tr>
            <th scope="col">Campo</th>
            <th scope="col">Neste aparelho</th>
            <th scope="col">No servidor</th>
          </tr>
        </thead>
        <tbody>
          {diferencas.map((d) => (
            <tr key={d.campo}>
              <th scope="row">{d.rotulo}</th>
              <td>{d.aparelho}</td>
              <td>{d.servidor}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {conflito.alterado_em && (
        <p className="campo__ajuda conflito__quando">Alterado no servidor em {formatarDataHora(conflito.alterado_em, fuso)}, em outro aparelho.</p>
      )}
    </div>
  );
}
