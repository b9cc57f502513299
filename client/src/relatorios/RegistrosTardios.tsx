/**
 * Writes that reached a route after its employee finished it (docs/decisions/rotas.md, 'A finalização
 * congela a rota; o que chega depois espera o admin'): the admin accepts each (it enters the route's figures and salary) or refuses
 * it with a reason the employee reads on the phone; the employee sees the same list, read-only, on the route's
 * result. Decided in the order they arrived when they touch the same record (the server says so).
 */
import type { ReactNode } from 'react';
import { formatarDataHora } from '../../../shared/dates';
import { ROTULO_SITUACAO_TARDIA, type Tardia } from '../../../shared/schemas/tardias';
import { Selo, type CorSelo } from '../components/Selo';
import { fusoDoApp } from '../config/configApp';

const COR_SITUACAO: Record<Tardia['situacao'], CorSelo> = { pendente: 'amarelo', aceita: 'verde', recusada: 'vermelho' };

/** `acoes`: the admin's accept/refuse for a pending one (DecidirTardio.tsx, kept out of the phone's code). */
export function ListaTardios({ tardios, leitor, acoes }: { tardios: Tardia[]; leitor: 'funcionario' | 'admin'; acoes?: (t: Tardia) => ReactNode }) {
  if (tardios.length === 0) return null;
  const pendentes = tardios.filter((t) => t.situacao === 'pendente').length;
  return (
    <section className="tardios" aria-label="Registros que chegaram depois da finalização">
      <h3 className="salario__titulo">Chegaram depois da finalização</h3>
      <p className="campo__ajuda">
        {leitor === 'admin'
          ? 'Enviados por outro aparelho do funcionário depois que ele finalizou a rota. Não entram nos números da rota até você aceitar.'
          : 'Registros que o seu outro aparelho enviou depois da finalização. Só entram nos números da rota se o administrador aceitar.'}
        {pendentes > 0 && ` ${pendentes === 1 ? 'Um aguarda' : `${pendentes} aguardam`} decisão.`}
      </p>
      <ul className="tardios__lista">
        {tardios.map((t) => (
          <li key={t.operacao_id} className="tardios__item">
            <Cabecalho tardio={t} />
            <Decisao tardio={t} />
            {t.situacao === 'pendente' && acoes?.(t)}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Cabecalho({ tardio: t }: { tardio: Tardia }) {
  const fuso = fusoDoApp();
  return (
    <div className="tardios__cabecalho">
      <div>
        <strong>{t.rotulo}</strong>
        <div>{t.descricao}</div>
        <div className="campo__ajuda">Chegou em {formatarDataHora(t.recebida_em, fuso)}</div>
      </div>
      <Selo cor={COR_SITUACAO[t.situacao]}>{ROTULO_SITUACAO_TARDIA[t.situacao]}</Selo>
    </div>
  );
}

function Decisao({ tardio: t }: { tardio: Tardia }) {
  if (t.situacao === 'pendente') return null;
  return (
    <p className="campo__ajuda">
      {t.situacao === 'aceita' ? 'Aceito' : 'Recusado'}
      {t.decidida_por ? ` por ${t.decidida_por}` : ''}
      {t.decidida_em ? ` em ${formatarDataHora(t.decidida_em, fusoDoApp())}` : ''}
      {t.motivo ? `. Motivo: ${t.motivo}` : '.'}
    </p>
  );
}

