CREATE TABLE `cidades` (
	`id` integer PRIMARY KEY NOT NULL,
	`nome` text NOT NULL,
	`nome_busca` text NOT NULL,
	`uf` text NOT NULL,
	FOREIGN KEY (`uf`) REFERENCES `estados`(`uf`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `cidades_uf_nome_busca` ON `cidades` (`uf`,`nome_busca`);--> statement-breakpoint
CREATE INDEX `cidades_nome_busca` ON `cidades` (`nome_busca`);--> statement-breakpoint
CREATE TABLE `despesas` (
	`id` text PRIMARY KEY NOT NULL,
	`rota_id` integer NOT NULL,
	`cidade_id` integer NOT NULL,
	`funcionario_id` integer NOT NULL,
	`data_despesa` text NOT NULL,
	`tipo` text NOT NULL,
	`tipo_outro` text,
	`valor_centavos` integer NOT NULL,
	`descricao` text DEFAULT '' NOT NULL,
	`arquivo_cupom` text,
	`cupom_mime` text,
	`cupom_nome_original` text,
	`cupom_tamanho` integer,
	`status_aprovacao` text DEFAULT 'pendente' NOT NULL,
	`motivo_rejeicao` text,
	`avaliado_por` integer,
	`avaliado_em` text,
	`registrado_em` text NOT NULL,
	`recebido_em` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`atualizado_em` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`excluida_em` text,
	FOREIGN KEY (`rota_id`) REFERENCES `rotas`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`cidade_id`) REFERENCES `cidades`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`funcionario_id`) REFERENCES `usuarios`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`avaliado_por`) REFERENCES `usuarios`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "despesas_valor_nao_negativo" CHECK("despesas"."valor_centavos" >= 0)
);
--> statement-breakpoint
CREATE INDEX `despesas_funcionario_data` ON `despesas` (`funcionario_id`,`data_despesa`);--> statement-breakpoint
CREATE INDEX `despesas_rota` ON `despesas` (`rota_id`);--> statement-breakpoint
CREATE INDEX `despesas_data` ON `despesas` (`data_despesa`);--> statement-breakpoint
CREATE TABLE `estados` (
	`uf` text PRIMARY KEY NOT NULL,
	`codigo_ibge` integer NOT NULL,
	`nome` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `estados_codigo_ibge_unique` ON `estados` (`codigo_ibge`);--> statement-breakpoint
CREATE TABLE `movimentacoes_saldo` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`funcionario_id` integer NOT NULL,
	`tipo` text NOT NULL,
	`valor_centavos` integer NOT NULL,
	`saldo_anterior_centavos` integer NOT NULL,
	`saldo_novo_centavos` integer NOT NULL,
	`descricao` text DEFAULT '' NOT NULL,
	`admin_id` integer,
	`rota_id` integer,
	`despesa_id` text,
	`data_movimentacao` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`funcionario_id`) REFERENCES `usuarios`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`admin_id`) REFERENCES `usuarios`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`rota_id`) REFERENCES `rotas`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`despesa_id`) REFERENCES `despesas`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "movimentacoes_valor_positivo" CHECK("movimentacoes_saldo"."valor_centavos" > 0),
	CONSTRAINT "movimentacoes_tipo_valido" CHECK("movimentacoes_saldo"."tipo" in ('credito', 'debito', 'devolucao'))
);
--> statement-breakpoint
CREATE INDEX `movimentacoes_funcionario` ON `movimentacoes_saldo` (`funcionario_id`,`id`);--> statement-breakpoint
CREATE INDEX `movimentacoes_data` ON `movimentacoes_saldo` (`data_movimentacao`);--> statement-breakpoint
CREATE INDEX `movimentacoes_despesa` ON `movimentacoes_saldo` (`despesa_id`);--> statement-breakpoint
CREATE TABLE `rota_cidades` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`rota_id` integer NOT NULL,
	`cidade_id` integer NOT NULL,
	`ordem` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`rota_id`) REFERENCES `rotas`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`cidade_id`) REFERENCES `cidades`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rota_cidades_unica` ON `rota_cidades` (`rota_id`,`cidade_id`);--> statement-breakpoint
CREATE INDEX `rota_cidades_cidade` ON `rota_cidades` (`cidade_id`);--> statement-breakpoint
CREATE TABLE `rotas` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`nome` text NOT NULL,
	`funcionario_id` integer NOT NULL,
	`tem_secretario` integer DEFAULT false NOT NULL,
	`secretario_nome` text,
	`valor_aluguel_centavos` integer DEFAULT 0 NOT NULL,
	`data_inicio` text NOT NULL,
	`data_fim` text NOT NULL,
	`observacoes` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'ativa' NOT NULL,
	`criado_por` integer,
	`criado_em` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`atualizado_em` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`finalizada_em` text,
	FOREIGN KEY (`funcionario_id`) REFERENCES `usuarios`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`criado_por`) REFERENCES `usuarios`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "rotas_status_valido" CHECK("rotas"."status" in ('ativa', 'finalizada', 'cancelada')),
	CONSTRAINT "rotas_aluguel_nao_negativo" CHECK("rotas"."valor_aluguel_centavos" >= 0)
);
--> statement-breakpoint
CREATE INDEX `rotas_funcionario_status` ON `rotas` (`funcionario_id`,`status`);--> statement-breakpoint
CREATE INDEX `rotas_status` ON `rotas` (`status`);--> statement-breakpoint
CREATE TABLE `usuarios` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`nome` text NOT NULL,
	`email` text NOT NULL,
	`senha_hash` text NOT NULL,
	`tipo` text NOT NULL,
	`ativo` integer DEFAULT true NOT NULL,
	`bloqueado` integer DEFAULT false NOT NULL,
	`tentativas_login` integer DEFAULT 0 NOT NULL,
	`data_criacao` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`atualizado_em` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	CONSTRAINT "usuarios_tipo_valido" CHECK("usuarios"."tipo" in ('admin', 'funcionario'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `usuarios_email_unico` ON `usuarios` (`email`);--> statement-breakpoint
CREATE INDEX `usuarios_tipo_ativo` ON `usuarios` (`tipo`,`ativo`);--> statement-breakpoint
CREATE TABLE `vendas` (
	`id` text PRIMARY KEY NOT NULL,
	`rota_id` integer NOT NULL,
	`cidade_id` integer NOT NULL,
	`funcionario_id` integer NOT NULL,
	`data_venda` text NOT NULL,
	`dinheiro_centavos` integer DEFAULT 0 NOT NULL,
	`pix_centavos` integer DEFAULT 0 NOT NULL,
	`cartao_centavos` integer DEFAULT 0 NOT NULL,
	`link_centavos` integer DEFAULT 0 NOT NULL,
	`boletos` integer DEFAULT 0 NOT NULL,
	`observacoes` text DEFAULT '' NOT NULL,
	`registrado_em` text NOT NULL,
	`recebido_em` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`atualizado_em` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`rota_id`) REFERENCES `rotas`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`cidade_id`) REFERENCES `cidades`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`funcionario_id`) REFERENCES `usuarios`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "vendas_valores_nao_negativos" CHECK("vendas"."dinheiro_centavos" >= 0 and "vendas"."pix_centavos" >= 0 and "vendas"."cartao_centavos" >= 0 and "vendas"."link_centavos" >= 0 and "vendas"."boletos" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `vendas_rota_cidade_data` ON `vendas` (`rota_id`,`cidade_id`,`data_venda`);--> statement-breakpoint
CREATE INDEX `vendas_funcionario_data` ON `vendas` (`funcionario_id`,`data_venda`);--> statement-breakpoint
CREATE INDEX `vendas_data` ON `vendas` (`data_venda`);--> statement-breakpoint
CREATE INDEX `vendas_cidade` ON `vendas` (`cidade_id`);--> statement-breakpoint
CREATE TABLE `visitas` (
	`id` text PRIMARY KEY NOT NULL,
	`rota_id` integer NOT NULL,
	`cidade_id` integer NOT NULL,
	`funcionario_id` integer NOT NULL,
	`data` text NOT NULL,
	`registrado_em` text NOT NULL,
	`recebido_em` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`rota_id`) REFERENCES `rotas`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`cidade_id`) REFERENCES `cidades`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`funcionario_id`) REFERENCES `usuarios`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `visitas_rota_cidade_data` ON `visitas` (`rota_id`,`cidade_id`,`data`);--> statement-breakpoint
CREATE INDEX `visitas_funcionario_data` ON `visitas` (`funcionario_id`,`data`);