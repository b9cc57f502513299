/** The admin rejects an expense: the reason is required (it is what the employee reads). */
import { useState, type FormEvent } from 'react';
import { formatarReais } from '../../../shared/money';
import { MENSAGEM_MOTIVO, MOTIVO_REJEICAO_MAXIMO, rejeitarDespesaSchema } from '../../../shared/schemas/despesas';
import { mensagemDeErro } from '../api/client';
import { Botao } from '../components/Botao';
import { Campo } from '../components/Campo';
import { Modal } from '../components/Modal';
import { tipoDaDespesa } from './apresentacao';
import type { DespesaExibida } from './fila';

interface PropsRejeitar {
  despesa: DespesaExibida | null;
  aoFechar: () => void;
  aoRejeitar: (motivo: string) => Promise<void>;
}

export function ModalRejeitar({ despesa, aoFechar, aoRejeitar }: PropsRejeitar) {
  const [motivo, setMotivo] = useState('');
  const [erro, setErro] = useState<string | null>(null);
  const [erroServidor, setErroServidor] = useState<string | null>(null);
  const [enviando, setEnviando] = useState(false);

  function fechar() {
    setMotivo('');
    setErro(null);
    setErroServidor(null);
    aoFechar();
  }

  async function enviar(e: FormEvent) {
    e.preventDefault();
    const r = rejeitarDespesaSchema.safeParse({ motivo });
    if (!r.success) return setErro(r.error.issues[0]?.message ?? MENSAGEM_MOTIVO);
    setEnviando(true);
    try {
      await aoRejeitar(r.data.motivo);
      fechar();
    } catch (falha) {
      setErroServidor(mensagemDeErro(falha, 'Erro ao rejeitar despesa'));
    } finally {
      setEnviando(false);
    }
  }

  return (
    <Modal
      aberto={despesa !== null}
      titulo="Rejeitar Despesa"
      aoFechar={fechar}
      tamanho="pequeno"
      rodape={
        <>
          <Botao variante="outline" onClick={fechar} disabled={enviando}>
            Cancelar
          </Botao>
          <Botao type="submit" form="form-rejeitar" variante="danger" carregando={enviando}>
            Rejeitar
          </Botao>
        </>
      }
    >
      <form id="form-rejeitar" onSubmit={enviar} noValidate>
        {despesa && (
          <p style={{ marginTop: 0 }}>
            {tipoDaDespesa(despesa)} de {formatarReais(despesa.valor)} — {despesa.funcionario_nome}
          </p>
        )}
        {erroServidor && (
          <div className="alerta alerta--erro" role="alert">
            {erroServidor}
          </div>
        )}
        <Campo rotulo="Motivo da rejeição" obrigatorio erro={erro} ajuda="O funcionário verá este motivo na lista de despesas.">
          {(p) => (
            <textarea
              {...p}
              className="area-texto"
              rows={3}
              maxLength={MOTIVO_REJEICAO_MAXIMO}
              value={motivo}
              onChange={(e) => {
                setMotivo(e.target.value);
                setErro(null);
              }}
            />
          )}
        </Campo>
      </form>
    </Modal>
  );
}
