/**
 * 'Pendências nos celulares' (admin dashboard): per employee, what their phone last said is still
 * waiting on it, highlighted when the oldest item waits more than 24 hours. Ages are counted here,
 * from the instants the server keeps, so they stay right between two reads of the dashboard.
 */
import { Smartphone } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { CelularComFila } from '../../../shared/schemas/dispositivos';
import { Selo } from '../components/Selo';
import { fusoDoApp } from '../config/configApp';
import { atrasado, descreverFila, diaEHora, haQuantoTempo } from './celulares';
import './celulares.css';

/** Seen longer ago than this: the line says when ('visto há 3 dias'). */
const VISTO_ANTIGO_MS = 60 * 60_000;

function useAgora(intervaloMs = 60_000): number {
  const [agora, setAgora] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setAgora(Date.now()), intervaloMs);
    return () => clearInterval(id);
  }, [intervaloMs]);
  return agora;
}

export function CelularesPendentes({ celulares, carregando }: { celulares: CelularComFila[]; carregando: boolean }) {
  const agora = useAgora();
  const fuso = fusoDoApp();
  const atrasados = celulares.filter((c) => atrasado(c.mais_antigo_em, agora)).length;

  return (
    <section className="cartao celulares" aria-labelledby="celulares-titulo">
      <div className="celulares__topo">
        <h2 id="celulares-titulo">
          <Smartphone size={19} aria-hidden="true" /> Pendências nos celulares
        </h2>
        {atrasados > 0 && <Selo cor="vermelho">{atrasados === 1 ? '1 celular há mais de 24 horas' : `${atrasados} celulares há mais de 24 horas`}</Selo>}
      </div>
      {carregando ? (
        <p className="celulares__vazio">Carregando...</p>
      ) : celulares.length === 0 ? (
        <p className="celulares__vazio">Nenhuma pendência: tudo o que a equipe registrou nos celulares já chegou ao servidor.</p>
      ) : (
        <ul className="celulares__lista">
          {celulares.map((c) => {
            const velho = atrasado(c.mais_antigo_em, agora);
            const vistoHaMuito = agora - Date.parse(c.visto_em) > VISTO_ANTIGO_MS;
            return (
              <li key={`${c.dispositivo_id}|${c.funcionario_id}`} className={`celulares__item${velho ? ' celulares__item--atrasado' : ''}`}>
                <p className="celulares__principal">
                  <strong>{c.funcionario_nome}</strong> — {descreverFila(c.fila)} no celular
                  {c.mais_antigo_em ? ` ${haQuantoTempo(c.mais_antigo_em, agora)}` : ''}
                </p>
                <p className="celulares__detalhes">
                  versão {c.versao}
                  {' · '}
                  {c.ultima_sync_em ? `última sincronização ${diaEHora(c.ultima_sync_em, fuso)}` : 'nunca sincronizou'}
                  {vistoHaMuito && ` · visto ${haQuantoTempo(c.visto_em, agora)}`}
                </p>
                {(velho || c.versao_antiga) && (
                  <p className="celulares__selos">
                    {velho && <Selo cor="vermelho">Há mais de 24 horas</Selo>}
                    {c.versao_antiga && (
                      <Selo cor="amarelo" title={`A versão ${c.versao} não é mais aceita pelo servidor: a fila deste celular só vai depois da atualização.`}>
                        Precisa atualizar o aplicativo
                      </Selo>
                    )}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
