CREATE TABLE `sessoes` (
	`id` text PRIMARY KEY NOT NULL,
	`usuario_id` integer NOT NULL,
	`criada_em` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`expira_em` text NOT NULL,
	`revogada_em` text,
	`descricao` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`usuario_id`) REFERENCES `usuarios`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sessoes_usuario` ON `sessoes` (`usuario_id`,`revogada_em`);--> statement-breakpoint
ALTER TABLE `usuarios` ADD `bloqueado_em` text;--> statement-breakpoint
UPDATE `usuarios` SET `bloqueado_em` = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE `bloqueado` = 1;