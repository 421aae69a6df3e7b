-- Operators prove a second factor (a TOTP authenticator) after their password: the console's
-- routes refuse a session until it has one, and the money-moving actions want one no older
-- than 15 minutes. The secret is kept encrypted; `last_step` is the last 30-second step whose
-- code was accepted, so a code cannot be used twice. Recovery codes are kept as hashes, each
-- used once.
CREATE TABLE "operator_second_factors" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id"),
	"secret" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"last_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "operator_recovery_codes_user_idx" ON "operator_recovery_codes" ("user_id") WHERE "used_at" IS NULL;
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "second_factor_at" timestamp with time zone;
--> statement-breakpoint
-- A proof made on one instance reaches the others' remembered sessions at once, as a revocation does.
CREATE OR REPLACE FUNCTION "pluckers_notify_session"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW.revoked_at IS DISTINCT FROM OLD.revoked_at
		OR NEW.second_factor_at IS DISTINCT FROM OLD.second_factor_at THEN
		PERFORM pg_notify('pluckers_events', 's:' || NEW.id);
	END IF;
	RETURN NULL;
END $$;
