/**
 * The admin records a finished route's acerto (POST /api/rotas/:id/acerto): the cash that changed hands, in
 * the direction of what is open, up to it (a partial one leaves the rest open). Nothing open but the route not
 * settled yet: a settlement with no cash closes it. The server re-checks every rule (shared/acerto.ts) and
 * its refusal is shown here as it came.
 */
import { useState } from 'react';
import { saldoEmAberto, type SentidoAcerto } from '../../../shared/acerto';
import { centavosParaReais, formatarCentavos, lerValorDigitado, reaisParaCentavos } from '../../../shared/money';
import { acertoDaApi, OBSERVACAO_ACERTO_MAXIMA, type AcertoRotaApi } from '../../../shared/schemas/acerto';
import type { StatusRota } from '../../../shared/schemas/rotas';
import { mensagemDeErro } from '../api/client';
import { Botao } from '../components/Botao';
import { Campo } from '../components/Campo';
import { Confirmacao } from '../components/Confirmacao';
import { ErroDoEnvio, useApontarCampoRecusado } from '../components/RecusaDoFormulario';
import { useRegistrarAcerto } from './consultas';
import { EntradaDinheiro } from '../components/EntradaDinheiro';

const reaisDigitados = (centavos: number) => formatarCentavos(centavos).replace(/^R\$\s/, '');

export function RegistrarAcerto({
  rotaId,
  status,
  funcionarioNome,
  acerto,
  tardiosPendentes,
}: {
  rotaId: number;
  status: StatusRota;
  funcionarioNome: string;
  acerto: AcertoRotaApi;
  tardiosPendentes: number;
}) {
  const f = acertoDaApi(acerto);
  const aberto = saldoEmAberto(f);
  const sentido: SentidoAcerto = aberto < 0 ? 'pago' : 'devolvido';
  const [valor, setValor] = useState(() => reaisDigitados(Math.abs(aberto)));
  const [observacao, setObservacao] = useState('');
  /** A refused send (the server's answer), next to the button. */
  const [erro, setErro] = useState<string | null>(null);
  const [erroValor, setErroValor] = useState<string | null>(null);
  const [confirmando, setConfirmando] = useState(false);
  const { raiz, apontarCampoRecusado } = useApontarCampoRecusado();
  const registrar = useRegistrarAcerto(rotaId);

  if (status === 'ativa') return <p className="campo__ajuda">O acerto é registrado depois que {funcionarioNome} finalizar a rota.</p>;
  if (acerto.acertada_em) return null;
  if (tardiosPendentes > 0) {
    return (
      <p className="alerta alerta--aviso" role="status">
        {tardiosPendentes === 1
          ? 'Antes do acerto, decida o registro que chegou depois da finalização (abaixo): ele ainda pode mudar os números.'
          : `Antes do acerto, decida os ${tardiosPendentes} registros que chegaram depois da finalização (abaixo): eles ainda podem mudar os números.`}
      </p>
    );
  }

  const lido = lerValorDigitado(valor);
  const centavos = lido === null ? null : reaisParaCentavos(lido);
  const semDinheiro = aberto === 0;

  function recusarValor(mensagem: string) {
    setErroValor(mensagem);
    apontarCampoRecusado();
  }

  function pedirConfirmacao() {
    setErro(null);
    setErroValor(null);
    if (centavos === null) return recusarValor('Valor deve ser um número, por exemplo 350,50.');
    if (!semDinheiro && centavos <= 0) return recusarValor('Informe o valor do acerto.');
    if (centavos > Math.abs(aberto)) return recusarValor(`O acerto de ${formatarCentavos(centavos)} passa do que está em aberto nesta rota (${formatarCentavos(Math.abs(aberto))}).`);
    setConfirmando(true);
  }

  async function confirmar() {
    try {
      await registrar.mutateAsync({ valor: centavosParaReais(semDinheiro ? 0 : centavos!), sentido, observacao: observacao.trim() });
      setConfirmando(false);
    } catch (e) {
      setConfirmando(false);
      setErro(mensagemDeErro(e, 'Erro ao registrar o acerto. Tente novamente.'));
    }
  }

  const pergunta = semDinheiro
    ? `Registrar o acerto da rota sem troca de dinheiro? Nada fica em aberto para ${funcionarioNome}.`
    : sentido === 'devolvido'
      ? `Registrar que ${funcionarioNome} devolveu ${formatarCentavos(centavos ?? 0)}?`
      : `Registrar que a empresa pagou ${formatarCentavos(centavos ?? 0)} a ${funcionarioNome}?`;
  const parcial = !semDinheiro && centavos !== null && centavos < Math.abs(aberto);

  return (
    <form
      ref={raiz}
      className="registrar-acerto"
      aria-label="Registrar acerto"
      onSubmit={(e) => {
        e.preventDefault();
        pedirConfirmacao();
      }}
    >
      <h4 className="registrar-acerto__titulo">{semDinheiro ? 'Fechar a rota' : sentido === 'devolvido' ? 'Registrar o que o funcionário devolveu' : 'Registrar o pagamento ao funcionário'}</h4>
      {!semDinheiro && (
        <Campo rotulo="Valor (R$)" obrigatorio erro={erroValor} ajuda={`Em aberto: ${formatarCentavos(Math.abs(aberto))}. Um valor menor deixa o resto em aberto.`}>
          {(p) => (
            <EntradaDinheiro
              {...p}
              valor={valor}
              aoMudar={(texto) => {
                setValor(texto);
                setErroValor(null);
              }}
            />
          )}
        </Campo>
      )}
      <Campo rotulo="Observação" ajuda="Opcional: como o dinheiro foi entregue (dinheiro, pix...).">
        {(p) => <input {...p} className="entrada" maxLength={OBSERVACAO_ACERTO_MAXIMA} value={observacao} onChange={(e) => setObservacao(e.target.value)} />}
      </Campo>
      {erro && <ErroDoEnvio>{erro}</ErroDoEnvio>}
      <Botao type="submit" variante="primary" carregando={registrar.isPending}>
        {semDinheiro ? 'Registrar acerto sem troca de dinheiro' : 'Registrar acerto'}
      </Botao>
      <Confirmacao
        aberto={confirmando}
        titulo="Registrar acerto"
        mensagem={pergunta}
        textoConfirmar="Registrar"
        textoCancelar="Voltar"
        processando={registrar.isPending}
        aoConfirmar={() => void confirmar()}
        aoCancelar={() => setConfirmando(false)}
      >
        {parcial && <p className="campo__ajuda">Acerto parcial: {formatarCentavos(Math.abs(aberto) - (centavos ?? 0))} continuam em aberto.</p>}
        {f.despesasRejeitadasCentavos > 0 && (
          <p className="campo__ajuda">As despesas rejeitadas ({formatarCentavos(f.despesasRejeitadasCentavos)}) passam a ser do funcionário: o saldo dele deixa de contá-las como gastas pela empresa.</p>
        )}
      </Confirmacao>
    </form>
  );
}
