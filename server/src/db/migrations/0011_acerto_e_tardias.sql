CREATE TABLE `operacoes_tardias` (
	`operacao_id` text PRIMARY KEY NOT NULL,
	`usuario_id` integer NOT NULL,
	`rota_id` integer NOT NULL,
	`cliente_id` text NOT NULL,
	`seq` integer NOT NULL,
	`tipo` text NOT NULL,
	`dados` text NOT NULL,
	`arquivos` text DEFAULT '[]' NOT NULL,
	`recebida_em` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`situacao` text DEFAULT 'pendente' NOT NULL,
	`motivo` text,
	`decidida_por` integer,
	`decidida_em` text,
	FOREIGN KEY (`usuario_id`) REFERENCES `usuarios`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`rota_id`) REFERENCES `rotas`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`decidida_por`) REFERENCES `usuarios`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "operacoes_tardias_situacao_valida" CHECK("operacoes_tardias"."situacao" in ('pendente', 'aceita', 'recusada'))
);
--> statement-breakpoint
CREATE INDEX `operacoes_tardias_rota` ON `operacoes_tardias` (`rota_id`,`situacao`);--> statement-breakpoint
CREATE INDEX `operacoes_tardias_usuario` ON `operacoes_tardias` (`usuario_id`,`recebida_em`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_movimentacoes_saldo` (
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
	`sentido` text,
	`data_movimentacao` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`funcionario_id`) REFERENCES `usuarios`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`admin_id`) REFERENCES `usuarios`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`rota_id`) REFERENCES `rotas`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`despesa_id`) REFERENCES `despesas`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "movimentacoes_valor_positivo" CHECK("__new_movimentacoes_saldo"."valor_centavos" > 0 or ("__new_movimentacoes_saldo"."tipo" = 'acerto' and "__new_movimentacoes_saldo"."valor_centavos" = 0)),
	CONSTRAINT "movimentacoes_tipo_valido" CHECK("__new_movimentacoes_saldo"."tipo" in ('credito', 'debito', 'devolucao', 'acerto')),
	CONSTRAINT "movimentacoes_sentido_do_acerto" CHECK(("__new_movimentacoes_saldo"."tipo" = 'acerto') = ("__new_movimentacoes_saldo"."sentido" is not null))
);
--> statement-breakpoint
INSERT INTO `__new_movimentacoes_saldo`("id", "funcionario_id", "tipo", "valor_centavos", "saldo_anterior_centavos", "saldo_novo_centavos", "descricao", "admin_id", "rota_id", "despesa_id", "data_movimentacao") SELECT "id", "funcionario_id", "tipo", "valor_centavos", "saldo_anterior_centavos", "saldo_novo_centavos", "descricao", "admin_id", "rota_id", "despesa_id", "data_movimentacao" FROM `movimentacoes_saldo`;--> statement-breakpoint
DROP TABLE `movimentacoes_saldo`;--> statement-breakpoint
ALTER TABLE `__new_movimentacoes_saldo` RENAME TO `movimentacoes_saldo`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `movimentacoes_funcionario` ON `movimentacoes_saldo` (`funcionario_id`,`id`);--> statement-breakpoint
CREATE INDEX `movimentacoes_data` ON `movimentacoes_saldo` (`data_movimentacao`);--> statement-breakpoint
CREATE INDEX `movimentacoes_despesa` ON `movimentacoes_saldo` (`despesa_id`);--> statement-breakpoint
CREATE INDEX `movimentacoes_rota_tipo` ON `movimentacoes_saldo` (`rota_id`,`tipo`);--> statement-breakpoint
ALTER TABLE `despesas` ADD `cobrada_no_acerto_em` text;