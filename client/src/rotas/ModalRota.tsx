/**
 * 'Nova Rota' / 'Editar Rota' (spec sections 2 and 5): the route's data, its states and cities
 * (searched per selected state from 2 letters, grouped by state, a preview of up to 6 tags), the
 * validation texts of the spec, and a confirmation before closing with data that would be lost.
 */
import { Check, MapPin, Plus, Search, X } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { toast } from '../components/avisos';
import type { CidadeResumo, Rota } from '../../../shared/schemas/rotas';
import { nomeDaUf } from '../../../shared/ufs';
import { mensagemDeErro } from '../api/client';
import { Botao } from '../components/Botao';
import { Campo } from '../components/Campo';
import { useFecharFormulario } from '../components/fecharFormulario';
import { Modal } from '../components/Modal';
import { useApontarCampoRecusado } from '../components/RecusaDoFormulario';
import { useFuncionarios } from '../usuarios/consultas';
import { useBuscaCidades, useCriarRota, useEditarRota, useEstados } from './consultas';
import {
  adicionarCidade,
  agruparPorEstado,
  alternarEstado,
  BUSCA_MINIMA_CIDADE,
  formularioAlterado,
  formularioDaRota,
  formularioVazio,
  podeBuscarCidades,
  previaDeCidades,
  removerCidade,
  TAGS_NA_PREVIA,
  validarFormulario,
  valorReescrito,
  type FormularioRota,
} from './formularioRota';
import { EntradaDinheiro } from '../components/EntradaDinheiro';

/** Wait for a pause in typing before searching (one request per state each time). */
const ESPERA_BUSCA_MS = 300;

