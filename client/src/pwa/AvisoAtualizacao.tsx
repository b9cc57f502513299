/**
 * 'Nova versão disponível' with 'Atualizar'. The new service worker takes over only when nothing
 * is waiting in the outbox and no form is open, so an update never costs queued or typed work.
 */
import { RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { Botao } from '../components/Botao';
import { motorSync, useEstadoSync } from '../offline';
import { useHaFormularioAberto } from './formularios';
import { contagem } from '../../../shared/texto';

/**
 * Why an update must wait, or null when it can be applied now. When the server refused this version
 * (426) the queue cannot empty before the update: it stays in IndexedDB and goes with the new version.
 */
export function motivoParaEsperar(pendentes: number, sincronizando: boolean, formularioAberto: boolean, atualizacaoNecessaria = false): string | null {
  if ((pendentes > 0 || sincronizando) && !atualizacaoNecessaria) {
    return `Enviando ${contagem(pendentes, 'registro', 'registros')} antes de atualizar...`;
  }
  if (formularioAberto) return 'Feche o formulário aberto para atualizar.';
  return null;
}

/**
 * Hands over to the waiting service worker and reloads once it controls the page. Reloads on the
 * browser's own `controllerchange` and tells the waiting worker directly too: workbox-window's
 * 'controlling' event depended on which registration noticed the new version first, and on a loaded
 * phone the page sometimes stayed on the old version with the notice stuck (seen in a browser test).
 */
async function aplicarAtualizacao(updateServiceWorker: (recarregar?: boolean) => Promise<void>): Promise<void> {
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
  const registro = await navigator.serviceWorker.getRegistration();
  registro?.waiting?.postMessage({ type: 'SKIP_WAITING' });
  // Also through workbox-window (its promise waits for an answer the worker never sends: not awaited).
  void updateServiceWorker(false);
}

/** How often the queue is tried while an update waits on it. */
const INSISTIR_A_CADA_MS = 5_000;

export function AvisoAtualizacao() {
  const {
    needRefresh: [precisaAtualizar],
    updateServiceWorker,
  } = useRegisterSW({
    // Register now: React mounts after the window's load event, which would never fire again.
    immediate: true,
    onRegisteredSW(_url, registro) {
      // Phones stay open for days: look for a new version every hour.
      if (registro) setInterval(() => void registro.update().catch(() => undefined), 60 * 60 * 1000);
    },
  });
  const sync = useEstadoSync();
  const formularioAberto = useHaFormularioAberto();
  const [querAtualizar, setQuerAtualizar] = useState(false);
  const motivo = motivoParaEsperar(sync.pendentes, sync.sincronizando, formularioAberto, sync.atualizacaoNecessaria);

  useEffect(() => {
    if (querAtualizar && motivo === null) void aplicarAtualizacao(updateServiceWorker);
  }, [querAtualizar, motivo, updateServiceWorker]);

  // The person is looking at 'Enviando ... antes de atualizar': try every few seconds instead of sitting
  // out the queue's backoff, which after a few failures (a captive portal, a dead link) is minutes.
  const insistir = querAtualizar && sync.pendentes > 0 && !sync.atualizacaoNecessaria;
  useEffect(() => {
    if (!insistir) return;
    const tentativas = setInterval(() => void motorSync.sincronizarAgora({ ignorarEspera: true }), INSISTIR_A_CADA_MS);
    return () => clearInterval(tentativas);
  }, [insistir]);

  if (!precisaAtualizar) return null;
  return (
    <div className="aviso-atualizacao" role="status">
      <RefreshCw size={18} aria-hidden="true" />
      <span className="aviso-atualizacao__texto">
        <strong>Nova versão disponível</strong>
        {querAtualizar && motivo && <span>{motivo}</span>}
      </span>
      <Botao
        tamanho="sm"
        onClick={() => {
          setQuerAtualizar(true);
          if (sync.pendentes > 0) void motorSync.sincronizarAgora({ ignorarEspera: true });
        }}
        disabled={querAtualizar}
      >
        Atualizar
      </Botao>
    </div>
  );
}
