/**
 * Starts priming (preparo.ts) by itself for a signed-in employee:
 * - right after login and when the app opens with signal;
 * - when the signal returns (the `online` event);
 * - after a sync that the server confirmed writes in, beyond what the last run's copies include
 *   (the copies then count them without an overlay, and the overlay stays short);
 * - when the app comes back to the front after PREPARO_AO_VOLTAR_MS without a run.
 * Renders nothing of its own (the 'Pronto para viajar' card shows the progress); it also keeps the
 * watch for news of the office (despesas/VigiaDeNoticias.tsx), app-wide like this.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { hojeNoApp } from '../config/configApp';
import { motorSync } from '../offline';
import { bancoLocal } from '../offline/db';
import { lerConfirmacoes } from '../offline/outbox';
import { VigiaDeNoticias } from '../despesas/VigiaDeNoticias';
import { pedirArmazenamentoPersistente } from '../pwa/armazenamento';
import { preparo } from './preparo';

export const PREPARO_AO_VOLTAR_MS = 5 * 60_000;

export function PreparoAutomatico({ usuarioId }: { usuarioId: number }) {
  const queryClient = useQueryClient();
  useEffect(() => {
    let ultimaVez = 0;
    const rodar = () => {
      if (typeof navigator !== 'undefined' && !navigator.onLine) return;
      ultimaVez = Date.now();
      void preparo.preparar({
        banco: bancoLocal,
        usuarioId,
        hoje: hojeNoApp(),
        queryClient,
        sincronizar: () => motorSync.sincronizarAgora({ ignorarEspera: true }),
        pedirPersistencia: pedirArmazenamentoPersistente,
        automatico: true,
      });
    };
    rodar();

    let sincronizando = motorSync.estado().sincronizando;
    const pararSync = motorSync.assinar(() => {
      const agora = motorSync.estado().sincronizando;
      const terminou = sincronizando && !agora;
      sincronizando = agora;
      if (!terminou) return;
      // A run in progress may cover it (it sends the queue first): decide when it ends.
      void (preparo.emAndamento() ?? Promise.resolve()).then(async () => {
        const cobertas = preparo.estado().ultimo?.confirmacoesAte ?? -1;
        if ((await lerConfirmacoes(bancoLocal)) > cobertas) rodar();
      });
    });
    const aoVoltar = () => {
      if (document.visibilityState === 'visible' && Date.now() - ultimaVez > PREPARO_AO_VOLTAR_MS) rodar();
    };
    window.addEventListener('online', rodar);
    document.addEventListener('visibilitychange', aoVoltar);
    return () => {
      pararSync();
      window.removeEventListener('online', rodar);
      document.removeEventListener('visibilitychange', aoVoltar);
    };
  }, [usuarioId, queryClient]);
  return <VigiaDeNoticias usuarioId={usuarioId} />;
}
