/**
 * The state of one export button: idle, downloading (bytes received so far), done ('Pronto'), or failed
 * (the pt-BR reason); and the line that tells it, beside the button (a live region: a screen reader hears
 * the progress settle and the result).
 */
import { useCallback, useRef, useState } from 'react';
import { formatarBytes } from '../../../shared/exportacoes';
import type { Parametros } from '../api/client';
import { baixarExportacao } from './baixar';

export type EstadoExportacao =
  | { fase: 'parada' }
  | { fase: 'baixando'; bytes: number }
  | { fase: 'pronta'; nome: string; bytes: number }
  | { fase: 'falhou'; mensagem: string };

export function useExportacao() {
  const [estado, setEstado] = useState<EstadoExportacao>({ fase: 'parada' });
  const emCurso = useRef(false);

  const exportar = useCallback(async (caminho: string, params: Parametros, nomePadrao: string) => {
    if (emCurso.current) return;
    emCurso.current = true;
    setEstado({ fase: 'baixando', bytes: 0 });
    try {
      const { nome, bytes } = await baixarExportacao(caminho, params, nomePadrao, (b) => setEstado({ fase: 'baixando', bytes: b }));
      setEstado({ fase: 'pronta', nome, bytes });
    } catch (erro) {
      setEstado({ fase: 'falhou', mensagem: erro instanceof Error ? erro.message : 'Erro ao exportar. Tente novamente.' });
    } finally {
      emCurso.current = false;
    }
  }, []);

  return { estado, exportar, baixando: estado.fase === 'baixando' };
}

/** 'Baixando… 1,4 MB recebidos', 'Pronto: arquivo.zip (12 MB)', or the failure. Nothing while idle. */
export function ProgressoExportacao({ estado }: { estado: EstadoExportacao }) {
  if (estado.fase === 'parada') return null;
  if (estado.fase === 'falhou') {
    return (
      <p className="progresso-exportacao progresso-exportacao--erro" role="alert">
        {estado.mensagem}
      </p>
    );
  }
  return (
    <p className="progresso-exportacao" role="status">
      {estado.fase === 'baixando'
        ? estado.bytes === 0
          ? 'Preparando o arquivo…'
          : `Baixando… ${formatarBytes(estado.bytes)} recebidos`
        : `Pronto: ${estado.nome} (${formatarBytes(estado.bytes)})`}
    </p>
  );
}
