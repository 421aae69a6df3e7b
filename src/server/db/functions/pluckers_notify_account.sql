CREATE OR REPLACE FUNCTION "pluckers_notify_account"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('pluckers_events', 'u:' || NEW.id);
	RETURN NULL;
END $$;
