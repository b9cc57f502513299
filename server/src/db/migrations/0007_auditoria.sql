CREATE TABLE `auditoria` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`admin_id` integer NOT NULL,
	`acao` text NOT NULL,
	`alvo_tipo` text NOT NULL,
	`alvo_id` text NOT NULL,
	`antes` text,
	`depois` text,
	`criado_em` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`admin_id`) REFERENCES `usuarios`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `auditoria_recentes` ON `auditoria` (`criado_em`,`id`);--> statement-breakpoint
CREATE INDEX `auditoria_admin` ON `auditoria` (`admin_id`,`criado_em`);--> statement-breakpoint
CREATE INDEX `auditoria_acao` ON `auditoria` (`acao`,`criado_em`);--> statement-breakpoint
CREATE TRIGGER `auditoria_sem_alteracao` BEFORE UPDATE ON `auditoria` BEGIN SELECT RAISE(ABORT, 'A auditoria só aceita novos registros.'); END;--> statement-breakpoint
CREATE TRIGGER `auditoria_sem_exclusao` BEFORE DELETE ON `auditoria` BEGIN SELECT RAISE(ABORT, 'A auditoria só aceita novos registros.'); END;
