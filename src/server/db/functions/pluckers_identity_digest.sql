CREATE OR REPLACE FUNCTION "pluckers_identity_digest"(p_kind text, p_value text) RETURNS text
	LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT encode(sha256(convert_to(p_kind || ':' || p_value, 'UTF8')), 'hex')
$$;
