/**
 * A route's settlement (shared/acerto.ts) as both sides read it: the employee on the route's result (Minhas
 * Rotas) and the admin in the route details. The figures come from the server in reais and are converted once,
 * here (acertoDaApi), then recomputed by the same rule the server used.
 */
import { dataNoFuso, formatarData } from '../../../shared/dates';
import { ROTULO_SENTIDO_ACERTO, saldoEmAberto } from '../../../shared/acerto';
import { formatarCentavos } from '../../../shared/money';
import { acertoDaApi, type AcertoRotaApi } from '../../../shared/schemas/acerto';
import type { StatusRota } from '../../../shared/schemas/rotas';
import { Selo } from '../components/Selo';
import { fusoDoApp } from '../config/configApp';

/** Who reads it: the texts speak to the employee ('você') or about them. */
export type LeitorDoAcerto = 'funcionario' | 'admin';

/** 'Acertada em 05/12/2026', 'Aguardando acerto', or the route still running. */
export function situacaoDoAcerto(acerto: AcertoRotaApi, status: StatusRota): { texto: string; cor: 'verde' | 'amarelo' | 'cinza' } {
  if (acerto.acertada_em) return { texto: `Acertada em ${formatarData(dataNoApp(acerto.acertada_em))}`, cor: 'verde' };
  if (status === 'ativa') return { texto: 'Acerto depois da finalização', cor: 'cinza' };
  return { texto: 'Aguardando acerto', cor: 'amarelo' };
}

/** The APP_TZ day of an instant ('yyyy-mm-dd'). */
const dataNoApp = (instante: string) => dataNoFuso(new Date(instante), fusoDoApp());

export function QuadroAcerto({ acerto, status, leitor }: { acerto: AcertoRotaApi; status: StatusRota; leitor: LeitorDoAcerto }) {
  const f = acertoDaApi(acerto);
  const aberto = saldoEmAberto(f);
  const situacao = situacaoDoAcerto(acerto, status);
  const voce = leitor === 'funcionario';
  return (
    <section className="quadro-acerto" aria-label="Acerto da rota">
      <div className="salario__topo">
        <h3 className="salario__titulo">Acerto da rota</h3>
        <Selo cor={situacao.cor}>{situacao.texto}</Selo>
      </div>
      <dl className="salario__linhas">
        <Linha rotulo="Créditos desta rota" detalhe="adiantamento enviado pelo administrador" valor={formatarCentavos(f.creditosCentavos)} />
        <Linha rotulo="Despesas aprovadas" valor={menos(f.despesasAprovadasCentavos)} />
        <Linha rotulo="Despesas pendentes" detalhe="contam como gastas até a decisão do administrador" valor={menos(f.despesasPendentesCentavos)} />
        {f.acertos.length > 0 && <Linha rotulo="Acertos registrados" detalhe="dinheiro que já mudou de mãos" valor={f.acertadoCentavos >= 0 ? menos(f.acertadoCentavos) : `+ ${formatarCentavos(-f.acertadoCentavos)}`} />}
        <Linha
          rotulo={aberto > 0 ? 'A devolver' : aberto < 0 ? 'A receber' : 'Em aberto'}
          detalhe={aberto > 0 ? (voce ? 'você devolve ao administrador' : 'o funcionário devolve à empresa') : aberto < 0 ? (voce ? 'a empresa paga a você' : 'a empresa paga ao funcionário') : 'nada a devolver nem a receber'}
          valor={formatarCentavos(Math.abs(aberto))}
          classe={`salario__linha--total${aberto < 0 ? ' valor-negativo' : ''}`}
          teste="acerto-em-aberto"
        />
      </dl>
      {f.despesasRejeitadasCentavos > 0 && (
        <p className="quadro-acerto__nota" data-testid="acerto-rejeitadas">
          Despesas rejeitadas: <strong>{formatarCentavos(f.despesasRejeitadasCentavos)}</strong>. Não são custo da empresa: não descontam do adiantamento e ficam para{' '}
          {voce ? 'você devolver' : 'o funcionário devolver'}.
        </p>
      )}
      <dl className="salario__linhas quadro-acerto__ao-lado" aria-label="Pagos à parte">
        <Linha rotulo={voce ? 'Seu salário' : 'Salário'} detalhe="pago à parte, fora deste acerto" valor={formatarCentavos(f.salarioCentavos)} />
        <Linha rotulo="Desconto do aluguel" detalhe="descontado do salário, fora deste acerto" valor={formatarCentavos(f.descontoAluguelCentavos)} />
        {f.creditosSemRotaCentavos > 0 && (
          <Linha
            rotulo="Créditos sem rota"
            detalhe={voce ? 'enviados a você sem uma rota: ficam no seu saldo, fora deste acerto' : 'enviados ao funcionário sem uma rota: ficam no saldo dele, fora deste acerto'}
            valor={formatarCentavos(f.creditosSemRotaCentavos)}
          />
        )}
      </dl>
      {f.acertos.length > 0 && (
        <ul className="quadro-acerto__acertos" aria-label="Acertos registrados">
          {f.acertos.map((a, i) => (
            <li key={`${a.data}-${i}`}>
              <span>
                {formatarData(dataNoApp(a.data))} · {ROTULO_SENTIDO_ACERTO[a.sentido]}
                {a.adminNome ? ` · ${a.adminNome}` : ''}
                {a.observacao ? <span className="salario__detalhe">{a.observacao}</span> : null}
              </span>
              <strong>{formatarCentavos(a.valorCentavos)}</strong>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const menos = (centavos: number) => (centavos > 0 ? `− ${formatarCentavos(centavos)}` : formatarCentavos(0));

function Linha({ rotulo, detalhe, valor, classe, teste }: { rotulo: string; detalhe?: string; valor: string; classe?: string; teste?: string }) {
  return (
    <div className={['salario__linha', classe].filter(Boolean).join(' ')} data-testid={teste}>
      <dt>
        {rotulo}
        {detalhe && <span className="salario__detalhe">{detalhe}</span>}
      </dt>
      <dd>{valor}</dd>
    </div>
  );
}
