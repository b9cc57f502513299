/**
 * The same tables as schema.ts, declared for PostgreSQL: drizzle declares tables per dialect, so
 * this is the second declaration, and db/esquemas.test.ts fails when the two disagree (a table, column,
 * default, key, index, check or trigger on one side only). Mapping, chosen so a copy is lossless
 * (docs/decisions/postgresql.md, 'Duas declarações, um teste'):
 * - text stays text: calendar dates ('yyyy-mm-dd') and instants (ISO-8601 UTC text, the same
 *   'YYYY-MM-DDTHH:MM:SS.sssZ' as SQLite's default), so every value and every comparison is identical.
 * - every integer is bigint, read as a JS number: SQLite's integers are 64-bit, so money (`_centavos`), ids and
 *   instants in milliseconds keep every value they can hold there (integer's 32 bits would not).
 * - SQLite's 0/1 booleans are boolean.
 * - AUTOINCREMENT ids are identity columns 'by default', so a copy can keep every id.
 * The audit table's append-only triggers are hand-written SQL in migrations-pg (see db/sqlManual.ts).
 * What each table and column means is written once, in schema.ts.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';

/** The server's clock as SQLite's default writes it: ISO-8601 UTC with milliseconds, at the statement's time. */
export const agoraPg = sql`(to_char(statement_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/** SQLite's INTEGER: 64 bits, read as a number (as better-sqlite3 reads it). */
const inteiro = (nome: string) => bigint(nome, { mode: 'number' });

export const usuarios = pgTable(
  'usuarios',
  {
    id: inteiro('id').primaryKey().generatedByDefaultAsIdentity(),
    nome: text('nome').notNull(),
    email: text('email').notNull(),
    senhaHash: text('senha_hash').notNull(),
    tipo: text('tipo', { enum: ['admin', 'funcionario'] }).notNull(),
    ativo: boolean('ativo').notNull().default(true),
    bloqueado: boolean('bloqueado').notNull().default(false),
    tentativasLogin: inteiro('tentativas_login').notNull().default(0),
    bloqueadoEm: text('bloqueado_em'),
    sessaoVersao: inteiro('sessao_versao').notNull().default(0),
    dataCriacao: text('data_criacao').notNull().default(agoraPg),
    atualizadoEm: text('atualizado_em').notNull().default(agoraPg),
  },
  (t) => [
    uniqueIndex('usuarios_email_unico').on(t.email),
    index('usuarios_tipo_ativo').on(t.tipo, t.ativo),
    check('usuarios_tipo_valido', sql`${t.tipo} in ('admin', 'funcionario')`),
  ],
);

export const sessoes = pgTable(
  'sessoes',
  {
    id: text('id').primaryKey(),
    usuarioId: inteiro('usuario_id')
      .notNull()
      .references(() => usuarios.id),
    criadaEm: text('criada_em').notNull().default(agoraPg),
    expiraEm: text('expira_em').notNull(),
    revogadaEm: text('revogada_em'),
    descricao: text('descricao').notNull().default(''),
  },
  (t) => [index('sessoes_usuario').on(t.usuarioId, t.revogadaEm)],
);

export const tentativasLoginPorEndereco = pgTable('tentativas_login_endereco', {
  endereco: text('endereco').primaryKey(),
  inicioMs: inteiro('inicio_ms').notNull(),
  tentativas: inteiro('tentativas').notNull(),
});

export const estados = pgTable('estados', {
  uf: text('uf').primaryKey(),
  codigoIbge: inteiro('codigo_ibge').notNull().unique(),
  nome: text('nome').notNull(),
});

export const cidades = pgTable(
  'cidades',
  {
    /** The 7-digit IBGE code (given, never generated). */
    id: inteiro('id').primaryKey(),
    nome: text('nome').notNull(),
    nomeBusca: text('nome_busca').notNull(),
    uf: text('uf')
      .notNull()
      .references(() => estados.uf),
  },
  (t) => [index('cidades_uf_nome_busca').on(t.uf, t.nomeBusca), index('cidades_nome_busca').on(t.nomeBusca)],
);

export const rotas = pgTable(
  'rotas',
  {
    id: inteiro('id').primaryKey().generatedByDefaultAsIdentity(),
    nome: text('nome').notNull(),
    funcionarioId: inteiro('funcionario_id')
      .notNull()
      .references(() => usuarios.id),
    temSecretario: boolean('tem_secretario').notNull().default(false),
    secretarioNome: text('secretario_nome'),
    valorAluguelCentavos: inteiro('valor_aluguel_centavos').notNull().default(0),
    dataInicio: text('data_inicio').notNull(),
    dataFim: text('data_fim').notNull(),
    observacoes: text('observacoes').notNull().default(''),
    status: text('status', { enum: ['ativa', 'finalizada', 'cancelada'] })
      .notNull()
      .default('ativa'),
    criadoPor: inteiro('criado_por').references(() => usuarios.id),
    criadoEm: text('criado_em').notNull().default(agoraPg),
    atualizadoEm: text('atualizado_em').notNull().default(agoraPg),
    finalizadaEm: text('finalizada_em'),
    canceladaEm: text('cancelada_em'),
  },
  (t) => [
    index('rotas_funcionario_status').on(t.funcionarioId, t.status),
    index('rotas_status').on(t.status),
    check('rotas_status_valido', sql`${t.status} in ('ativa', 'finalizada', 'cancelada')`),
    check('rotas_aluguel_nao_negativo', sql`${t.valorAluguelCentavos} >= 0`),
  ],
);

export const rotaCidades = pgTable(
  'rota_cidades',
  {
    id: inteiro('id').primaryKey().generatedByDefaultAsIdentity(),
    rotaId: inteiro('rota_id')
      .notNull()
      .references(() => rotas.id, { onDelete: 'cascade' }),
    cidadeId: inteiro('cidade_id')
      .notNull()
      .references(() => cidades.id),
    ordem: inteiro('ordem').notNull().default(0),
  },
  (t) => [uniqueIndex('rota_cidades_unica').on(t.rotaId, t.cidadeId), index('rota_cidades_cidade').on(t.cidadeId)],
);

export const visitas = pgTable(
  'visitas',
  {
    id: text('id').primaryKey(),
    rotaId: inteiro('rota_id')
      .notNull()
      .references(() => rotas.id),
    cidadeId: inteiro('cidade_id')
      .notNull()
      .references(() => cidades.id),
    funcionarioId: inteiro('funcionario_id')
      .notNull()
      .references(() => usuarios.id),
    data: text('data').notNull(),
    registradoEm: text('registrado_em').notNull(),
    recebidoEm: text('recebido_em').notNull().default(agoraPg),
  },
  (t) => [uniqueIndex('visitas_rota_cidade_data').on(t.rotaId, t.cidadeId, t.data), index('visitas_funcionario_data').on(t.funcionarioId, t.data)],
);

export const vendas = pgTable(
  'vendas',
  {
    id: text('id').primaryKey(),
    rotaId: inteiro('rota_id')
      .notNull()
      .references(() => rotas.id),
    cidadeId: inteiro('cidade_id')
      .notNull()
      .references(() => cidades.id),
    funcionarioId: inteiro('funcionario_id')
      .notNull()
      .references(() => usuarios.id),
    dataVenda: text('data_venda').notNull(),
    dinheiroCentavos: inteiro('dinheiro_centavos').notNull().default(0),
    pixCentavos: inteiro('pix_centavos').notNull().default(0),
    cartaoCentavos: inteiro('cartao_centavos').notNull().default(0),
    linkCentavos: inteiro('link_centavos').notNull().default(0),
    boletos: inteiro('boletos').notNull().default(0),
    observacoes: text('observacoes').notNull().default(''),
    registradoEm: text('registrado_em').notNull(),
    recebidoEm: text('recebido_em').notNull().default(agoraPg),
    atualizadoEm: text('atualizado_em').notNull().default(agoraPg),
    versao: inteiro('versao').notNull().default(1),
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

export const despesas = pgTable(
  'despesas',
  {
    id: text('id').primaryKey(),
    rotaId: inteiro('rota_id')
      .notNull()
      .references(() => rotas.id),
    cidadeId: inteiro('cidade_id')
      .notNull()
      .references(() => cidades.id),
    funcionarioId: inteiro('funcionario_id')
      .notNull()
      .references(() => usuarios.id),
    dataDespesa: text('data_despesa').notNull(),
    tipo: text('tipo', { enum: ['alimentacao', 'hospedagem', 'combustivel', 'pedagio', 'aluguel_sala', 'outro'] }).notNull(),
    tipoOutro: text('tipo_outro'),
    valorCentavos: inteiro('valor_centavos').notNull(),
    descricao: text('descricao').notNull().default(''),
    arquivoCupom: text('arquivo_cupom'),
    cupomMime: text('cupom_mime'),
    cupomNomeOriginal: text('cupom_nome_original'),
    cupomTamanho: inteiro('cupom_tamanho'),
    statusAprovacao: text('status_aprovacao', { enum: ['pendente', 'aprovada', 'rejeitada'] })
      .notNull()
      .default('pendente'),
    motivoRejeicao: text('motivo_rejeicao'),
    avaliadoPor: inteiro('avaliado_por').references(() => usuarios.id),
    avaliadoEm: text('avaliado_em'),
    registradoEm: text('registrado_em').notNull(),
    recebidoEm: text('recebido_em').notNull().default(agoraPg),
    atualizadoEm: text('atualizado_em').notNull().default(agoraPg),
    excluidaEm: text('excluida_em'),
    chaveNfce: text('chave_nfce'),
    /**
     * When a route's acerto charged this rejected expense back to the employee (a devolucao in the ledger:
     * the company does not bear it); cleared when it is approved afterwards (a debito moves it back).
     */
    cobradaNoAcertoEm: text('cobrada_no_acerto_em'),
  },
  (t) => [
    index('despesas_funcionario_data').on(t.funcionarioId, t.dataDespesa),
    index('despesas_rota').on(t.rotaId, t.tipo, t.excluidaEm, t.valorCentavos),
    index('despesas_data').on(t.dataDespesa),
    index('despesas_lista').on(t.dataDespesa, t.registradoEm, t.id).where(sql`${t.excluidaEm} is null`),
    index('despesas_tipo_valor').on(t.tipo, t.excluidaEm, t.valorCentavos),
    check('despesas_valor_nao_negativo', sql`${t.valorCentavos} >= 0`),
    uniqueIndex('despesas_chave_nfce').on(t.chaveNfce).where(sql`${t.chaveNfce} is not null and ${t.excluidaEm} is null`),
  ],
);

export const despesaCupons = pgTable(
  'despesa_cupons',
  {
    id: inteiro('id').primaryKey().generatedByDefaultAsIdentity(),
    despesaId: text('despesa_id')
      .notNull()
      .references(() => despesas.id),
    ordem: inteiro('ordem').notNull(),
    arquivo: text('arquivo').notNull(),
    mime: text('mime').notNull(),
    nomeOriginal: text('nome_original').notNull(),
    tamanho: inteiro('tamanho').notNull(),
    criadoEm: text('criado_em').notNull().default(agoraPg),
  },
  (t) => [uniqueIndex('despesa_cupons_despesa_ordem').on(t.despesaId, t.ordem), uniqueIndex('despesa_cupons_arquivo').on(t.arquivo)],
);

export const movimentacoesSaldo = pgTable(
  'movimentacoes_saldo',
  {
    id: inteiro('id').primaryKey().generatedByDefaultAsIdentity(),
    funcionarioId: inteiro('funcionario_id')
      .notNull()
      .references(() => usuarios.id),
    tipo: text('tipo', { enum: ['credito', 'debito', 'devolucao', 'acerto'] }).notNull(),
    valorCentavos: inteiro('valor_centavos').notNull(),
    saldoAnteriorCentavos: inteiro('saldo_anterior_centavos').notNull(),
    saldoNovoCentavos: inteiro('saldo_novo_centavos').notNull(),
    descricao: text('descricao').notNull().default(''),
    adminId: inteiro('admin_id').references(() => usuarios.id),
    rotaId: inteiro('rota_id').references(() => rotas.id),
    despesaId: text('despesa_id').references(() => despesas.id),
    /**
     * An acerto's direction: 'devolvido' (the employee handed the company's money back: the balance goes down) or
     * 'pago' (the company paid the employee: it goes up). Null for every other type.
     */
    sentido: text('sentido', { enum: ['devolvido', 'pago'] }),
    dataMovimentacao: text('data_movimentacao').notNull().default(agoraPg),
  },
  (t) => [
    index('movimentacoes_funcionario').on(t.funcionarioId, t.id),
    index('movimentacoes_data').on(t.dataMovimentacao),
    index('movimentacoes_despesa').on(t.despesaId),
    index('movimentacoes_rota_tipo').on(t.rotaId, t.tipo),
    check('movimentacoes_valor_positivo', sql`${t.valorCentavos} > 0 or (${t.tipo} = 'acerto' and ${t.valorCentavos} = 0)`),
    check('movimentacoes_tipo_valido', sql`${t.tipo} in ('credito', 'debito', 'devolucao', 'acerto')`),
    check('movimentacoes_sentido_do_acerto', sql`(${t.tipo} = 'acerto') = (${t.sentido} is not null)`),
  ],
);

export const dispositivos = pgTable(
  'dispositivos',
  {
    dispositivoId: text('dispositivo_id').notNull(),
    usuarioId: inteiro('usuario_id')
      .notNull()
      .references(() => usuarios.id),
    versao: text('versao').notNull(),
    filaVendas: inteiro('fila_vendas').notNull().default(0),
    filaVisitas: inteiro('fila_visitas').notNull().default(0),
    filaDespesas: inteiro('fila_despesas').notNull().default(0),
    filaRotas: inteiro('fila_rotas').notNull().default(0),
    maisAntigoEm: text('mais_antigo_em'),
    ultimaSyncEm: text('ultima_sync_em'),
    vistoEm: text('visto_em').notNull(),
  },
  (t) => [primaryKey({ columns: [t.dispositivoId, t.usuarioId] }), index('dispositivos_usuario').on(t.usuarioId)],
);

export const operacoesAplicadas = pgTable('operacoes_aplicadas', {
  id: text('id').primaryKey(),
  usuarioId: inteiro('usuario_id').notNull(),
  clienteId: text('cliente_id').notNull(),
  seq: inteiro('seq').notNull(),
  tipo: text('tipo').notNull(),
  status: inteiro('status').notNull(),
  recebidoEm: text('recebido_em'),
});

/**
 * A phone's queued write that reached a route its employee had already finished (another of their phones,
 * or a rescue file): held, never applied by itself, until an admin accepts it (it is then run as it would
 * have been before the finish, and the route's figures move) or refuses it with a reason the phone shows.
 * Its operation is recorded in operacoes_aplicadas with status 202, so a replay is answered, not held twice.
 */
export const operacoesTardias = pgTable(
  'operacoes_tardias',
  {
    /** The sync operation's id. */
    operacaoId: text('operacao_id').primaryKey(),
    usuarioId: inteiro('usuario_id')
      .notNull()
      .references(() => usuarios.id),
    rotaId: inteiro('rota_id')
      .notNull()
      .references(() => rotas.id),
    clienteId: text('cliente_id').notNull(),
    seq: inteiro('seq').notNull(),
    /** The operation's kind (shared/sync/operacoes.ts) and its checked data, as JSON. */
    tipo: text('tipo').notNull(),
    dados: text('dados').notNull(),
    /** Its receipts, stored under their own names until the decision (JSON: nome, mime, nome_original, tamanho). */
    arquivos: text('arquivos').notNull().default('[]'),
    recebidaEm: text('recebida_em').notNull().default(agoraPg),
    situacao: text('situacao', { enum: ['pendente', 'aceita', 'recusada'] })
      .notNull()
      .default('pendente'),
    motivo: text('motivo'),
    decididaPor: inteiro('decidida_por').references(() => usuarios.id),
    decididaEm: text('decidida_em'),
  },
  (t) => [
    index('operacoes_tardias_rota').on(t.rotaId, t.situacao),
    index('operacoes_tardias_usuario').on(t.usuarioId, t.recebidaEm),
    check('operacoes_tardias_situacao_valida', sql`${t.situacao} in ('pendente', 'aceita', 'recusada')`),
  ],
);

export const auditoria = pgTable(
  'auditoria',
  {
    id: inteiro('id').primaryKey().generatedByDefaultAsIdentity(),
    adminId: inteiro('admin_id')
      .notNull()
      .references(() => usuarios.id),
    acao: text('acao').notNull(),
    alvoTipo: text('alvo_tipo').notNull(),
    alvoId: text('alvo_id').notNull(),
    antes: text('antes'),
    depois: text('depois'),
    criadoEm: text('criado_em').notNull().default(agoraPg),
  },
  (t) => [index('auditoria_recentes').on(t.criadoEm, t.id), index('auditoria_admin').on(t.adminId, t.criadoEm), index('auditoria_acao').on(t.acao, t.criadoEm)],
);
