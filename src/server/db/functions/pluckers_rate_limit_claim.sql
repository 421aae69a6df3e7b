-- The per-client API limit, exact across instances: an instance admits a request only with a unit
-- of the client's budget it has claimed here, so however requests are spread, no more than the
-- limit get through in a window. Claiming one unit per request would put a round trip on every
-- read, so a claim takes a share of what is left (a tenth, at least one): far from the limit an
-- instance asks rarely, near it once per request, and once the budget is gone it stops asking
-- until the window ends. The key's row is locked from the read to the write, so concurrent claims
-- from every instance queue on it and never hand out the same unit twice.
CREATE OR REPLACE FUNCTION "pluckers_rate_limit_claim"(
	p_key text, p_now timestamptz, p_window_ms integer, p_limit integer, p_share integer,
	OUT granted integer, OUT hits integer, OUT window_start timestamptz
) LANGUAGE plpgsql AS $$
BEGIN
	-- Creates the row when missing and locks it either way; a no-op update of an existing row.
	INSERT INTO rate_limit_hits AS r (key, window_start, hits) VALUES (p_key, p_now, 0)
	ON CONFLICT (key) DO UPDATE SET hits = r.hits
	RETURNING r.hits, r.window_start INTO hits, window_start;
	IF window_start + make_interval(secs => p_window_ms / 1000.0) <= p_now THEN
		hits := 0;
		window_start := p_now;
	END IF;
	granted := CASE WHEN hits >= p_limit THEN 0
		ELSE LEAST(p_limit - hits, GREATEST(1, (p_limit - hits) / p_share)) END;
	hits := hits + granted;
	UPDATE rate_limit_hits AS r SET hits = pluckers_rate_limit_claim.hits,
		window_start = pluckers_rate_limit_claim.window_start
	WHERE r.key = p_key;
END $$;
