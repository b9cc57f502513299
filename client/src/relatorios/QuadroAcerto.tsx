/**
 * A route's settlement (shared/acerto.ts) as both sides read it: the employee on the route's result (Minhas
 * Rotas) and the admin in the route details, in the same lines the PDFs print (linhasDoAcerto). The figures
 * come from the server in reais and are converted once, here (acertoDaApi), then recomputed by the same rule.
 */
import { linhasDoAcerto, ROTULO_SENTIDO_ACERTO, situacaoDoAcerto, valorDaLinhaDoAcerto, type LeitorDoAcerto, type LinhaDoAcerto } from '../../../shared/acerto';
import { dataNoFuso, formatarData } from '../../../shared/dates';
import { formatarCentavos } from '../../../shared/money';
import { acertoDaApi, type AcertoRotaApi } from '../../../shared/schemas/acerto';
import type { StatusRota } from '../../../shared/schemas/rotas';
import { Selo } from '../components/Selo';
import { fusoDoApp } from '../config/configApp';

/** The APP_TZ day of an instant ('yyyy-mm-dd'). */
const diaNoApp = (instante: string) => dataNoFuso(new Date(instante), fusoDoApp());

export function QuadroAcerto({ acerto, status, leitor }: { acerto: AcertoRotaApi; status: StatusRota; leitor: LeitorDoAcerto }) {
  const f = acertoDaApi(acerto);
  const { conta, rejeitadas, aoLado } = linhasDoAcerto(f, leitor);
  const situacao = situacaoDoAcerto(f, status, diaNoApp);
  const total = conta.at(-1)!;
  return (
    <section className="quadro-acerto" aria-label="Acerto da rota">
      <div className="salario__topo">
        <h3 className="salario__titulo">Acerto da rota</h3>
        <Selo cor={f.acertadaEm ? 'verde' : status === 'ativa' ? 'cinza' : 'amarelo'}>{situacao}</Selo>
      </div>
      <dl className="salario__linhas">
        {conta.map((l) => (
          <Linha key={l.rotulo} linha={l} {...(l === total ? { classe: `salario__linha--total${total.rotulo === 'A receber' ? ' valor-negativo' : ''}`, teste: 'acerto-em-aberto' } : {})} />
        ))}
      </dl>
      {rejeitadas && (
        <p className="quadro-acerto__nota" data-testid="acerto-rejeitadas">
          {rejeitadas}
        </p>
      )}
      <dl className="salario__linhas quadro-acerto__ao-lado" aria-label="Pagos à parte">
        {aoLado.map((l) => (
          <Linha key={l.rotulo} linha={l} />
        ))}
      </dl>
      {f.acertos.length > 0 && (
        <ul className="quadro-acerto__acertos" aria-label="Acertos registrados">
          {f.acertos.map((a, i) => (
            <li key={`${a.data}-${i}`}>
              <span>
                {formatarData(diaNoApp(a.data))} · {ROTULO_SENTIDO_ACERTO[a.sentido]}
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

function Linha({ linha, classe, teste }: { linha: LinhaDoAcerto; classe?: string; teste?: string }) {
  return (
    <div className={['salario__linha', classe].filter(Boolean).join(' ')} data-testid={teste}>
      <dt>
        {linha.rotulo}
        {linha.detalhe && <span className="salario__detalhe">{linha.detalhe}</span>}
      </dt>
      <dd>{valorDaLinhaDoAcerto(linha)}</dd>
    </div>
  );
}
