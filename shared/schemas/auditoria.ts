/**
 * The audit trail: every admin action that changes money, people or routes, recorded
 * append-only with who, when, what and the state before and after.
 */
import { z } from '../zod';
import { dataOpcional, idInteiro, opcao } from './campos';
import { camposPaginacao, camposRespostaPaginada } from './paginacao';

export const ACOES_AUDITORIA = [
  'saldo.creditar',
  'despesa.aprovar',
  'despesa.rejeitar',
  'rota.criar',
  'rota.editar',
  'rota.cancelar',
  'rota.reabrir',
  'rota.excluir',
  'rota.acertar',
  'rota.aceitar_tardio',
  'rota.recusar_tardio',
  'usuario.criar',
  'usuario.editar',
  'usuario.ativar',
  'usuario.desativar',
  'usuario.desbloquear',
  'usuario.senha',
  'usuario.encerrar_sessoes',
  'pendencias.importar',
] as const;
export type AcaoAuditoria = (typeof ACOES_AUDITORIA)[number];

export const ROTULO_ACAO_AUDITORIA: Record<AcaoAuditoria, string> = {
  'saldo.creditar': 'Crédito no saldo',
  'despesa.aprovar': 'Despesa aprovada',
  'despesa.rejeitar': 'Despesa rejeitada',
  'rota.criar': 'Rota criada',
  'rota.editar': 'Rota editada',
  'rota.cancelar': 'Rota cancelada',
  'rota.reabrir': 'Rota reaberta',
  'rota.excluir': 'Rota excluída',
  'rota.acertar': 'Acerto da rota',
  'rota.aceitar_tardio': 'Registro tardio aceito',
  'rota.recusar_tardio': 'Registro tardio recusado',
  'usuario.criar': 'Usuário criado',
  'usuario.editar': 'Usuário editado',
  'usuario.ativar': 'Usuário ativado',
  'usuario.desativar': 'Usuário desativado',
  'usuario.desbloquear': 'Usuário desbloqueado',
  'usuario.senha': 'Senha alterada pelo admin',
  'usuario.encerrar_sessoes': 'Sessões encerradas',
  'pendencias.importar': 'Pendências importadas',
};

/** What a row is about. 'venda': no admin action changes a sale yet; such a row is named like the others. */
export const ALVOS_AUDITORIA = ['usuario', 'rota', 'despesa', 'venda'] as const;
export type AlvoAuditoria = (typeof ALVOS_AUDITORIA)[number];

export const REGISTROS_AUDITORIA_POR_PAGINA = 50;

export const auditoriaFiltroSchema = z.object({
  admin_id: z.preprocess((v) => (v === '' ? undefined : v), idInteiro('Administrador').optional()),
  acao: z.preprocess((v) => (v === '' ? undefined : v), opcao('Ação', ACOES_AUDITORIA, 'f').optional()),
  data_inicio: dataOpcional('Data inicial'),
  data_fim: dataOpcional('Data final'),
  ...camposPaginacao(REGISTROS_AUDITORIA_POR_PAGINA),
});
export type AuditoriaFiltro = z.input<typeof auditoriaFiltroSchema>;

export const registroAuditoriaSchema = z.object({
  id: z.number(),
  admin_id: z.number(),
  admin_nome: z.string(),
  acao: z.enum(ACOES_AUDITORIA),
  alvo_tipo: z.enum(ALVOS_AUDITORIA),
  alvo_id: z.string(),
  /** The person's or the route's name today (a deleted route: its name when deleted); null for an expense or a sale. */
  alvo_nome: z.string().nullable(),
  /**
   * The record in words, as the screen shows it ('Despesa de Ana Souza · Alimentação · R$ 48,00 · 03/12/2026');
   * one that no longer exists ends in '(excluída)'. Written by server/src/auditoria/descricao.ts.
   */
  alvo_descricao: z.string(),
  /** The app's address that opens the record (shared/enderecosDasTelas.ts); null when it no longer exists. */
  alvo_link: z.string().nullable(),
  /** The state before (null when created) and after (null when deleted): fields of the record, money in centavos. */
  antes: z.record(z.string(), z.unknown()).nullable(),
  depois: z.record(z.string(), z.unknown()).nullable(),
  criado_em: z.string(),
});
export type RegistroAuditoria = z.infer<typeof registroAuditoriaSchema>;

/** Today's names of the employees and routes the page's before/after cite by id ('funcionario_id', 'rota_id'). */
export const nomesCitadosSchema = z.object({ usuarios: z.record(z.string(), z.string()), rotas: z.record(z.string(), z.string()) });
export type NomesCitados = z.infer<typeof nomesCitadosSchema>;

export const listaAuditoriaSchema = z.object({ registros: z.array(registroAuditoriaSchema), nomes: nomesCitadosSchema, ...camposRespostaPaginada });
export type ListaAuditoria = z.infer<typeof listaAuditoriaSchema>;
