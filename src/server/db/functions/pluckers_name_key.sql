-- A name however it is spaced, cased or ordered (a surname first on one record, last on another).
CREATE OR REPLACE FUNCTION "pluckers_name_key"(p_name text) RETURNS text
	LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT string_agg(word, ' ' ORDER BY word)
		FROM regexp_split_to_table(lower(btrim(p_name)), '\s+') word WHERE word <> ''
$$;
