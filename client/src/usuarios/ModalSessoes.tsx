/**
 * 'Sessões de Fulano' (admin): the devices signed in with the account, when each signed in and until
 * when it lasts, 'Encerrar' for one (the phone that was lost) and 'Encerrar todas' with a yes/no.
 * Ending a session asks that device for a login again; what it has not synced stays on it.
 */
import { useQuery } from '@tanstack/react-query';
import { LogOut, Monitor, Smartphone } from 'lucide-react';
import { useState } from 'react';
import { formatarDataHora } from '../../../shared/dates';
import type { SessaoAberta, Usuario } from '../../../shared/schemas/usuarios';
import { contagem } from '../../../shared/texto';
import { mensagemDeErro } from '../api/client';
import { toast } from '../components/avisos';
import { Botao } from '../components/Botao';
import { Carregando } from '../components/Carregando';
import { Modal } from '../components/Modal';
import { Selo } from '../components/Selo';
import { fusoDoApp } from '../config/configApp';
import { descreverAparelho } from './aparelho';
import { sessoesDoUsuario, useEncerrarSessao, useEncerrarSessoes } from './sessoes';

const ehCelular = (ua: string) => /Android|iPhone|iPod|Mobile/i.test(ua);

export function ModalSessoes({ usuario, aoFechar }: { usuario: Usuario; aoFechar: () => void }) {
  const consulta = useQuery(sessoesDoUsuario(usuario.id));
  const encerrarUma = useEncerrarSessao();
  const encerrarTodas = useEncerrarSessoes();
  const [confirmandoTodas, setConfirmandoTodas] = useState(false);
  const fuso = fusoDoApp();
  const sessoes = consulta.data ?? [];
  const outras = sessoes.filter((s) => !s.atual).length;

  async function encerrar(s: SessaoAberta) {
    try {
      await encerrarUma.mutateAsync({ usuarioId: usuario.id, ref: s.ref });
      toast.success(`Sessão encerrada: ${descreverAparelho(s.descricao)}.`);
    } catch (erro) {
      toast.error(mensagemDeErro(erro, 'Erro ao encerrar a sessão'));
    }
  }

  async function confirmarTodas() {
    try {
      const r = await encerrarTodas.mutateAsync(usuario.id);
      toast.success(r.encerradas === 0 ? `${usuario.nome} não tinha sessões abertas.` : `Sessões de ${usuario.nome} encerradas (${r.encerradas}).`);
      aoFechar();
    } catch (erro) {
      toast.error(mensagemDeErro(erro, 'Erro ao encerrar sessões'));
      setConfirmandoTodas(false);
    }
  }

  const rodape = confirmandoTodas ? (
    <>
      <Botao variante="outline" onClick={() => setConfirmandoTodas(false)} disabled={encerrarTodas.isPending}>
        Não
      </Botao>
      <Botao variante="danger" onClick={() => void confirmarTodas()} carregando={encerrarTodas.isPending}>
        Sim
      </Botao>
    </>
  ) : (
    <>
      <Botao variante="outline" onClick={aoFechar}>
        Fechar
      </Botao>
      <Botao variante="danger" icone={<LogOut size={16} />} onClick={() => setConfirmandoTodas(true)} disabled={consulta.isPending || outras === 0}>
        Encerrar todas
      </Botao>
    </>
  );

  return (
    <Modal aberto titulo={`Sessões de ${usuario.nome}`} aoFechar={aoFechar} rodape={rodape}>
      {confirmandoTodas ? (
        <p role="alert">
          Encerrar todas as sessões de {usuario.nome}? Os aparelhos dessa pessoa vão pedir login de novo. O que ainda não foi sincronizado continua guardado no
          aparelho.
        </p>
      ) : consulta.isPending ? (
        <Carregando texto="Carregando sessões..." />
      ) : consulta.isError ? (
        <div className="alerta alerta--erro" role="alert">
          {mensagemDeErro(consulta.error, 'Erro ao carregar as sessões.')}
        </div>
      ) : sessoes.length === 0 ? (
        <p className="texto-suave">Nenhuma sessão aberta.</p>
      ) : (
        <>
          <p className="texto-suave">
            {contagem(sessoes.length, 'aparelho conectado', 'aparelhos conectados')}. Encerrar pede login de novo naquele aparelho; o que ainda não foi
            sincronizado continua guardado nele.
          </p>
          <ul className="lista-sessoes" aria-label="Sessões abertas">
            {sessoes.map((s) => {
              const aparelho = descreverAparelho(s.descricao);
              return (
                <li key={s.ref} className="lista-sessoes__item">
                  <span className="lista-sessoes__icone" aria-hidden="true">
                    {ehCelular(s.descricao) ? <Smartphone size={20} /> : <Monitor size={20} />}
                  </span>
                  <span className="lista-sessoes__texto">
                    <strong title={s.descricao || undefined}>{aparelho}</strong>
                    <span className="texto-suave">
                      Entrou em {formatarDataHora(s.criada_em, fuso)} · vale até {formatarDataHora(s.expira_em, fuso).slice(0, 10)}
                    </span>
                  </span>
                  {s.atual ? (
                    <Selo cor="azul">Esta sessão</Selo>
                  ) : (
                    <Botao
                      tamanho="sm"
                      variante="outline"
                      icone={<LogOut size={15} />}
                      onClick={() => void encerrar(s)}
                      carregando={encerrarUma.isPending && encerrarUma.variables?.ref === s.ref}
                      aria-label={`Encerrar sessão: ${aparelho}, entrou em ${formatarDataHora(s.criada_em, fuso)}`}
                    >
                      Encerrar
                    </Botao>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </Modal>
  );
}
