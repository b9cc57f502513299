CREATE TABLE "operacoes_tardias" (
	"operacao_id" text PRIMARY KEY NOT NULL,
	"usuario_id" bigint NOT NULL,
	"rota_id" bigint NOT NULL,
	"cliente_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"tipo" text NOT NULL,
	"dados" text NOT NULL,
	"arquivos" text DEFAULT '[]' NOT NULL,
	"recebida_em" text DEFAULT (to_char(statement_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) NOT NULL,
	"situacao" text DEFAULT 'pendente' NOT NULL,
	"motivo" text,
	"decidida_por" bigint,
	"decidida_em" text,
	CONSTRAINT "operacoes_tardias_situacao_valida" CHECK ("operacoes_tardias"."situacao" in ('pendente', 'aceita', 'recusada'))
);
--> statement-breakpoint
ALTER TABLE "movimentacoes_saldo" DROP CONSTRAINT "movimentacoes_valor_positivo";--> statement-breakpoint
ALTER TABLE "movimentacoes_saldo" DROP CONSTRAINT "movimentacoes_tipo_valido";--> statement-breakpoint
ALTER TABLE "despesas" ADD COLUMN "cobrada_no_acerto_em" text;--> statement-breakpoint
ALTER TABLE "movimentacoes_saldo" ADD COLUMN "sentido" text;--> statement-breakpoint
ALTER TABLE "operacoes_tardias" ADD CONSTRAINT "operacoes_tardias_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."usuarios"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operacoes_tardias" ADD CONSTRAINT "operacoes_tardias_rota_id_rotas_id_fk" FOREIGN KEY ("rota_id") REFERENCES "public"."rotas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operacoes_tardias" ADD CONSTRAINT "operacoes_tardias_decidida_por_usuarios_id_fk" FOREIGN KEY ("decidida_por") REFERENCES "public"."usuarios"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operacoes_tardias_rota" ON "operacoes_tardias" USING btree ("rota_id","situacao");--> statement-breakpoint
CREATE INDEX "operacoes_tardias_usuario" ON "operacoes_tardias" USING btree ("usuario_id","recebida_em");--> statement-breakpoint
ALTER TABLE "movimentacoes_saldo" ADD CONSTRAINT "movimentacoes_sentido_do_acerto" CHECK (("movimentacoes_saldo"."tipo" = 'acerto') = ("movimentacoes_saldo"."sentido" is not null));--> statement-breakpoint
ALTER TABLE "movimentacoes_saldo" ADD CONSTRAINT "movimentacoes_valor_positivo" CHECK ("movimentacoes_saldo"."valor_centavos" > 0 or ("movimentacoes_saldo"."tipo" = 'acerto' and "movimentacoes_saldo"."valor_centavos" = 0));--> statement-breakpoint
ALTER TABLE "movimentacoes_saldo" ADD CONSTRAINT "movimentacoes_tipo_valido" CHECK ("movimentacoes_saldo"."tipo" in ('credito', 'debito', 'devolucao', 'acerto'));