/** The admin's decision on a write that reached a finished route late (RegistrosTardios.tsx lists them). */
import { useState } from 'react';
import { MOTIVO_RECUSA_TARDIA_MAXIMO, type Tardia } from '../../../shared/schemas/tardias';
import { mensagemDeErro } from '../api/client';
import { Botao } from '../components/Botao';
import { Campo } from '../components/Campo';
import { ErroDoEnvio, useApontarCampoRecusado } from '../components/RecusaDoFormulario';
import { useDecidirTardio } from './consultas';

/** Accept, or refuse with the reason the employee will read: a pending late write's decision. */
export function DecidirTardio({ tardio, rotaId }: { tardio: Tardia; rotaId: number }) {
  const decidir = useDecidirTardio(rotaId);
  const [recusando, setRecusando] = useState(false);
  const [motivo, setMotivo] = useState('');
  const [erro, setErro] = useState<string | null>(null);
  const [erroMotivo, setErroMotivo] = useState<string | null>(null);
  const { raiz, apontarCampoRecusado } = useApontarCampoRecusado<HTMLDivElement>();

  async function enviar(decisao: 'aceitar' | 'recusar') {
    setErro(null);
    setErroMotivo(null);
    if (decisao === 'recusar' && motivo.trim().length < 3) {
      setErroMotivo('Escreva o motivo da recusa (pelo menos 3 caracteres): o funcionário vai lê-lo.');
      return apontarCampoRecusado();
    }
    try {
      await decidir.mutateAsync({ operacaoId: tardio.operacao_id, decisao, ...(decisao === 'recusar' ? { motivo: motivo.trim() } : {}) });
      setRecusando(false);
    } catch (e) {
      setErro(mensagemDeErro(e, decisao === 'aceitar' ? 'Erro ao aceitar o registro. Tente novamente.' : 'Erro ao recusar o registro. Tente novamente.'));
    }
  }

  return (
    <>
      {recusando ? (
        <div ref={raiz} className="tardios__recusa">
          <Campo rotulo="Motivo da recusa" obrigatorio erro={erroMotivo} ajuda="O funcionário vê este motivo no celular.">
            {(p) => (
              <textarea
                {...p}
                className="entrada"
                rows={2}
                maxLength={MOTIVO_RECUSA_TARDIA_MAXIMO}
                value={motivo}
                onChange={(e) => {
                  setMotivo(e.target.value);
                  setErroMotivo(null);
                }}
              />
            )}
          </Campo>
          <div className="tardios__acoes">
            <Botao variante="outline" onClick={() => setRecusando(false)} disabled={decidir.isPending}>
              Voltar
            </Botao>
            <Botao variante="danger" onClick={() => void enviar('recusar')} carregando={decidir.isPending}>
              Confirmar recusa
            </Botao>
          </div>
        </div>
      ) : (
        <div className="tardios__acoes">
          <Botao variante="outline" onClick={() => setRecusando(true)} disabled={decidir.isPending}>
            Recusar
          </Botao>
          <Botao variante="primary" onClick={() => void enviar('aceitar')} carregando={decidir.isPending}>
            Aceitar
          </Botao>
        </div>
      )}
      {erro && <ErroDoEnvio>{erro}</ErroDoEnvio>}
    </>
  );
}
