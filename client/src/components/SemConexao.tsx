/**
 * Admin screens are online only (docs/decisions/paineis-e-relatorios.md, 'Dashboard do admin'): without signal they say so plainly, with a way to try
 * again, instead of an empty list or zeros that read like data ('Nenhum funcionário ativo encontrado').
 * "Without signal" is the browser saying offline, or a request that got no answer (`ErroOffline`:
 * a dead Wi-Fi, the server down, the 10 s timeout).
 */
import { RefreshCw, WifiOff } from 'lucide-react';
import { useEffect, useId, useRef } from 'react';
import { ErroOffline } from '../api/client';
import { Botao } from './Botao';
import { useOnline } from './useOnline';

/** What the hook needs of a react-query result. */
export interface ConsultaOnline {
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

export interface EstadoConexao {
  semConexao: boolean;
  tentando: boolean;
  tentarDeNovo: () => void;
}

/**
 * Whether the screen's data can be shown: no when the browser is offline or any of `consultas` failed
 * for lack of an answer. When the signal comes back, what failed is read again.
 */
export function useSemConexao(...consultas: ConsultaOnline[]): EstadoConexao {
  const online = useOnline();
  const atuais = useRef(consultas);
  useEffect(() => {
    atuais.current = consultas;
  });
  // A query that failed with data already in the cache is not read again on reconnect while that data
  // is fresh: without this it would keep saying 'Sem conexão' with the signal back.
  useEffect(() => {
    if (!online) return;
    for (const c of atuais.current) if (c.error instanceof ErroOffline) void c.refetch();
  }, [online]);
  return {
    semConexao: !online || consultas.some((c) => c.error instanceof ErroOffline),
    tentando: consultas.some((c) => c.isFetching),
    tentarDeNovo: () => {
      for (const c of atuais.current) void c.refetch();
    },
  };
}

/** The 'Sem conexão' state that takes the place of a screen's data. */
export function SemConexao({ conexao }: { conexao: EstadoConexao }) {
  const id = useId();
  return (
    <section className="cartao sem-conexao" role="alert" aria-labelledby={id}>
      <WifiOff size={32} className="sem-conexao__icone" aria-hidden="true" />
      <h2 id={id} className="sem-conexao__titulo">
        Sem conexão
      </h2>
      <p className="sem-conexao__texto">Esta tela precisa de internet para mostrar os dados. Confira a conexão e tente de novo.</p>
      <Botao variante="outline" icone={<RefreshCw size={17} />} carregando={conexao.tentando} onClick={conexao.tentarDeNovo}>
        Tentar novamente
      </Botao>
    </section>
  );
}
