/**
 * 'Novidades' on the employee's Despesas page (issue 17): what changed since the phone last looked
 * (approvals, rejections with the reason, balance credits), kept on the device until 'Entendi'. A
 * rejected expense offers to open it, to correct and send it again.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { Bell } from 'lucide-react';
import { Botao } from '../components/Botao';
import { bancoLocal } from '../offline/db';
import { dispensarNoticias, lerNoticias, type Noticia } from './noticias';

export function NoticiasDespesas({ usuarioId, aoAbrir }: { usuarioId: number; aoAbrir: (despesaId: string) => void }) {
  const pendentes = useLiveQuery(async () => (await lerNoticias(bancoLocal, usuarioId)).pendentes, [usuarioId]) ?? [];
  if (pendentes.length === 0) return null;
  const abrir = (n: Noticia) => {
    if (n.despesaId) aoAbrir(n.despesaId);
  };
  return (
    <section className="cartao noticias-despesas" aria-labelledby="noticias-despesas-titulo" role="status">
      <div className="noticias-despesas__topo">
        <h2 id="noticias-despesas-titulo" className="noticias-despesas__titulo">
          <Bell size={18} aria-hidden="true" /> Novidades desde a sua última visita
        </h2>
        <Botao tamanho="sm" variante="outline" onClick={() => void dispensarNoticias(bancoLocal, usuarioId)}>
          Entendi
        </Botao>
      </div>
      <ul className="noticias-despesas__lista">
        {pendentes.map((n) => (
          <li key={n.id} className={`noticias-despesas__item noticias-despesas__item--${n.tipo}`}>
            <span>{n.texto}</span>
            {n.tipo === 'rejeitada' && n.despesaId && (
              <button type="button" className="link-botao" onClick={() => abrir(n)}>
                Ver e corrigir
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
