CREATE TABLE `dispositivos` (
	`dispositivo_id` text NOT NULL,
	`usuario_id` integer NOT NULL,
	`versao` text NOT NULL,
	`fila_vendas` integer DEFAULT 0 NOT NULL,
	`fila_visitas` integer DEFAULT 0 NOT NULL,
	`fila_despesas` integer DEFAULT 0 NOT NULL,
	`fila_rotas` integer DEFAULT 0 NOT NULL,
	`mais_antigo_em` text,
	`ultima_sync_em` text,
	`visto_em` text NOT NULL,
	PRIMARY KEY(`dispositivo_id`, `usuario_id`),
	FOREIGN KEY (`usuario_id`) REFERENCES `usuarios`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `dispositivos_usuario` ON `dispositivos` (`usuario_id`);