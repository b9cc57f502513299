CREATE TABLE `tentativas_login_endereco` (
	`endereco` text PRIMARY KEY NOT NULL,
	`inicio_ms` integer NOT NULL,
	`tentativas` integer NOT NULL
);
