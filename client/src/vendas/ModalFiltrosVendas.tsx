/**
 * The admin's 'Filtrar' modal: Funcionário, Rota, the route's cities (only once a route is chosen),
 * Status da Rota, Data Início, Data Fim, 'Aplicar Filtros'.
 */
import { useState } from 'react';
import { ROTULO_STATUS_ROTA, type Rota } from '../../../shared/schemas/rotas';
import type { Usuario } from '../../../shared/schemas/usuarios';
import { Botao } from '../components/Botao';
import { Campo } from '../components/Campo';
import { Modal } from '../components/Modal';
import { FILTROS_PADRAO, type FiltrosVendas, type StatusFiltro } from './filtrosAdmin';

interface PropsModal {
  aberto: boolean;
  filtros: FiltrosVendas;
  funcionarios: Usuario[];
  rotas: Rota[];
  aoAplicar: (f: FiltrosVendas) => void;
  aoFechar: () => void;
}

export function ModalFiltrosVendas({ aberto, ...props }: PropsModal) {
  // Mounted only while open: each opening starts from the filters in use.
  return aberto ? <FormularioFiltros {...props} /> : null;
}

function FormularioFiltros({ filtros, funcionarios, rotas, aoAplicar, aoFechar }: Omit<PropsModal, 'aberto'>) {
  const [rascunho, setRascunho] = useState<FiltrosVendas>(filtros);
  const [erroDatas, setErroDatas] = useState<string | null>(null);
  const mudar = (parcial: Partial<FiltrosVendas>) => setRascunho((r) => ({ ...r, ...parcial }));

  const rotasDoFuncionario = rascunho.funcionario_id ? rotas.filter((r) => String(r.funcionario_id) === rascunho.funcionario_id) : rotas;
  const rota = rotas.find((r) => String(r.id) === rascunho.rota_id);

  function aplicar() {
    if (rascunho.data_inicio && rascunho.data_fim && rascunho.data_fim < rascunho.data_inicio) {
      setErroDatas('A data de fim não pode ser anterior à data de início.');
      return;
    }
    aoAplicar(rascunho);
  }

  function alternarCidade(id: number) {
    mudar({ cidades: rascunho.cidades.includes(id) ? rascunho.cidades.filter((c) => c !== id) : [...rascunho.cidades, id] });
  }

  return (
    <Modal
      aberto
      titulo="Filtrar vendas"
      aoFechar={aoFechar}
      rodape={
        <>
          <Botao variante="outline" onClick={() => setRascunho(FILTROS_PADRAO)}>
            Limpar
          </Botao>
          <Botao onClick={aplicar}>Aplicar Filtros</Botao>
        </>
      }
    >
      <div className="linha-campos">
        <Campo rotulo="Funcionário">
          {(p) => (
            <select
              {...p}
              className="selecao"
              value={rascunho.funcionario_id}
              onChange={(e) => {
                const funcionario = e.target.value;
                const rotaContinua = !funcionario || !rota || String(rota.funcionario_id) === funcionario;
                mudar({ funcionario_id: funcionario, ...(rotaContinua ? {} : { rota_id: '', cidades: [] }) });
              }}
            >
              <option value="">Todos</option>
              {funcionarios.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.nome}
                </option>
              ))}
            </select>
          )}
        </Campo>
        <Campo rotulo="Rota">
          {(p) => (
            <select {...p} className="selecao" value={rascunho.rota_id} onChange={(e) => mudar({ rota_id: e.target.value, cidades: [] })}>
              <option value="">Todas</option>
              {rotasDoFuncionario.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.nome}
                  {r.status !== 'ativa' ? ` (${ROTULO_STATUS_ROTA[r.status]})` : ''}
                </option>
              ))}
            </select>
          )}
        </Campo>
      </div>

      <fieldset className="filtro-cidades">
        <legend className="campo__rotulo">Cidades</legend>
        {!rota ? (
          <p className="campo__ajuda">Selecione uma rota para filtrar por cidade</p>
        ) : (
          <ul className="filtro-cidades__lista">
            {rota.cidades.map((c) => (
              <li key={c.id}>
                <label className="caixa-marcar">
                  <input type="checkbox" checked={rascunho.cidades.includes(c.id)} onChange={() => alternarCidade(c.id)} />
                  {c.nome} ({c.uf})
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>

      <Campo rotulo="Status da Rota" ajuda={rota ? 'A rota escolhida já define o status.' : undefined}>
        {(p) => (
          <select {...p} className="selecao" value={rascunho.status_rota} disabled={!!rota} onChange={(e) => mudar({ status_rota: e.target.value as StatusFiltro })}>
            <option value="ativa">Ativa</option>
            <option value="finalizada">Finalizada</option>
            <option value="cancelada">Cancelada</option>
            <option value="todas">Todas</option>
          </select>
        )}
      </Campo>

      <div className="linha-campos">
        <Campo rotulo="Data Início">
          {(p) => (
            <input
              {...p}
              className="entrada"
              type="date"
              value={rascunho.data_inicio}
              onChange={(e) => {
                setErroDatas(null);
                mudar({ data_inicio: e.target.value });
              }}
            />
          )}
        </Campo>
        <Campo rotulo="Data Fim" erro={erroDatas}>
          {(p) => (
            <input
              {...p}
              className="entrada"
              type="date"
              value={rascunho.data_fim}
              onChange={(e) => {
                setErroDatas(null);
                mudar({ data_fim: e.target.value });
              }}
            />
          )}
        </Campo>
      </div>
    </Modal>
  );
}
