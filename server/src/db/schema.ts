/**
 * The database, one table per entity of the spec (section 3).
 * - Money columns end in `_centavos` and hold integers.
 * - Calendar dates ('yyyy-mm-dd' in APP_TZ) are text; instants are ISO-8601 UTC text.
 * - Sales, visits and expenses are created offline, so their ids are client UUIDs (v7).
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

const agora = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export const usuarios = sqliteTable(
  'usuarios',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    nome: text('nome').notNull(),
    email: text('email').notNull(),
    senhaHash: text('senha_hash').notNull(),
    tipo: text('tipo', { enum: ['admin', 'funcionario'] }).notNull(),
    ativo: integer('ativo', { mode: 'boolean' }).notNull().default(true),
    bloqueado: integer('bloqueado', { mode: 'boolean' }).notNull().default(false),
    tentativasLogin: integer('tentativas_login').notNull().default(0),
    /** When the last block began: it lifts by itself LOGIN_BLOQUEIO_MINUTOS later (or when an admin lifts it). */
    bloqueadoEm: text('bloqueado_em'),
    /** Goes up when the password changes: tokens signed with an older version stop working. */
    sessaoVersao: integer('sessao_versao').notNull().default(0),
    dataCriacao: text('data_criacao').notNull().default(agora),
    atualizadoEm: text('atualizado_em').notNull().default(agora),
  },
  (t) => [
    uniqueIndex('usuarios_email_unico').on(t.email),
    index('usuarios_tipo_ativo').on(t.tipo, t.ativo),
    check('usuarios_tipo_valido', sql`${t.tipo} in ('admin', 'funcionario')`),
  ],
);

/**
 * Server-side sessions: the token carries the id (`sid`), so logout, a password change, deactivation
 * or an admin's 'Encerrar sessões' end it at once instead of when the JWT expires.
 */
export const sessoes = sqliteTable(
  'sessoes',
  {
    /** Random, unguessable (it is only ever compared, never listed to other users). */
    id: text('id').primaryKey(),
    usuarioId: integer('usuario_id')
      .notNull()
      .references(() => usuarios.id),
    criadaEm: text('criada_em').notNull().default(agora),
    expiraEm: text('expira_em').notNull(),
    revogadaEm: text('revogada_em'),
    /** What signed in (User-Agent, shortened), for the admin's list. */
    descricao: text('descricao').notNull().default(''),
  },
  (t) => [index('sessoes_usuario').on(t.usuarioId, t.revogadaEm)],
);

/**
 * Login attempts per client address in the current window (LOGIN_RATE_LIMIT a minute), counted here
 * rather than in a process's memory so that every app process behind the proxy counts the same
 * attempts. One row per address; rows of windows long over are deleted.
 */
export const tentativasLoginPorEndereco = sqliteTable('tentativas_login_endereco', {
  endereco: text('endereco').primaryKey(),
  /** Start of the current window, in ms since the epoch. */
  inicioMs: integer('inicio_ms').notNull(),
  tentativas: integer('tentativas').notNull(),
});

export const estados = sqliteTable('estados', {
  uf: text('uf').primaryKey(),
  codigoIbge: integer('codigo_ibge').notNull().unique(),
  nome: text('nome').notNull(),
});

export const cidades = sqliteTable(
  'cidades',
  {
    /** The 7-digit IBGE code. */
    id: integer('id').primaryKey(),
    nome: text('nome').notNull(),
    /** Lower-case name without accents, for accent-insensitive search ('sao' finds 'São Paulo'). */
    nomeBusca: text('nome_busca').notNull(),
    uf: text('uf')
      .notNull()
      .references(() => estados.uf),
  },
  (t) => [index('cidades_uf_nome_busca').on(t.uf, t.nomeBusca), index('cidades_nome_busca').on(t.nomeBusca)],
);