export function ModalRota({ rota, aoFechar }: { rota: Rota | null; aoFechar: () => void }) {
  const edicao = rota !== null;
  const [inicial] = useState<FormularioRota>(() => (rota ? formularioDaRota(rota) : formularioVazio()));
  const [form, setForm] = useState<FormularioRota>(inicial);
  const [erros, setErros] = useState<Record<string, string>>({});
  const [erroServidor, setErroServidor] = useState<string | null>(null);
  const [termo, setTermo] = useState('');
  const [termoBusca, setTermoBusca] = useState('');
  const { data: funcionarios = [] } = useFuncionarios();
  const { data: estados = [], isLoading: carregandoEstados } = useEstados();
  const busca = useBuscaCidades(termoBusca, form.estados);
  const criar = useCriarRota();
  const editar = useEditarRota();
  const salvando = criar.isPending || editar.isPending;
  const { raiz, apontarCampoRecusado } = useApontarCampoRecusado();
  const { pedirFechar, pergunta } = useFecharFormulario({ alterado: formularioAlterado(inicial, form), bloqueado: salvando, aoFechar });

  useEffect(() => {
    const espera = setTimeout(() => setTermoBusca(termo), ESPERA_BUSCA_MS);
    return () => clearTimeout(espera);
  }, [termo]);

  function limparErro(...campos: string[]) {
    if (campos.some((c) => erros[c])) setErros((atual) => Object.fromEntries(Object.entries(atual).filter(([c]) => !campos.includes(c))));
  }

  function mudar<K extends keyof FormularioRota>(campo: K, valor: FormularioRota[K]) {
    setForm((f) => ({ ...f, [campo]: valor }));
    limparErro(campo, ...(campo === 'data_inicio' ? ['data_fim'] : []));
  }

  function alternar(uf: string) {
    setForm((f) => ({ ...f, ...alternarEstado(f, uf) }));
    limparErro('estados');
  }

  function adicionar(cidade: CidadeResumo) {
    setForm((f) => ({ ...f, cidades: adicionarCidade(f.cidades, cidade) }));
    limparErro('cidades');
  }

  async function salvar(evento: FormEvent) {
    evento.preventDefault();
    setErroServidor(null);
    const r = validarFormulario(form);
    if (!r.ok) {
      setErros(r.erros);
      apontarCampoRecusado();
      return;
    }
    try {
      if (rota) {
        await editar.mutateAsync({ id: rota.id, pedido: r.pedido });
        toast.success('Rota atualizada com sucesso!');
      } else {
        await criar.mutateAsync(r.pedido);
        toast.success('Rota criada com sucesso!');
      }
      aoFechar();
    } catch (erro) {
      setErroServidor(mensagemDeErro(erro, 'Erro ao salvar rota'));
    }
  }

  // The employee of an edited route stays selectable even if no longer in the active list.
  const opcoesFuncionario =
    rota && !funcionarios.some((f) => f.id === rota.funcionario_id) ? [...funcionarios, { id: rota.funcionario_id, nome: rota.funcionario_nome }] : funcionarios;
  const nomeEstado = new Map(estados.map((e) => [e.uf, e.nome]));
  const buscando = podeBuscarCidades(termoBusca, form.estados);
  // Results of a state deselected while the answer was on its way are left out.
  const resultados = (busca.data ?? []).filter((c) => form.estados.includes(c.uf));
  const selecionadas = new Set(form.cidades.map((c) => c.id));
  const previa = previaDeCidades(form.cidades, TAGS_NA_PREVIA);
  const ajudaBusca =
    form.estados.length === 0
      ? 'Selecione pelo menos um estado para buscar cidades.'
      : `Digite pelo menos ${BUSCA_MINIMA_CIDADE} letras. A busca percorre ${form.estados.length === 1 ? 'o estado selecionado' : `os ${form.estados.length} estados selecionados`}.`;

  return (
    <>
      <Modal
        aberto
        tamanho="grande"
        titulo={edicao ? 'Editar Rota' : 'Nova Rota'}
        aoFechar={pedirFechar}
        erro={erroServidor}
        rodape={
          <>
            <Botao variante="outline" onClick={pedirFechar} disabled={salvando}>
              Cancelar
            </Botao>
            <Botao type="submit" form="form-rota" carregando={salvando}>
              {salvando ? 'Salvando...' : edicao ? 'Salvar alterações' : 'Criar Rota'}
            </Botao>
          </>
        }
      >
        <form id="form-rota" ref={raiz} className="form-rota" onSubmit={salvar} noValidate>
          <div className="form-rota__coluna">
            <Campo rotulo="Nome da rota" obrigatorio erro={erros.nome}>
              {(p) => <input {...p} className="entrada" autoComplete="off" maxLength={120} value={form.nome} onChange={(e) => mudar('nome', e.target.value)} />}
            </Campo>
            <Campo rotulo="Funcionário" obrigatorio erro={erros.funcionario_id}>
              {(p) => (
                <select {...p} className="selecao" value={form.funcionario_id} onChange={(e) => mudar('funcionario_id', e.target.value)}>
                  <option value="">Selecione o funcionário</option>
                  {opcoesFuncionario.map((f) => (
                    <option key={f.id} value={f.id}>
                      {f.nome}
                    </option>
                  ))}
                </select>
              )}
            </Campo>
            <div className="linha-campos">
              <Campo rotulo="Data de início" obrigatorio erro={erros.data_inicio}>
                {(p) => <input {...p} className="entrada" type="date" value={form.data_inicio} onChange={(e) => mudar('data_inicio', e.target.value)} />}
              </Campo>
              <Campo rotulo="Data de fim" obrigatorio erro={erros.data_fim}>
                {(p) => <input {...p} className="entrada" type="date" min={form.data_inicio || undefined} value={form.data_fim} onChange={(e) => mudar('data_fim', e.target.value)} />}
              </Campo>
            </div>
            <Campo rotulo="Valor do aluguel (R$)" erro={erros.valor_aluguel} ajuda="Aluguel de sala da rota, com vírgula nos centavos (ex.: 350,50). Deixe em branco se não houver.">
              {(p) => (
                <EntradaDinheiro
                  {...p}
                  valor={form.valor_aluguel}
                  aoMudar={(texto) => mudar('valor_aluguel', texto)}
                  onBlur={() => {
                    const reescrito = valorReescrito(form.valor_aluguel);
                    if (reescrito !== form.valor_aluguel) mudar('valor_aluguel', reescrito);
                  }}
                />
              )}
            </Campo>
            <label className="caixa-marcar">
              <input
                type="checkbox"
                checked={form.tem_secretario}
                onChange={(e) => {
                  mudar('tem_secretario', e.target.checked);
                  limparErro('secretario_nome');
                }}
              />
              Tem secretário
            </label>
            {form.tem_secretario && (
              <Campo rotulo="Nome do secretário" erro={erros.secretario_nome}>
                {(p) => <input {...p} className="entrada" autoComplete="off" maxLength={120} value={form.secretario_nome} onChange={(e) => mudar('secretario_nome', e.target.value)} />}
              </Campo>
            )}
            <Campo rotulo="Observações" erro={erros.observacoes}>
              {(p) => <textarea {...p} className="area-texto" maxLength={2000} value={form.observacoes} onChange={(e) => mudar('observacoes', e.target.value)} />}
            </Campo>
          </div>

          <div className="form-rota__coluna">
            <fieldset className="estados" aria-describedby={erros.estados ? 'erro-estados' : undefined}>
              <legend className="campo__rotulo">
                Estados<span className="campo__obrigatorio"> *</span>
              </legend>
              {carregandoEstados ? (
                <p className="campo__ajuda">Carregando estados...</p>
              ) : (
                <div className="estados__lista">
                  {estados.map((e) => (
                    <label key={e.uf} className={`estado-chip${form.estados.includes(e.uf) ? ' estado-chip--marcado' : ''}`} title={e.nome}>
                      <input type="checkbox" className="sr-only" checked={form.estados.includes(e.uf)} onChange={() => alternar(e.uf)} />
                      {e.uf}
                    </label>
                  ))}
                </div>
              )}
              {erros.estados && (
                <span id="erro-estados" className="campo__erro" role="alert">
                  {erros.estados}
                </span>
              )}
            </fieldset>

            <Campo rotulo="Buscar cidade" ajuda={ajudaBusca}>
              {(p) => (
                <div className="entrada-com-icone">
                  <Search size={18} aria-hidden="true" />
                  <input
                    {...p}
                    className="entrada"
                    type="search"
                    autoComplete="off"
                    placeholder={form.estados.length ? 'Digite o nome da cidade...' : 'Selecione um estado primeiro'}
                    disabled={form.estados.length === 0}
                    value={termo}
                    onChange={(e) => setTermo(e.target.value)}
                  />
                </div>
              )}
            </Campo>
            {buscando && (
              <div className="resultados-cidades" aria-live="polite">
                {busca.isFetching && resultados.length === 0 ? (
                  <p className="campo__ajuda">Buscando...</p>
                ) : resultados.length === 0 ? (
                  <p className="campo__ajuda">Nenhuma cidade encontrada nos estados selecionados.</p>
                ) : (
                  <ul aria-label="Cidades encontradas">
                    {resultados.map((c) => {
                      const ja = selecionadas.has(c.id);
                      return (
                        <li key={c.id}>
                          <button type="button" className="resultado-cidade" disabled={ja} onClick={() => adicionar(c)} aria-label={`${ja ? 'Já adicionada' : 'Adicionar'}: ${c.nome} (${c.uf})`}>
                            {ja ? <Check size={16} aria-hidden="true" /> : <Plus size={16} aria-hidden="true" />}
                            <span>
                              {c.nome} ({c.uf})
                            </span>
                            {ja && <span className="resultado-cidade__ja">Adicionada</span>}
                          </button>
                        </li>
                      );
                    })}
                  </ul>
                )}
              </div>
            )}

            <section className="cidades-selecionadas" aria-label="Cidades selecionadas">
              <div className="campo__rotulo">
                Cidades da rota<span className="campo__obrigatorio"> *</span> <span className="cidades-selecionadas__conta">({form.cidades.length})</span>
              </div>
              {form.cidades.length === 0 ? (
                <p className="campo__ajuda">Nenhuma cidade selecionada. Busque e adicione as cidades da rota.</p>
              ) : (
                <>
                  <div className="tags" aria-label="Prévia das cidades">
                    {previa.visiveis.map((c) => (
                      <span key={c.id} className="tag">
                        <MapPin size={12} aria-hidden="true" />
                        {c.nome}
                      </span>
                    ))}
                    {previa.restantes > 0 && <span className="tag tag--mais">+{previa.restantes}</span>}
                  </div>
                  {agruparPorEstado(form.cidades).map((g) => (
                    <div key={g.uf} className="grupo-estado">
                      <div className="grupo-estado__titulo">
                        {nomeEstado.get(g.uf) ?? nomeDaUf(g.uf)} ({g.uf}) · {g.cidades.length}
                      </div>
                      <ul className="grupo-estado__cidades">
                        {g.cidades.map((c) => (
                          <li key={c.id} className="cidade-escolhida">
                            {c.nome}
                            <button
                              type="button"
                              className="cidade-escolhida__remover"
                              onClick={() => setForm((f) => ({ ...f, cidades: removerCidade(f.cidades, c.id) }))}
                              aria-label={`Remover ${c.nome}`}
                              title={`Remover ${c.nome}`}
                            >
                              <X size={14} />
                            </button>
                          </li>
                        ))}
                      </ul>
                    </div>
                  ))}
                </>
              )}
              {erros.cidades && (
                <span className="campo__erro" role="alert">
                  {erros.cidades}
                </span>
              )}
            </section>
          </div>
        </form>
      </Modal>

      {pergunta}
    </>
  );
}
