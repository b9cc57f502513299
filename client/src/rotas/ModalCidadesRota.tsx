/** 'Cidades da Rota': every city of a route, grouped by state (the admin's 'Ver todas' and the employee's list). */
import { MapPin } from 'lucide-react';
import type { CidadeResumo } from '../../../shared/schemas/rotas';
import { nomeDaUf } from '../../../shared/ufs';
import { Botao } from '../components/Botao';
import { Modal } from '../components/Modal';
import { agruparPorEstado } from './formularioRota';

export function ModalCidadesRota({ rota, aoFechar }: { rota: { nome: string; cidades: CidadeResumo[] } | null; aoFechar: () => void }) {
  const grupos = rota ? agruparPorEstado(rota.cidades) : [];
  return (
    <Modal
      aberto={rota !== null}
      titulo="Cidades da Rota"
      aoFechar={aoFechar}
      rodape={
        <Botao variante="outline" onClick={aoFechar}>
          Fechar
        </Botao>
      }
    >
      {rota && (
        <>
          <p className="cidades-rota__resumo">
            <strong>{rota.nome}</strong> · {rota.cidades.length} {rota.cidades.length === 1 ? 'cidade' : 'cidades'}
          </p>
          {rota.cidades.length === 0 ? (
            <p className="campo__ajuda">Nenhuma cidade nesta rota.</p>
          ) : (
            grupos.map((g) => (
              <section key={g.uf} className="cidades-rota__grupo" aria-label={`Cidades de ${g.uf}`}>
                <h3 className="cidades-rota__uf">
                  {nomeDaUf(g.uf)} ({g.uf}) <span>· {g.cidades.length}</span>
                </h3>
                <ul className="cidades-rota__lista">
                  {g.cidades.map((c) => (
                    <li key={c.id}>
                      <MapPin size={15} aria-hidden="true" />
                      {c.nome}
                    </li>
                  ))}
                </ul>
              </section>
            ))
          )}
        </>
      )}
    </Modal>
  );
}
