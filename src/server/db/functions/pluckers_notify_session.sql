-- A proof made on one instance reaches the others' remembered sessions at once, as a revocation does.
CREATE OR REPLACE FUNCTION "pluckers_notify_session"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW.revoked_at IS DISTINCT FROM OLD.revoked_at
		OR NEW.second_factor_at IS DISTINCT FROM OLD.second_factor_at THEN
		PERFORM pg_notify('pluckers_events', 's:' || NEW.id);
	END IF;
	RETURN NULL;
END $$;
