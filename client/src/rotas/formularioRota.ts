/**
 * The route form's rules, free of React (spec section 5): validation with the shared schema plus
 * the states rule, the city picker (results of several states merged without repeats, no city
 * twice, deselecting a state drops its cities), the grouping by state and the tag preview.
 */
import { centavosParaReais, lerValorDigitado } from '../../../shared/money';
import { formatarNumero } from '../../../shared/numeros';
import { rotaSalvarSchema, type CidadeResumo, type Rota } from '../../../shared/schemas/rotas';
import { errosPorCampo } from '../components/errosDeFormulario';

export const MENSAGEM_ESTADOS = 'Selecione pelo menos um estado para a rota.';
export const MENSAGEM_DATAS_INVERTIDAS = 'A data de fim não pode ser anterior à data de início.';
/** Spec section 9: the form previews at most 6 cities as tags. */
export const TAGS_NA_PREVIA = 6;
export { BUSCA_MINIMA_CIDADE, mesclarResultados, podeBuscarCidades } from './buscaCidades';

export interface FormularioRota {
  nome: string;
  funcionario_id: string;
  data_inicio: string;
  data_fim: string;
  /** As typed in the pt-BR money field ('350,50', '1.280,50'); blank is 0. */
  valor_aluguel: string;
  tem_secretario: boolean;
  secretario_nome: string;
  observacoes: string;
  /** Selected UFs, in the order chosen. */
  estados: string[];
  /** Selected cities, in the order added (the route's visiting order). */
  cidades: CidadeResumo[];
}

export function formularioVazio(): FormularioRota {
  return {
    nome: '',
    funcionario_id: '',
    data_inicio: '',
    data_fim: '',
    valor_aluguel: '',
    tem_secretario: false,
    secretario_nome: '',
    observacoes: '',
    estados: [],
    cidades: [],
  };
}

/** The form for editing `rota`: the states of its cities come preselected. */
export function formularioDaRota(rota: Rota): FormularioRota {
  return {
    nome: rota.nome,
    funcionario_id: String(rota.funcionario_id),
    data_inicio: rota.data_inicio,
    data_fim: rota.data_fim,
    valor_aluguel: rota.valor_aluguel ? textoDoValor(rota.valor_aluguel) : '',
    tem_secretario: rota.tem_secretario,
    secretario_nome: rota.secretario_nome ?? '',
    observacoes: rota.observacoes,
    estados: [...new Set(rota.cidades.map((c) => c.uf))],
    cidades: rota.cidades.map(({ id, nome, uf }) => ({ id, nome, uf })),
  };
}

/** An amount as the money field shows it: 1280.5 -> '1.280,50'. */
export function textoDoValor(reais: number): string {
  return formatarNumero(reais, 2);
}

/** The field's text written back as pt-BR once it is left ('1280,5' -> '1.280,50'); anything unreadable stays as typed. */
export function valorReescrito(texto: string): string {
  const valor = lerValorDigitado(texto);
  return valor === null || texto.trim() === '' ? texto : textoDoValor(valor);
}

/** True when closing would lose something the person typed or picked. */
export function formularioAlterado(inicial: FormularioRota, atual: FormularioRota): boolean {
  const normalizar = (f: FormularioRota) => ({
    ...f,
    nome: f.nome.trim(),
    secretario_nome: f.tem_secretario ? f.secretario_nome.trim() : '',
    observacoes: f.observacoes.trim(),
    estados: [...f.estados].sort(),
    cidades: f.cidades.map((c) => c.id),
  });
  return JSON.stringify(normalizar(inicial)) !== JSON.stringify(normalizar(atual));
}

/** The body of POST /rotas and PUT /rotas/:id as the client sends it (money in reais). */
export interface PedidoRota {
  nome: string;
  funcionario_id: number;
  tem_secretario: boolean;
  secretario_nome: string;
  valor_aluguel: number;
  data_inicio: string;
  data_fim: string;
  observacoes: string;
  cidades: number[];
}

export type ResultadoValidacao = { ok: true; pedido: PedidoRota } | { ok: false; erros: Record<string, string> };

/** Checks the form with the API's own schema plus the form-only rules; on success, the request body. */
export function validarFormulario(form: FormularioRota): ResultadoValidacao {
  const bruto = {
    nome: form.nome,
    funcionario_id: form.funcionario_id,
    tem_secretario: form.tem_secretario,
    secretario_nome: form.tem_secretario ? form.secretario_nome : '',
    // Read as every money field reads it (shared/money.ts); unreadable text goes on for the schema's message.
    valor_aluguel: lerValorDigitado(form.valor_aluguel) ?? form.valor_aluguel,
    data_inicio: form.data_inicio,
    data_fim: form.data_fim,
    observacoes: form.observacoes,
    cidades: form.cidades.map((c) => c.id),
  };
  const r = rotaSalvarSchema.safeParse(bruto);
  const erros = r.success ? {} : errosPorCampo(r.error);
  if (form.estados.length === 0) erros.estados = MENSAGEM_ESTADOS;
  if (!erros.data_inicio && !erros.data_fim && form.data_fim < form.data_inicio) erros.data_fim = MENSAGEM_DATAS_INVERTIDAS;
  if (!r.success || Object.keys(erros).length > 0) return { ok: false, erros };
  const d = r.data;
  return {
    ok: true,
    pedido: {
      nome: d.nome,
      funcionario_id: d.funcionario_id,
      tem_secretario: d.tem_secretario,
      secretario_nome: d.tem_secretario ? d.secretario_nome : '',
      // The schema gave centavos; the API speaks reais.
      valor_aluguel: centavosParaReais(d.valor_aluguel),
      data_inicio: d.data_inicio,
      data_fim: d.data_fim,
      observacoes: d.observacoes,
      cidades: d.cidades,
    },
  };
}

/** Adds a city unless it is already there (a city cannot be added twice). */
export function adicionarCidade(cidades: CidadeResumo[], cidade: CidadeResumo): CidadeResumo[] {
  return cidades.some((c) => c.id === cidade.id) ? cidades : [...cidades, cidade];
}

export function removerCidade(cidades: CidadeResumo[], id: number): CidadeResumo[] {
  return cidades.filter((c) => c.id !== id);
}

/** Selects or deselects a state; deselecting drops that state's cities. */
export function alternarEstado(form: Pick<FormularioRota, 'estados' | 'cidades'>, uf: string): Pick<FormularioRota, 'estados' | 'cidades'> {
  if (form.estados.includes(uf)) {
    return { estados: form.estados.filter((e) => e !== uf), cidades: form.cidades.filter((c) => c.uf !== uf) };
  }
  return { estados: [...form.estados, uf], cidades: form.cidades };
}

export interface GrupoEstado {
  uf: string;
  cidades: CidadeResumo[];
}

/** Cities grouped by state, states in alphabetical order, cities in their route order. */
export function agruparPorEstado(cidades: CidadeResumo[]): GrupoEstado[] {
  const grupos = new Map<string, CidadeResumo[]>();
  for (const c of cidades) grupos.set(c.uf, [...(grupos.get(c.uf) ?? []), c]);
  return [...grupos.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([uf, lista]) => ({ uf, cidades: lista }));
}

/** The first `limite` cities and how many more there are ('+N'). */
export function previaDeCidades<T>(cidades: T[], limite: number): { visiveis: T[]; restantes: number } {
  return { visiveis: cidades.slice(0, limite), restantes: Math.max(0, cidades.length - limite) };
}
