CREATE OR REPLACE FUNCTION "pluckers_notify_games"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('pluckers.announced', true) = 'on' THEN RETURN NULL; END IF;
	PERFORM pg_notify('pluckers_events', 'g');
	RETURN NULL;
END $$;
