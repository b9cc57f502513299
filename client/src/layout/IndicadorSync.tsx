/** The header's sync status: offline/online, items waiting, refused items, last sync. */
import { AlertTriangle, CheckCircle2, CloudOff, RefreshCw } from 'lucide-react';
import { formatarHora } from '../../../shared/dates';
import { useOnline } from '../components/useOnline';
import { fusoDoApp } from '../config/configApp';
import { useEstadoSync } from '../offline/estado';
import { plural } from '../../../shared/texto';
import { formatarNumero } from '../../../shared/numeros';

/** 'Enviando 120 de 1.000' (thousands with a dot, as pt-BR writes them). */
export function textoProgresso(p: { enviados: number; total: number }): string {
  return `Enviando ${formatarNumero(Math.min(p.enviados, p.total))} de ${formatarNumero(p.total)}`;
}

export function textoIndicador(e: {
  online: boolean;
  sincronizando: boolean;
  pendentes: number;
  comErro: number;
  pausadoPorSessao: boolean;
  atualizacaoNecessaria?: boolean;
  progresso?: { enviados: number; total: number } | null;
  deOutrosUsuarios?: number;
}): string {
  // Nothing goes until the app is updated: that comes before anything else the queue could say.
  if (e.atualizacaoNecessaria) return 'Atualize o aplicativo';
  if (e.comErro > 0) return `${e.comErro} ${plural(e.comErro, 'precisa', 'precisam')} de atenção`;
  if (!e.online) return e.pendentes > 0 ? `Offline · ${e.pendentes} aguardando` : 'Offline';
  if (e.pausadoPorSessao) return 'Entre de novo para enviar';
  if (e.sincronizando) return e.progresso && e.progresso.total > 1 ? textoProgresso(e.progresso) : 'Sincronizando...';
  if (e.pendentes > 0) return `${e.pendentes} aguardando envio`;
  // This person's queue is empty, but the device still holds someone else's: not 'Sincronizado'.
  if (e.deOutrosUsuarios && e.deOutrosUsuarios > 0) return `${e.deOutrosUsuarios} de outro usuário aguardando`;
  return 'Sincronizado';
}

export function IndicadorSync({ aoAbrir }: { aoAbrir: () => void }) {
  const estado = useEstadoSync();
  const online = useOnline() && estado.online;
  const e = { ...estado, online };
  const bloqueado = e.comErro > 0 || e.atualizacaoNecessaria;
  const classe = bloqueado ? 'indicador-sync--erro' : !online ? 'indicador-sync--offline' : e.pendentes === 0 && e.deOutrosUsuarios === 0 ? 'indicador-sync--ok' : '';
  const icone =
    bloqueado ? <AlertTriangle size={15} /> : !online ? <CloudOff size={15} /> : e.pendentes > 0 || e.sincronizando ? <RefreshCw size={15} /> : <CheckCircle2 size={15} />;
  const ultima = estado.ultimaSincronizacao ? `Última sincronização às ${formatarHora(estado.ultimaSincronizacao, fusoDoApp())}` : 'Ainda não sincronizado neste aparelho';
  return (
    <button type="button" className={`indicador-sync ${classe}`} onClick={aoAbrir} title={ultima} aria-label={`${textoIndicador(e)}. ${ultima}. Abrir sincronização`}>
      {icone}
      <span>{textoIndicador(e)}</span>
    </button>
  );
}
