CREATE OR REPLACE FUNCTION "pluckers_notify_entries"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	entry record;
BEGIN
	IF current_setting('pluckers.announced', true) = 'on' THEN RETURN NULL; END IF;
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
