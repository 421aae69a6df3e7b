CREATE TABLE "rate_limit_hits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"key" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"body" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "locked_by" text;--> statement-breakpoint
-- Every instance LISTENs on pluckers_events and forgets what it cached when these rows change,
-- whoever changed them (another instance, an operator script, plain SQL). NOTIFY is sent at
-- commit, so a change is never announced before it is visible.
CREATE FUNCTION "pluckers_notify_account"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW.token_version IS DISTINCT FROM OLD.token_version
		OR NEW.suspended_at IS DISTINCT FROM OLD.suspended_at
		OR NEW.deleted_at IS DISTINCT FROM OLD.deleted_at
		OR NEW.role IS DISTINCT FROM OLD.role THEN
		PERFORM pg_notify('pluckers_events', 'u:' || NEW.id);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_notify_account" AFTER UPDATE ON "users"
	FOR EACH ROW EXECUTE FUNCTION "pluckers_notify_account"();
--> statement-breakpoint
CREATE FUNCTION "pluckers_notify_session"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW.revoked_at IS DISTINCT FROM OLD.revoked_at THEN
		PERFORM pg_notify('pluckers_events', 's:' || NEW.id);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "sessions_notify_revocation" AFTER UPDATE ON "sessions"
	FOR EACH ROW EXECUTE FUNCTION "pluckers_notify_session"();
--> statement-breakpoint
CREATE FUNCTION "pluckers_notify_games"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('pluckers_events', 'g');
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "games_notify_lists" AFTER INSERT OR UPDATE OR DELETE ON "games"
	FOR EACH STATEMENT EXECUTE FUNCTION "pluckers_notify_games"();
--> statement-breakpoint
CREATE TRIGGER "categories_notify_lists" AFTER INSERT OR UPDATE OR DELETE ON "categories"
	FOR EACH STATEMENT EXECUTE FUNCTION "pluckers_notify_games"();
--> statement-breakpoint
CREATE FUNCTION "pluckers_notify_entries"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	entry record;
BEGIN
	-- A bulk insert (imports, generated data) says "forget every player's entries" once
	-- instead of queueing one notification per row.
	IF (SELECT count(*) FROM inserted) > 100 THEN
		PERFORM pg_notify('pluckers_events', 'P');
	ELSE
		FOR entry IN SELECT user_id, game_id FROM inserted LOOP
			PERFORM pg_notify('pluckers_events', 'p:' || entry.user_id || ':' || entry.game_id);
		END LOOP;
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "game_entries_notify_played" AFTER INSERT ON "game_entries"
	REFERENCING NEW TABLE AS inserted
	FOR EACH STATEMENT EXECUTE FUNCTION "pluckers_notify_entries"();
--> statement-breakpoint
CREATE FUNCTION "pluckers_notify_job"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('pluckers_events', 'j');
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "jobs_notify_workers" AFTER INSERT ON "jobs"
	FOR EACH STATEMENT EXECUTE FUNCTION "pluckers_notify_job"();
