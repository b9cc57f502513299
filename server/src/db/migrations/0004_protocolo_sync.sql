CREATE TABLE `operacoes_aplicadas` (
	`id` text PRIMARY KEY NOT NULL,
	`usuario_id` integer NOT NULL,
	`cliente_id` text NOT NULL,
	`seq` integer NOT NULL,
	`tipo` text NOT NULL,
	`status` integer NOT NULL,
	`recebido_em` text
);
--> statement-breakpoint
ALTER TABLE `rotas` ADD `cancelada_em` text;--> statement-breakpoint
ALTER TABLE `vendas` ADD `versao` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `vendas` ADD `alterada_por_cliente` text;