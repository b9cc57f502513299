/**
 * 'Exportar pendências': the file a phone writes when it cannot sync (its queue, receipts inside),
 * sent by WhatsApp, e-mail or cable and imported by an admin (POST /api/sync/importar). The client
 * builds it and previews it; the server validates it and replays it with the batch sync's code.
 *
 * Each operation is exactly what the batch sends ({ id, tipo, seq, dados }: shared/sync/operacoes.ts),
 * so the import runs the same schemas, rules and operation log (the same ids) as a normal sync.
 * Version 1 files (apps before the sync protocol) hold { id, metodo, caminho, corpo, chaves } and are
 * still read.
 */
import { OPERACOES, ehTipoOperacao } from '../sync/operacoes';
import { z } from '../zod';

export const FORMATO_PENDENCIAS = 'sistema-de-gestao/pendencias';
/** The version this app writes. */
export const VERSAO_PENDENCIAS = 2;
/** The versions a server reads. */
export const VERSOES_PENDENCIAS_LIDAS = [1, 2] as const;
export const EXTENSAO_PENDENCIAS = 'sgp';

/** The whole file, receipts included (base64): a phone's queue with a few dozen photos fits well below it. */
export const LIMITE_PENDENCIAS_BYTES = 100 * 1024 * 1024;
export const LIMITE_PENDENCIAS_MB = LIMITE_PENDENCIAS_BYTES / (1024 * 1024);
/** Writes per file: days of work of one person, far above a real queue. */
export const MAXIMO_OPERACOES_PENDENCIAS = 5000;

const texto = (max: number, mensagem: string) => z.string({ error: mensagem }).max(max, mensagem);

export const arquivoPendenciaSchema = z.object({
  nome: texto(255, 'Nome de comprovante inválido no arquivo.'),
  tipo: texto(200, 'Tipo de comprovante inválido no arquivo.'),
  tamanho: z.number({ error: 'Tamanho de comprovante inválido no arquivo.' }).int().nonnegative(),
  base64: z.string({ error: 'Comprovante ilegível no arquivo.' }).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Comprovante ilegível no arquivo.'),
});
export type ArquivoPendencia = z.infer<typeof arquivoPendenciaSchema>;

export const operacaoPendenciaSchema = z.object({
  id: texto(100, 'Identificador de operação inválido no arquivo.').min(1, 'Identificador de operação inválido no arquivo.'),
  /** Version 2: the operation's kind, the device's sequence number and its data (amounts in centavos). */
  tipo: texto(60, 'Tipo de operação inválido no arquivo.').optional(),
  seq: z.number({ error: 'Sequência de operação inválida no arquivo.' }).int().nonnegative().optional(),
  dados: z.unknown().optional(),
  /** Version 1: the request the old app would have sent. */
  metodo: z.enum(['POST', 'PUT', 'PATCH', 'DELETE'], { error: 'Método de operação inválido no arquivo.' }).optional(),
  caminho: texto(300, 'Caminho de operação inválido no arquivo.').optional(),
  corpo: z.unknown().optional(),
  // No small cap: an old finishing carried the keys of every write of its route.
  chaves: z.array(z.string().max(200)).max(20_000).default([]),
  /** When the phone recorded it. */
  criadoEm: texto(40, 'Data de operação inválida no arquivo.'),
  /** What the phone's sync panel calls it ('Despesa: Alimentação de R$ 45,90 em Goiânia'). */
  descricao: texto(300, 'Descrição de operação inválida no arquivo.').default(''),
  /** 'erro' when the server had already refused it on the phone ('precisa de atenção'). */
  estado: z.enum(['pendente', 'erro']).default('pendente'),
  /** The first receipt (all that importers from before several receipts per expense read). */
  arquivo: arquivoPendenciaSchema.nullable().default(null),
  /** Every receipt, in order (up to 5; absent in files of older apps, which carry `arquivo` alone). */
  arquivos: z.array(arquivoPendenciaSchema).max(5, 'Comprovantes demais numa operação do arquivo.').optional(),
});
export type OperacaoPendencia = z.infer<typeof operacaoPendenciaSchema>;

export const pendenciasSchema = z.object({
  formato: z.literal(FORMATO_PENDENCIAS, { error: 'Este arquivo não é um arquivo de pendências do Sistema de Gestão.' }),
  versao: z.number({ error: 'Versão do arquivo de pendências inválida.' }).int(),
  exportadoEm: texto(40, 'Data de exportação inválida no arquivo.'),
  funcionario: z.object(
    {
      id: z.number({ error: 'Funcionário inválido no arquivo.' }).int().positive('Funcionário inválido no arquivo.'),
      nome: texto(200, 'Funcionário inválido no arquivo.'),
      email: texto(200, 'Funcionário inválido no arquivo.'),
    },
    { error: 'O arquivo não diz de qual funcionário são as pendências.' },
  ),
  dispositivo: z.string().max(200).nullable().default(null),
  versaoApp: z.string().max(100).nullable().default(null),
  operacoes: z
    .array(operacaoPendenciaSchema, { error: 'O arquivo não tem a lista de pendências.' })
    .min(1, 'O arquivo não tem nenhuma pendência.')
    .max(MAXIMO_OPERACOES_PENDENCIAS, `O arquivo tem mais de ${MAXIMO_OPERACOES_PENDENCIAS} pendências.`),
});
export type ArquivoPendencias = z.infer<typeof pendenciasSchema>;
export type ArquivoPendenciasEntrada = z.input<typeof pendenciasSchema>;

