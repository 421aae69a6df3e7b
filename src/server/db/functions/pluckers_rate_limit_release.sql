-- What an instance claimed and did not use, given back when it shuts down (a rolling restart
-- would otherwise leave those units unusable until the window ends).
CREATE OR REPLACE FUNCTION "pluckers_rate_limit_release"(p_units jsonb) RETURNS void LANGUAGE sql AS $$
	UPDATE rate_limit_hits AS r SET hits = GREATEST(0, r.hits - u.units)
	FROM jsonb_to_recordset(p_units) AS u(key text, window_start_ms bigint, units integer)
	WHERE r.key = u.key
		AND (extract(epoch FROM r.window_start) * 1000)::bigint = u.window_start_ms;
$$;
