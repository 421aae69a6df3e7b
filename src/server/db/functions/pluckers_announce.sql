-- Notifications an instance sends for changes it made (plays in one statement), in one
-- transaction that does not wait for its WAL flush: it writes nothing that must survive a crash.
CREATE OR REPLACE FUNCTION "pluckers_announce"(p_events jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	PERFORM set_config('synchronous_commit', 'off', true);
	PERFORM pg_notify('pluckers_events', e) FROM jsonb_array_elements_text(p_events) AS e;
END $$;
