-- Accounts are bound to a running break of the person they belong to in the statement that makes
-- them, as breaks and sign-ins are: no crash between making and binding leaves one free. A new
-- account has no break of its own, so only another's running break can bind it; one look at the
-- breaks per statement spares a bulk insert made while no break runs any work per row.
CREATE OR REPLACE FUNCTION "pluckers_bind_made_accounts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (SELECT 1 FROM play_exclusions x
			WHERE x.bound_from IS NULL AND x.lifted_at IS NULL
				AND x.ends_at > (SELECT min(m.created_at) FROM made m)) THEN
		PERFORM pluckers_bind_person(m.id, m.created_at) FROM made m;
	END IF;
	RETURN NULL;
END $$;
-- Made here rather than in a migration, which runs before the function files: the trigger needs
-- this function.
CREATE OR REPLACE TRIGGER "users_bind_person" AFTER INSERT ON "users"
	REFERENCING NEW TABLE AS made FOR EACH STATEMENT
	EXECUTE FUNCTION "pluckers_bind_made_accounts"();
