CREATE OR REPLACE FUNCTION "pluckers_notify_job"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('pluckers_events', 'j');
	RETURN NULL;
END $$;
