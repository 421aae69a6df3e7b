-- The account-change announcement fires only when a column it is about changes. Checked in the
-- trigger's WHEN clause, PostgreSQL compares the columns itself and queues nothing for the
-- other updates; checked inside the function, every balance change of a big draw queued an
-- after-trigger event and ran PL/pgSQL to decide to do nothing (bench/RESULTS.md).
DROP TRIGGER "users_notify_account" ON "users";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pluckers_notify_account"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('pluckers_events', 'u:' || NEW.id);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_notify_account" AFTER UPDATE ON "users"
	FOR EACH ROW
	WHEN (NEW.token_version IS DISTINCT FROM OLD.token_version
		OR NEW.suspended_at IS DISTINCT FROM OLD.suspended_at
		OR NEW.deleted_at IS DISTINCT FROM OLD.deleted_at
		OR NEW.role IS DISTINCT FROM OLD.role)
	EXECUTE FUNCTION "pluckers_notify_account"();