export const rotas = sqliteTable(
  'rotas',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    nome: text('nome').notNull(),
    funcionarioId: integer('funcionario_id')
      .notNull()
      .references(() => usuarios.id),
    temSecretario: integer('tem_secretario', { mode: 'boolean' }).notNull().default(false),
    secretarioNome: text('secretario_nome'),
    valorAluguelCentavos: integer('valor_aluguel_centavos').notNull().default(0),
    dataInicio: text('data_inicio').notNull(),
    dataFim: text('data_fim').notNull(),
    observacoes: text('observacoes').notNull().default(''),
    status: text('status', { enum: ['ativa', 'finalizada', 'cancelada'] })
      .notNull()
      .default('ativa'),
    criadoPor: integer('criado_por').references(() => usuarios.id),
    criadoEm: text('criado_em').notNull().default(agora),
    atualizadoEm: text('atualizado_em').notNull().default(agora),
    finalizadaEm: text('finalizada_em'),
    /** When an admin cancelled it (cleared when reopened): the end of its active period. */
    canceladaEm: text('cancelada_em'),
  },
  (t) => [
    index('rotas_funcionario_status').on(t.funcionarioId, t.status),
    index('rotas_status').on(t.status),
    check('rotas_status_valido', sql`${t.status} in ('ativa', 'finalizada', 'cancelada')`),
    check('rotas_aluguel_nao_negativo', sql`${t.valorAluguelCentavos} >= 0`),
  ],
);

export const rotaCidades = sqliteTable(
  'rota_cidades',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    rotaId: integer('rota_id')
      .notNull()
      .references(() => rotas.id, { onDelete: 'cascade' }),
    cidadeId: integer('cidade_id')
      .notNull()
      .references(() => cidades.id),
    ordem: integer('ordem').notNull().default(0),
  },
  (t) => [uniqueIndex('rota_cidades_unica').on(t.rotaId, t.cidadeId), index('rota_cidades_cidade').on(t.cidadeId)],
);

/** A city marked visited on a date (with or without a sale). One per route, city and date. */
export const visitas = sqliteTable(
  'visitas',
  {
    id: text('id').primaryKey(),
    rotaId: integer('rota_id')
      .notNull()
      .references(() => rotas.id),
    cidadeId: integer('cidade_id')
      .notNull()
      .references(() => cidades.id),
    funcionarioId: integer('funcionario_id')
      .notNull()
      .references(() => usuarios.id),
    data: text('data').notNull(),
    /** When the device recorded it (client clock). */
    registradoEm: text('registrado_em').notNull(),
    /** When the server received it. */
    recebidoEm: text('recebido_em').notNull().default(agora),
  },
  (t) => [uniqueIndex('visitas_rota_cidade_data').on(t.rotaId, t.cidadeId, t.data), index('visitas_funcionario_data').on(t.funcionarioId, t.data)],
);

/** A city's daily closing: one record per route, city and date. */
export const vendas = sqliteTable(
  'vendas',
  {
    id: text('id').primaryKey(),
    rotaId: integer('rota_id')
      .notNull()
      .references(() => rotas.id),
    cidadeId: integer('cidade_id')
      .notNull()
      .references(() => cidades.id),
    funcionarioId: integer('funcionario_id')
      .notNull()
      .references(() => usuarios.id),
    dataVenda: text('data_venda').notNull(),
    dinheiroCentavos: integer('dinheiro_centavos').notNull().default(0),
    pixCentavos: integer('pix_centavos').notNull().default(0),
    cartaoCentavos: integer('cartao_centavos').notNull().default(0),
    linkCentavos: integer('link_centavos').notNull().default(0),
    /** A count of boletos, never money. */
    boletos: integer('boletos').notNull().default(0),
    observacoes: text('observacoes').notNull().default(''),
    registradoEm: text('registrado_em').notNull(),
    recebidoEm: text('recebido_em').notNull().default(agora),
    atualizadoEm: text('atualizado_em').notNull().default(agora),
    /** Bumped by every change: an edit names the version it was based on (docs/decisions/vendas.md, 'Conflitos'). */
    versao: integer('versao').notNull().default(1),
    /** The device (client id) whose operation last changed it; null for rows written before the sync protocol. */
    alteradaPorCliente: text('alterada_por_cliente'),
  },
  (t) => [
    uniqueIndex('vendas_rota_cidade_data').on(t.rotaId, t.cidadeId, t.dataVenda),
    index('vendas_funcionario_data').on(t.funcionarioId, t.dataVenda),
    index('vendas_data').on(t.dataVenda),
    index('vendas_cidade').on(t.cidadeId),
    check(
      'vendas_valores_nao_negativos',
      sql`${t.dinheiroCentavos} >= 0 and ${t.pixCentavos} >= 0 and ${t.cartaoCentavos} >= 0 and ${t.linkCentavos} >= 0 and ${t.boletos} >= 0`,
    ),
  ],
);

