/** Routes (rotas): request and response schemas shared by the API and the forms. */
import { z } from '../zod';
import { booleano, data, dataOpcional, dinheiro, idInteiro, opcao, textoOpcional, uuidCliente } from './campos';

export const STATUS_ROTA = ['ativa', 'finalizada', 'cancelada'] as const;
export type StatusRota = (typeof STATUS_ROTA)[number];

export const ROTULO_STATUS_ROTA: Record<StatusRota, string> = {
  ativa: 'Ativa',
  finalizada: 'Finalizada',
  cancelada: 'Cancelada',
};
/** The status filters' options (Rotas, Relatórios): 'Ativas', 'Finalizadas', 'Canceladas'. */
export const ROTULO_FILTRO_STATUS_ROTA: Record<StatusRota, string> = { ativa: 'Ativas', finalizada: 'Finalizadas', cancelada: 'Canceladas' };

export const NOME_ROTA_MINIMO = 2;
export const NOME_ROTA_MAXIMO = 120;
export const MAX_CIDADES_ROTA = 300;

export const MENSAGEM_NOME_ROTA = 'O nome da rota é obrigatório e deve ter pelo menos 2 caracteres.';

const nomeRota = z
  .string({ error: MENSAGEM_NOME_ROTA })
  .max(NOME_ROTA_MAXIMO * 4, `O nome da rota deve ter no máximo ${NOME_ROTA_MAXIMO} caracteres.`)
  .trim()
  .min(NOME_ROTA_MINIMO, MENSAGEM_NOME_ROTA)
  .max(NOME_ROTA_MAXIMO, `O nome da rota deve ter no máximo ${NOME_ROTA_MAXIMO} caracteres.`);

export const rotaSalvarSchema = z.object({
  nome: nomeRota,
  funcionario_id: idInteiro('Funcionário'),
  tem_secretario: booleano('Secretário').default(false),
  secretario_nome: textoOpcional('Nome do secretário', 120),
  valor_aluguel: dinheiro('Valor do aluguel', { obrigatorio: false }),
  data_inicio: data('Data de início'),
  data_fim: data('Data de fim'),
  observacoes: textoOpcional('Observações', 2000),
  cidades: z
    .array(idInteiro('Cidade', 'f'), { error: 'Selecione pelo menos uma cidade para a rota.' })
    .min(1, 'Selecione pelo menos uma cidade para a rota.')
    .max(MAX_CIDADES_ROTA, `Uma rota pode ter no máximo ${MAX_CIDADES_ROTA} cidades.`),
});
export type RotaSalvarPedido = z.input<typeof rotaSalvarSchema>;

export const rotaFiltroSchema = z.object({
  status: z.preprocess((v) => (v === '' || v === 'todas' ? undefined : v), opcao('Status', STATUS_ROTA).optional()),
  funcionario_id: z.preprocess((v) => (v === '' ? undefined : v), idInteiro('Funcionário').optional()),
});

export const visitaSchema = z.object({
  /** Client UUID: a replayed visit is recognised. */
  id: uuidCliente('Identificador da visita').optional(),
  /** The day the visit happened (default: today in APP_TZ), so a visit replayed tomorrow counts for today. */
  data: dataOpcional('Data da visita'),
  registrado_em: z.iso.datetime({ error: 'Hora de registro inválida.' }).optional(),
});

/** Undoing a visit: the day it was marked for (required: the undo may reach the server on another day). */
export const desfazerVisitaSchema = z.object({
  data: data('Data da visita'),
});

export const desfazerVisitaRespostaSchema = z.object({
  /** False when there was no visit of that day (already undone: a replay). */
  removida: z.boolean(),
});

export const cidadesStatusFiltroSchema = z.object({ data: dataOpcional('Data') });

export const cidadeResumoSchema = z.object({ id: z.number(), nome: z.string(), uf: z.string() });
export type CidadeResumo = z.infer<typeof cidadeResumoSchema>;

export const rotaSchema = z.object({
  id: z.number(),
  nome: z.string(),
  funcionario_id: z.number(),
  funcionario_nome: z.string(),
  tem_secretario: z.boolean(),
  secretario_nome: z.string().nullable(),
  valor_aluguel: z.number(),
  data_inicio: z.string(),
  data_fim: z.string(),
  observacoes: z.string(),
  status: z.enum(STATUS_ROTA),
  cidades: z.array(cidadeResumoSchema),
  vendasHoje: z.number(),
  despesasHoje: z.number(),
  criado_em: z.string(),
  finalizada_em: z.string().nullable(),
});
export type Rota = z.infer<typeof rotaSchema>;

export const cidadeStatusSchema = z.object({
  cidade_id: z.number(),
  cidade_nome: z.string(),
  uf: z.string(),
  rota_id: z.number(),
  rota_cidade_id: z.number(),
  /** 1 when the city has a closing (sale) on the date. */
  fechada: z.union([z.literal(0), z.literal(1)]),
  visitada: z.boolean(),
  venda_id: z.string().nullable(),
});
export type CidadeStatus = z.infer<typeof cidadeStatusSchema>;

export const visitaRespostaSchema = z.object({
  visita: z.object({
    id: z.string(),
    rota_id: z.number(),
    cidade_id: z.number(),
    data: z.string(),
    recebido_em: z.string(),
  }),
});
