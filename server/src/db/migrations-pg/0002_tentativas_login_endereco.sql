CREATE TABLE "tentativas_login_endereco" (
	"endereco" text PRIMARY KEY NOT NULL,
	"inicio_ms" bigint NOT NULL,
	"tentativas" bigint NOT NULL
);