export const despesas = sqliteTable(
  'despesas',
  {
    id: text('id').primaryKey(),
    rotaId: integer('rota_id')
      .notNull()
      .references(() => rotas.id),
    cidadeId: integer('cidade_id')
      .notNull()
      .references(() => cidades.id),
    funcionarioId: integer('funcionario_id')
      .notNull()
      .references(() => usuarios.id),
    dataDespesa: text('data_despesa').notNull(),
    tipo: text('tipo', { enum: ['alimentacao', 'hospedagem', 'combustivel', 'pedagio', 'aluguel_sala', 'outro'] }).notNull(),
    tipoOutro: text('tipo_outro'),
    valorCentavos: integer('valor_centavos').notNull(),
    descricao: text('descricao').notNull().default(''),
    /** Random file name under DATA_DIR/uploads; null without a receipt. */
    arquivoCupom: text('arquivo_cupom'),
    cupomMime: text('cupom_mime'),
    cupomNomeOriginal: text('cupom_nome_original'),
    cupomTamanho: integer('cupom_tamanho'),
    statusAprovacao: text('status_aprovacao', { enum: ['pendente', 'aprovada', 'rejeitada'] })
      .notNull()
      .default('pendente'),
    motivoRejeicao: text('motivo_rejeicao'),
    avaliadoPor: integer('avaliado_por').references(() => usuarios.id),
    avaliadoEm: text('avaliado_em'),
    registradoEm: text('registrado_em').notNull(),
    recebidoEm: text('recebido_em').notNull().default(agora),
    atualizadoEm: text('atualizado_em').notNull().default(agora),
    /** Soft delete: the ledger keeps pointing at it, and a replayed create cannot resurrect it. */
    excluidaEm: text('excluida_em'),
    /** The NFC-e's 44-char chave de acesso read from the receipt's QR or typed; null without one. */
    chaveNfce: text('chave_nfce'),
    /**
     * When a route's acerto charged this rejected expense back to the employee (a devolucao in the ledger:
     * the company does not bear it); cleared when it is approved afterwards (a debito moves it back).
     */
    cobradaNoAcertoEm: text('cobrada_no_acerto_em'),
  },
  (t) => [
    index('despesas_funcionario_data').on(t.funcionarioId, t.dataDespesa),
    // By route, covering the totals of a route or of the routes of a status (no read of each row).
    index('despesas_rota').on(t.rotaId, t.tipo, t.excluidaEm, t.valorCentavos),
    index('despesas_data').on(t.dataDespesa),
    // The admin's list in its order (newest first): a page is the index's first rows.
    index('despesas_lista').on(t.dataDespesa, t.registradoEm, t.id).where(sql`${t.excluidaEm} is null`),
    // The totals per type of the whole table, from the index alone.
    index('despesas_tipo_valor').on(t.tipo, t.excluidaEm, t.valorCentavos),
    check('despesas_valor_nao_negativo', sql`${t.valorCentavos} >= 0`),
    // One NFC-e, one live expense: the last line of defence behind the service's check.
    uniqueIndex('despesas_chave_nfce').on(t.chaveNfce).where(sql`${t.chaveNfce} is not null and ${t.excluidaEm} is null`),
  ],
);

