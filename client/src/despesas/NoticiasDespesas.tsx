/**
 * 'Novidades' on the employee's Despesas page: what changed since the phone last looked
 * (approvals, rejections with the reason, balance credits), kept on the device until 'Entendi'. The
 * newest first; each notice names its expense and opens it. A rejection offers 'Ver e corrigir'
 * until its correction is queued on this phone or accepted by the server.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { Bell } from 'lucide-react';
import type { Despesa } from '../../../shared/schemas/despesas';
import { Botao } from '../components/Botao';
import { bancoLocal } from '../offline/db';
import { dispensarNoticias, lerNoticias, noticiasEmOrdem, pedeCorrecao, type CorrecoesDoAparelho, type Noticia } from './noticias';

const OPERACAO_CORRIGIR = 'despesa.corrigir';
const SEM_CORRECOES: CorrecoesDoAparelho = { naFila: new Set(), aceitasEm: new Map() };

const idDaDespesa = (dados: unknown): string | null => {
  const id = (dados as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : null;
};

/** This person's corrections still in the queue, and those the server took (with when). */
async function lerCorrecoes(usuarioId: number): Promise<CorrecoesDoAparelho> {
  const naFila = new Set<string>();
  for (const item of await bancoLocal.outbox.where('usuarioId').equals(usuarioId).toArray()) {
    const id = item.tipo === OPERACAO_CORRIGIR ? idDaDespesa(item.dados) : null;
    if (id) naFila.add(id);
  }
  const aceitasEm = new Map<string, string>();
  for (const item of await bancoLocal.sincronizados.where('usuarioId').equals(usuarioId).toArray()) {
    const id = item.tipo === OPERACAO_CORRIGIR && !item.tardia ? idDaDespesa(item.dados) : null;
    if (!id || typeof item.recebidoEm !== 'string') continue;
    const antes = aceitasEm.get(id);
    if (!antes || antes < item.recebidoEm) aceitasEm.set(id, item.recebidoEm);
  }
  return { naFila, aceitasEm };
}

export function NoticiasDespesas({
  usuarioId,
  aoAbrir,
  statusDe = () => undefined,
}: {
  usuarioId: number;
  aoAbrir: (despesaId: string) => void;
  /** The expense's approval status in the list on screen, when it is there. */
  statusDe?: (despesaId: string) => Despesa['status_aprovacao'] | undefined;
}) {
  const pendentes = useLiveQuery(async () => noticiasEmOrdem((await lerNoticias(bancoLocal, usuarioId)).pendentes), [usuarioId]) ?? [];
  const correcoes = useLiveQuery(() => lerCorrecoes(usuarioId), [usuarioId]) ?? SEM_CORRECOES;
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
            {n.despesaId ? (
              <button type="button" className="link-botao noticias-despesas__abrir" onClick={() => abrir(n)}>
                {n.texto}
              </button>
            ) : (
              <span>{n.texto}</span>
            )}
            {pedeCorrecao(n, correcoes, n.despesaId ? statusDe(n.despesaId) : undefined) && (
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
