/** A yes/no question before an action (spec: activate/deactivate with Sim/Não, deletions, losing data). */
import type { ReactNode } from 'react';
import { Botao, type VarianteBotao } from './Botao';
import { Modal } from './Modal';

interface PropsConfirmacao {
  aberto: boolean;
  titulo?: string;
  mensagem: ReactNode;
  textoConfirmar?: string;
  textoCancelar?: string;
  varianteConfirmar?: VarianteBotao;
  processando?: boolean;
  /** False while what the question depends on is still loading ('Sim' waits; 'Não' does not). */
  podeConfirmar?: boolean;
  /** Below the question: what the person should know before answering. */
  children?: ReactNode;
  aoConfirmar: () => void;
  aoCancelar: () => void;
}

export function Confirmacao({
  aberto,
  titulo = 'Confirmação',
  mensagem,
  textoConfirmar = 'Sim',
  textoCancelar = 'Não',
  varianteConfirmar = 'primary',
  processando,
  podeConfirmar = true,
  children,
  aoConfirmar,
  aoCancelar,
}: PropsConfirmacao) {
  return (
    <Modal
      aberto={aberto}
      titulo={titulo}
      aoFechar={aoCancelar}
      tamanho="pequeno"
      rodape={
        <>
          <Botao variante="outline" onClick={aoCancelar} disabled={processando}>
            {textoCancelar}
          </Botao>
          <Botao variante={varianteConfirmar} onClick={aoConfirmar} carregando={processando} disabled={!podeConfirmar}>
            {textoConfirmar}
          </Botao>
        </>
      }
    >
      <p style={{ margin: 0 }}>{mensagem}</p>
      {children}
    </Modal>
  );
}
