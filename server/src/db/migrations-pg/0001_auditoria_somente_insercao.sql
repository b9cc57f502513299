-- Written by hand (drizzle-kit declares no triggers; listed in server/src/db/sqlManual.ts): the audit trail is
-- append-only, as SQLite's 0007_auditoria makes it, with the same message. TRUNCATE skips row triggers, so it is
-- refused by a statement trigger of its own.
CREATE FUNCTION "auditoria_somente_insercao"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'A auditoria só aceita novos registros.';
END
$$;--> statement-breakpoint
CREATE TRIGGER "auditoria_sem_alteracao" BEFORE UPDATE ON "auditoria" FOR EACH ROW EXECUTE FUNCTION "auditoria_somente_insercao"();--> statement-breakpoint
CREATE TRIGGER "auditoria_sem_exclusao" BEFORE DELETE ON "auditoria" FOR EACH ROW EXECUTE FUNCTION "auditoria_somente_insercao"();--> statement-breakpoint
CREATE TRIGGER "auditoria_sem_truncamento" BEFORE TRUNCATE ON "auditoria" FOR EACH STATEMENT EXECUTE FUNCTION "auditoria_somente_insercao"();
