-- One mailbox, however it is written: case, a +tag (delivered to the same mailbox by most
-- providers) and, at Gmail, dots and the googlemail.com domain.
CREATE OR REPLACE FUNCTION "pluckers_email_key"(p_email text) RETURNS text
	LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT CASE WHEN domain IN ('gmail.com', 'googlemail.com')
			THEN replace(local, '.', '') || '@gmail.com'
			ELSE local || '@' || domain END
		FROM (SELECT split_part(split_part(address, '@', 1), '+', 1) AS local,
				split_part(address, '@', 2) AS domain
			FROM (SELECT lower(btrim(p_email)) AS address) typed) parts
$$;
