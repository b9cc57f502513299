/**
 * What the server runs for each kind of offline write (shared/sync/operacoes.ts declares the kinds):
 * the same service functions and answers as the single endpoints. A kind without an entry here is
 * a compile error.
 */
import { depois, type Talvez } from '../db/talvez';
import type { DadosValidados } from '../../../shared/sync/esquemas';
import type { TipoOperacao } from '../../../shared/sync/operacoes';
import type { CupomRecebido } from '../despesas/cupons';
import { escritaCorrigirDespesa, escritaCriarDespesa, escritaEditarDespesa, escritaExcluirDespesa } from '../despesas/escritas';
import { escritaDesfazerVisita, escritaFinalizarRota, escritaVisitar } from '../rotas/escritas';
import type { UsuarioSessao } from '../tipos';
import { RespostaVenda } from '../vendas/escritas';
import { salvarVenda } from '../vendas/servico';
import type { ContextoEscrita, RespostaEscrita } from './escritas';

export interface Execucao<T extends TipoOperacao> {
  /** Writes files (a receipt): runs on its own, in a transaction of its own (see Escrita.gravaArquivos in escritas.ts). */
  gravaArquivos?: boolean;
  /** Changes no route: the batch keeps the routes it looked up across it (see sync/escritas.ts). */
  preservaRotas?: boolean;
  executar(
    ctx: ContextoEscrita,
    usuario: UsuarioSessao,
    dados: DadosValidados<T>,
    origem: { clienteId: string },
    cupons?: readonly CupomRecebido[],
  ): Talvez<RespostaEscrita>;
}

export const EXECUCOES: { [T in TipoOperacao]: Execucao<T> } = {
  'venda.salvar': {
    preservaRotas: true,
    // At once on SQLite inside the batch's transaction (db/talvez.ts): the kind every phone queues most.
    executar: (ctx, usuario, dados, origem) =>
      depois(
        salvarVenda(ctx.db, usuario, dados, ctx.fuso, { clienteId: origem.clienteId, versaoBase: dados.versao_base }),
        ({ id, criada, recebidaEm }) => new RespostaVenda(ctx, criada ? 201 : 200, id, recebidaEm),
      ),
  },
  'visita.registrar': {
    preservaRotas: true,
    executar: (ctx, usuario, dados) =>
      escritaVisitar.executar(ctx, usuario, { rotaId: dados.rota_id, cidadeId: dados.cidade_id }, { id: dados.id, data: dados.data, registrado_em: dados.registrado_em }),
  },
  'visita.desfazer': {
    preservaRotas: true,
    executar: (ctx, usuario, dados) => escritaDesfazerVisita.executar(ctx, usuario, { rotaId: dados.rota_id, cidadeId: dados.cidade_id }, { data: dados.data }),
  },
  'rota.finalizar': {
    executar: (ctx, usuario, dados) => escritaFinalizarRota.executar(ctx, usuario, { id: dados.rota_id }, undefined),
  },
  'despesa.criar': {
    gravaArquivos: true,
    preservaRotas: true,
    executar: (ctx, usuario, dados, _origem, cupons) => escritaCriarDespesa.executar(ctx, usuario, {}, dados, cupons),
  },
  'despesa.editar': {
    gravaArquivos: true,
    preservaRotas: true,
    executar: (ctx, usuario, dados, _origem, cupons) => escritaEditarDespesa.executar(ctx, usuario, { id: dados.id }, dados, cupons),
  },
  'despesa.excluir': {
    gravaArquivos: true,
    preservaRotas: true,
    executar: (ctx, usuario, dados) => escritaExcluirDespesa.executar(ctx, usuario, { id: dados.id }, undefined),
  },
  'despesa.corrigir': {
    gravaArquivos: true,
    preservaRotas: true,
    executar: (ctx, usuario, dados, _origem, cupons) => escritaCorrigirDespesa.executar(ctx, usuario, { id: dados.id }, dados, cupons),
  },
};
