-- Where the row carries the server's time, PostgreSQL binds by itself: a break as it starts, and
-- every sign-in, which no account can play or pay without.
CREATE OR REPLACE FUNCTION "pluckers_bind_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_TABLE_NAME = 'play_exclusions' THEN
		PERFORM pluckers_bind_person(NEW.user_id, NEW.starts_at);
	ELSE
		PERFORM pluckers_bind_person(NEW.user_id, NEW.created_at);
	END IF;
	RETURN NULL;
END $$;