/**
 * An expense's receipts: several per expense (the NFC-e and the card slip), at
 * most MAXIMO_CUPONS_POR_DESPESA, in the order they were attached. The files are under
 * DATA_DIR/uploads by their random name. despesas.arquivo_cupom and its three columns mirror the
 * first one for one release (docs/decisions/comprovantes.md, 'Vários por despesa').
 */
export const despesaCupons = sqliteTable(
  'despesa_cupons',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    despesaId: text('despesa_id')
      .notNull()
      .references(() => despesas.id),
    ordem: integer('ordem').notNull(),
    /** Random file name under DATA_DIR/uploads. */
    arquivo: text('arquivo').notNull(),
    mime: text('mime').notNull(),
    nomeOriginal: text('nome_original').notNull(),
    tamanho: integer('tamanho').notNull(),
    criadoEm: text('criado_em').notNull().default(agora),
  },
  (t) => [uniqueIndex('despesa_cupons_despesa_ordem').on(t.despesaId, t.ordem), uniqueIndex('despesa_cupons_arquivo').on(t.arquivo)],
);

/** The balance ledger: append-only, each row chained to the previous one of the same employee. */
export const movimentacoesSaldo = sqliteTable(
  'movimentacoes_saldo',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    funcionarioId: integer('funcionario_id')
      .notNull()
      .references(() => usuarios.id),
    tipo: text('tipo', { enum: ['credito', 'debito', 'devolucao', 'acerto'] }).notNull(),
    /** Always positive (an acerto may be zero: a settlement with no cash); the tipo (and an acerto's sentido) says the direction. */
    valorCentavos: integer('valor_centavos').notNull(),
    saldoAnteriorCentavos: integer('saldo_anterior_centavos').notNull(),
    saldoNovoCentavos: integer('saldo_novo_centavos').notNull(),
    descricao: text('descricao').notNull().default(''),
    adminId: integer('admin_id').references(() => usuarios.id),
    rotaId: integer('rota_id').references(() => rotas.id),
    despesaId: text('despesa_id').references(() => despesas.id),
    /**
     * An acerto's direction: 'devolvido' (the employee handed the company's money back: the balance goes down) or
     * 'pago' (the company paid the employee: it goes up). Null for every other type.
     */
    sentido: text('sentido', { enum: ['devolvido', 'pago'] }),
    dataMovimentacao: text('data_movimentacao').notNull().default(agora),
  },
  (t) => [
    index('movimentacoes_funcionario').on(t.funcionarioId, t.id),
    index('movimentacoes_data').on(t.dataMovimentacao),
    index('movimentacoes_despesa').on(t.despesaId),
    // Credits per route (reports) would otherwise scan the whole ledger.
    index('movimentacoes_rota_tipo').on(t.rotaId, t.tipo),
    check('movimentacoes_valor_positivo', sql`${t.valorCentavos} > 0 or (${t.tipo} = 'acerto' and ${t.valorCentavos} = 0)`),
    check('movimentacoes_tipo_valido', sql`${t.tipo} in ('credito', 'debito', 'devolucao', 'acerto')`),
    check('movimentacoes_sentido_do_acerto', sql`(${t.tipo} = 'acerto') = (${t.sentido} is not null)`),
  ],
);

/**
 * What each phone last said about its own queue (X-Dispositivo, X-Versao-App, X-Fila... on every
 * request): one row per install and signed-in employee, so a phone handed to a colleague never
 * overwrites the first one's report, and a forged device id only ever writes the sender's own row.
 */
export const dispositivos = sqliteTable(
  'dispositivos',
  {
    /** Random UUID made once per install of the app. */
    dispositivoId: text('dispositivo_id').notNull(),
    usuarioId: integer('usuario_id')
      .notNull()
      .references(() => usuarios.id),
    versao: text('versao').notNull(),
    filaVendas: integer('fila_vendas').notNull().default(0),
    filaVisitas: integer('fila_visitas').notNull().default(0),
    filaDespesas: integer('fila_despesas').notNull().default(0),
    filaRotas: integer('fila_rotas').notNull().default(0),
    /** When the oldest waiting write was made (server clock: now minus the age the phone reported). */
    maisAntigoEm: text('mais_antigo_em'),
    ultimaSyncEm: text('ultima_sync_em'),
    vistoEm: text('visto_em').notNull(),
  },
  (t) => [primaryKey({ columns: [t.dispositivoId, t.usuarioId] }), index('dispositivos_usuario').on(t.usuarioId)],
);

