DROP INDEX `despesas_rota`;--> statement-breakpoint
CREATE INDEX `despesas_lista` ON `despesas` (`data_despesa`,`registrado_em`,`id`) WHERE "despesas"."excluida_em" is null;--> statement-breakpoint
CREATE INDEX `despesas_tipo_valor` ON `despesas` (`tipo`,`excluida_em`,`valor_centavos`);--> statement-breakpoint
CREATE INDEX `despesas_rota` ON `despesas` (`rota_id`,`tipo`,`excluida_em`,`valor_centavos`);