CREATE TABLE `despesa_cupons` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`despesa_id` text NOT NULL,
	`ordem` integer NOT NULL,
	`arquivo` text NOT NULL,
	`mime` text NOT NULL,
	`nome_original` text NOT NULL,
	`tamanho` integer NOT NULL,
	`criado_em` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`despesa_id`) REFERENCES `despesas`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `despesa_cupons_despesa_ordem` ON `despesa_cupons` (`despesa_id`,`ordem`);--> statement-breakpoint
CREATE UNIQUE INDEX `despesa_cupons_arquivo` ON `despesa_cupons` (`arquivo`);--> statement-breakpoint
-- The single receipt of each expense becomes its first (ordem 0) in the new table; the old columns stay, mirroring the first, for one release.
INSERT INTO `despesa_cupons` (`despesa_id`, `ordem`, `arquivo`, `mime`, `nome_original`, `tamanho`, `criado_em`)
SELECT `id`, 0, `arquivo_cupom`, coalesce(`cupom_mime`, 'application/octet-stream'), coalesce(`cupom_nome_original`, `arquivo_cupom`), coalesce(`cupom_tamanho`, 0), `atualizado_em`
FROM `despesas` WHERE `arquivo_cupom` IS NOT NULL;