/**
 * The operation log (docs/decisions/sincronizacao.md, 'Exatamente uma vez'): every queued operation the server applied, with
 * its device, the device's sequence number and its outcome, written in the same transaction as its
 * effect. A replay (lost answer, second tab, re-imported rescue file) is answered from here and
 * touches nothing. Refusals are not recorded: they change nothing, and the person may correct and
 * send the same operation again.
 */
export const operacoesAplicadas = sqliteTable('operacoes_aplicadas', {
  id: text('id').primaryKey(),
  usuarioId: integer('usuario_id').notNull(),
  clienteId: text('cliente_id').notNull(),
  seq: integer('seq').notNull(),
  tipo: text('tipo').notNull(),
  status: integer('status').notNull(),
  /** The receipt the phone shows ('Recebido pelo servidor às ...'). */
  recebidoEm: text('recebido_em'),
});

/**
 * A phone's queued write that reached a route its employee had already finished (another of their phones,
 * or a rescue file): held, never applied by itself, until an admin accepts it (it is then run as it would
 * have been before the finish, and the route's figures move) or refuses it with a reason the phone shows.
 * Its operation is recorded in operacoes_aplicadas with status 202, so a replay is answered, not held twice.
 */
export const operacoesTardias = sqliteTable(
  'operacoes_tardias',
  {
    /** The sync operation's id. */
    operacaoId: text('operacao_id').primaryKey(),
    usuarioId: integer('usuario_id')
      .notNull()
      .references(() => usuarios.id),
    rotaId: integer('rota_id')
      .notNull()
      .references(() => rotas.id),
    clienteId: text('cliente_id').notNull(),
    seq: integer('seq').notNull(),
    /** The operation's kind (shared/sync/operacoes.ts) and its checked data, as JSON. */
    tipo: text('tipo').notNull(),
    dados: text('dados').notNull(),
    /** Its receipts, stored under their own names until the decision (JSON: nome, mime, nome_original, tamanho). */
    arquivos: text('arquivos').notNull().default('[]'),
    recebidaEm: text('recebida_em').notNull().default(agora),
    situacao: text('situacao', { enum: ['pendente', 'aceita', 'recusada'] })
      .notNull()
      .default('pendente'),
    motivo: text('motivo'),
    decididaPor: integer('decidida_por').references(() => usuarios.id),
    decididaEm: text('decidida_em'),
  },
  (t) => [
    index('operacoes_tardias_rota').on(t.rotaId, t.situacao),
    index('operacoes_tardias_usuario').on(t.usuarioId, t.recebidaEm),
    check('operacoes_tardias_situacao_valida', sql`${t.situacao} in ('pendente', 'aceita', 'recusada')`),
  ],
);

/**
 * The audit trail: one row per admin action that changes money, people or routes, with who,
 * when, what and the state before and after (JSON). Append-only: triggers in the migration refuse
 * UPDATE and DELETE, so not even a bug in the app can rewrite it.
 */
export const auditoria = sqliteTable(
  'auditoria',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    adminId: integer('admin_id')
      .notNull()
      .references(() => usuarios.id),
    /** What was done, e.g. 'despesa.aprovar' (shared/schemas/auditoria.ts). */
    acao: text('acao').notNull(),
    alvoTipo: text('alvo_tipo').notNull(),
    alvoId: text('alvo_id').notNull(),
    /** The state before (null when created) and after (null when deleted), as JSON. */
    antes: text('antes'),
    depois: text('depois'),
    criadoEm: text('criado_em').notNull().default(agora),
  },
  (t) => [index('auditoria_recentes').on(t.criadoEm, t.id), index('auditoria_admin').on(t.adminId, t.criadoEm), index('auditoria_acao').on(t.acao, t.criadoEm)],
);
