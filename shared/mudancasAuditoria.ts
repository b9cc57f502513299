/**
 * What an audit row changed, in words an admin reads: only the fields that differ between
 * before and after (all of them for a creation or a deletion), each named in pt-BR with its value as the
 * screens show it (money in reais, dates dd/mm/aaaa, yes/no). Pure: the Auditoria screen and the server's CSV export share it.
 */
import { formatarData, formatarDataHora } from './dates';
import { formatarCentavos } from './money';
import { ROTULO_STATUS_APROVACAO, type StatusAprovacao } from './schemas/despesas';
import type { NomesCitados, RegistroAuditoria } from './schemas/auditoria';
import { ROTULO_STATUS_ROTA, type StatusRota } from './schemas/rotas';
import { ROTULO_TIPO, type TipoUsuario } from './schemas/usuarios';
import { contagem } from './texto';
import { descreverAparelho } from './aparelho';

export interface Mudanca {
  campo: string;
  /** null: the field did not exist before (a creation, or a figure only the result has). */
  antes: string | null;
  depois: string | null;
}

/** What a value needs besides itself: the names the page cites and the business time zone. */
export interface ContextoMudancas {
  nomes?: NomesCitados;
  fuso?: string;
}

const simNao = (v: unknown) => (v ? 'Sim' : 'Não');
const texto = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));
/** 'Ana Souza (#3)' when the page knows the name, '#3' otherwise (e.g. a route deleted since). */
const nomeOuNumero = (nomes: Record<string, string> | undefined, v: unknown) => {
  const nome = nomes?.[String(v)];
  return nome ? `${nome} (#${texto(v)})` : `#${texto(v)}`;
};
const numero = (v: unknown) => texto(v);

/** Each field the trail records: its label and how its value reads. Fields not listed are internal. */
const CAMPOS: Record<string, { rotulo: string; valor: (v: unknown, c: ContextoMudancas) => string }> = {
  nome: { rotulo: 'Nome', valor: texto },
  email: { rotulo: 'Email', valor: texto },
  tipo: { rotulo: 'Tipo', valor: (v) => ROTULO_TIPO[v as TipoUsuario] ?? texto(v) },
  ativo: { rotulo: 'Ativo', valor: simNao },
  bloqueado: { rotulo: 'Bloqueado', valor: simNao },
  funcionario_id: { rotulo: 'Funcionário', valor: (v, c) => nomeOuNumero(c.nomes?.usuarios, v) },
  status: { rotulo: 'Status', valor: (v) => ROTULO_STATUS_ROTA[v as StatusRota] ?? texto(v) },
  data_inicio: { rotulo: 'Início', valor: (v) => formatarData(v as string) },
  data_fim: { rotulo: 'Fim', valor: (v) => formatarData(v as string) },
  tem_secretario: { rotulo: 'Tem secretário', valor: simNao },
  secretario_nome: { rotulo: 'Secretário', valor: texto },
  valor_aluguel_centavos: { rotulo: 'Aluguel', valor: (v) => formatarCentavos(Number(v)) },
  observacoes: { rotulo: 'Observações', valor: texto },
  cidades: { rotulo: 'Cidades', valor: (v) => (Array.isArray(v) ? contagem(v.length, 'cidade', 'cidades') : texto(v)) },
  saldo_centavos: { rotulo: 'Saldo', valor: (v) => formatarCentavos(Number(v)) },
  valor_centavos: { rotulo: 'Valor', valor: (v) => formatarCentavos(Number(v)) },
  descricao: { rotulo: 'Descrição', valor: texto },
  rota_id: { rotulo: 'Rota', valor: (v, c) => (v === null || v === undefined ? 'Sem rota específica' : nomeOuNumero(c.nomes?.rotas, v)) },
  status_aprovacao: { rotulo: 'Aprovação', valor: (v) => ROTULO_STATUS_APROVACAO[v as StatusAprovacao] ?? texto(v) },
  motivo_rejeicao: { rotulo: 'Motivo', valor: texto },
  sessoes_encerradas: { rotulo: 'Sessões encerradas', valor: texto },
  aparelho: { rotulo: 'Aparelho', valor: (v) => (typeof v === 'string' ? descreverAparelho(v) : texto(v)) },
  // An import of 'Exportar pendências': the file and what its writes became.
  arquivo: { rotulo: 'Arquivo', valor: texto },
  exportado_em: { rotulo: 'Exportado em', valor: (v, c) => (typeof v === 'string' && c.fuso ? formatarDataHora(v, c.fuso) : texto(v)) },
  aceito: { rotulo: 'Aceitos', valor: numero },
  ja_recebido: { rotulo: 'Já recebidos', valor: numero },
  recusado: { rotulo: 'Recusados', valor: numero },
  retido: { rotulo: 'Retidos', valor: numero },
  nao_processado: { rotulo: 'Não processados', valor: numero },
};

const igual = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function descreverMudancas(r: Pick<RegistroAuditoria, 'antes' | 'depois'>, contexto: ContextoMudancas = {}): Mudanca[] {
  const antes = r.antes ?? {};
  const depois = r.depois ?? {};
  const mudancas: Mudanca[] = [];
  for (const [chave, campo] of Object.entries(CAMPOS)) {
    const temAntes = r.antes !== null && chave in antes;
    const temDepois = r.depois !== null && chave in depois;
    if (!temAntes && !temDepois) continue;
    // A creation or deletion lists every field; a change, only the ones that moved.
    if (temAntes && temDepois && igual(antes[chave], depois[chave])) continue;
    mudancas.push({ campo: campo.rotulo, antes: temAntes ? campo.valor(antes[chave], contexto) : null, depois: temDepois ? campo.valor(depois[chave], contexto) : null });
  }
  return mudancas;
}

/** One line per change: 'Nome: Rota A → Rota B', 'Valor: R$ 250,00', 'Status: Ativa → (excluída)'. */
export function linhasDasMudancas(mudancas: Mudanca[]): string[] {
  return mudancas.map((m) => {
    if (m.antes !== null && m.depois !== null) return `${m.campo}: ${m.antes} → ${m.depois}`;
    return `${m.campo}: ${m.depois ?? m.antes}`;
  });
}