/** The kinds of write, as the preview and the result count them. */
export type TipoPendencia = 'venda' | 'visita' | 'despesa' | 'finalizacao' | 'outra';

const TIPO_DO_GRUPO = { vendas: 'venda', visitas: 'visita', despesas: 'despesa', rotas: 'finalizacao' } as const;

/** An operation of either version: its kind, or the request of an old one. */
export interface OperacaoDescrita {
  tipo?: string | undefined;
  metodo?: string | undefined;
  caminho?: string | undefined;
}

export function tipoDaPendencia(op: OperacaoDescrita): TipoPendencia {
  if (op.tipo !== undefined) return ehTipoOperacao(op.tipo) ? TIPO_DO_GRUPO[OPERACOES[op.tipo].grupo] : 'outra';
  return tipoDaRequisicao(op.metodo ?? '', op.caminho ?? '');
}

function tipoDaRequisicao(metodo: string, caminho: string): TipoPendencia {
  const c = caminho.split('?')[0]!;
  if (/^\/vendas(\/[^/]+)?$/.test(c)) return 'venda';
  if (metodo === 'POST' && /^\/rotas\/[^/]+\/cidades\/[^/]+\/visitar$/.test(c)) return 'visita';
  if (/^\/despesas(\/[^/]+)?$/.test(c)) return 'despesa';
  if (metodo === 'PATCH' && /^\/rotas\/[^/]+\/finalizar$/.test(c)) return 'finalizacao';
  return 'outra';
}

const NOMES_TIPO: Record<TipoPendencia, [string, string]> = {
  venda: ['venda', 'vendas'],
  visita: ['visita sem venda', 'visitas sem venda'],
  despesa: ['despesa', 'despesas'],
  finalizacao: ['finalização de rota', 'finalizações de rota'],
  outra: ['outro registro', 'outros registros'],
};

export const plural = (n: number, um: string, varios: string) => `${n} ${n === 1 ? um : varios}`;

/** '3 vendas, 1 visita sem venda e 2 despesas' (edits and deletions count under their kind). */
export function resumirPorTipo(operacoes: OperacaoDescrita[]): string {
  const contagem = new Map<TipoPendencia, number>();
  for (const op of operacoes) {
    const t = tipoDaPendencia(op);
    contagem.set(t, (contagem.get(t) ?? 0) + 1);
  }
  const partes = (Object.keys(NOMES_TIPO) as TipoPendencia[]).filter((t) => contagem.has(t)).map((t) => plural(contagem.get(t)!, ...NOMES_TIPO[t]));
  if (partes.length <= 1) return partes[0] ?? 'nenhum registro';
  return `${partes.slice(0, -1).join(', ')} e ${partes.at(-1)}`;
}

/** What happened to each write of an imported file. */
export type SituacaoImportada = 'aceito' | 'ja_recebido' | 'recusado' | 'retido' | 'nao_processado';

export const ROTULO_SITUACAO: Record<SituacaoImportada, string> = {
  aceito: 'Aceito',
  ja_recebido: 'Já recebido',
  recusado: 'Recusado',
  retido: 'Retido',
  nao_processado: 'Não processado',
};

export const itemImportadoSchema = z.object({
  id: z.string(),
  tipo: z.enum(['venda', 'visita', 'despesa', 'finalizacao', 'outra']),
  descricao: z.string(),
  situacao: z.enum(['aceito', 'ja_recebido', 'recusado', 'retido', 'nao_processado']),
  /** The write's HTTP status, as the phone would have got it. */
  status: z.number().nullable(),
  mensagem: z.string().nullable(),
});
export type ItemImportado = z.infer<typeof itemImportadoSchema>;

export const resultadoImportacaoSchema = z.object({
  funcionario: z.object({ id: z.number(), nome: z.string(), email: z.string() }),
  exportadoEm: z.string(),
  totais: z.object({ aceito: z.number(), ja_recebido: z.number(), recusado: z.number(), retido: z.number(), nao_processado: z.number() }),
  itens: z.array(itemImportadoSchema),
});
export type ResultadoImportacao = z.infer<typeof resultadoImportacaoSchema>;
