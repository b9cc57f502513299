/** The admin rejects one expense, or the ticked ones with one reason: required (it is what each employee reads). */
import { useState, type FormEvent } from 'react';
import { formatarReais, somarReais } from '../../../shared/money';
import { MENSAGEM_MOTIVO, MOTIVO_REJEICAO_MAXIMO, rejeitarDespesaSchema } from '../../../shared/schemas/despesas';
import { contagem } from '../../../shared/texto';
import { mensagemDeErro } from '../api/client';
import { Botao } from '../components/Botao';
import { Campo } from '../components/Campo';
import { useFecharFormulario } from '../components/fecharFormulario';
import { Modal } from '../components/Modal';
import { useApontarCampoRecusado } from '../components/RecusaDoFormulario';
import { tipoDaDespesa } from './apresentacao';
import type { DespesaExibida } from './fila';

interface PropsRejeitar {
  /** What is being rejected: one expense, or the admin's ticked ones; null when closed. */
  despesas: DespesaExibida[] | null;
  aoFechar: () => void;
  aoRejeitar: (motivo: string) => Promise<void>;
}

export function ModalRejeitar({ despesas, aoFechar, aoRejeitar }: PropsRejeitar) {
  const despesa = despesas?.length === 1 ? despesas[0]! : null;
  const varias = despesas !== null && despesas.length > 1;
  const [motivo, setMotivo] = useState('');
  const [erro, setErro] = useState<string | null>(null);
  const [erroServidor, setErroServidor] = useState<string | null>(null);
  const [enviando, setEnviando] = useState(false);
  const { raiz, apontarCampoRecusado } = useApontarCampoRecusado();

  function descartar() {
    setMotivo('');
    setErro(null);
    setErroServidor(null);
    aoFechar();
  }
  const { pedirFechar: fechar, pergunta } = useFecharFormulario({ alterado: motivo.trim() !== '', bloqueado: enviando, aoFechar: descartar });

  async function enviar(e: FormEvent) {
    e.preventDefault();
    const r = rejeitarDespesaSchema.safeParse({ motivo });
    setErroServidor(null);
    if (!r.success) {
      setErro(r.error.issues[0]?.message ?? MENSAGEM_MOTIVO);
      return apontarCampoRecusado();
    }
    setEnviando(true);
    try {
      await aoRejeitar(r.data.motivo);
      descartar();
    } catch (falha) {
      setErroServidor(mensagemDeErro(falha, varias ? 'Erro ao rejeitar despesas' : 'Erro ao rejeitar despesa'));
    } finally {
      setEnviando(false);
    }
  }

  return (
    <Modal
      aberto={despesas !== null && despesas.length > 0}
      titulo={varias ? `Rejeitar ${contagem(despesas.length, 'despesa', 'despesas')}` : 'Rejeitar Despesa'}
      aoFechar={fechar}
      erro={erroServidor}
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
      <form id="form-rejeitar" ref={raiz} onSubmit={enviar} noValidate>
        {despesa && (
          <p style={{ marginTop: 0 }}>
            {tipoDaDespesa(despesa)} de {formatarReais(despesa.valor)} — {despesa.funcionario_nome}
          </p>
        )}
        {varias && (
          <p style={{ marginTop: 0 }}>
            {contagem(despesas.length, 'despesa selecionada', 'despesas selecionadas')}, {formatarReais(somarReais(...despesas.map((d) => d.valor)))} no total. O mesmo motivo
            vale para todas.
          </p>
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
      {pergunta}
    </Modal>
  );
}
