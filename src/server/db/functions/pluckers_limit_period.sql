-- The Lagos calendar period (day, week from Monday, or month) that p_now falls in, as
-- limitPeriod (src/shared/responsible-play.ts) gives it; Lagos keeps UTC+1 all year.
CREATE OR REPLACE FUNCTION "pluckers_limit_period"(p_period text, p_now timestamptz)
RETURNS TABLE (starts timestamptz, ends timestamptz)
	LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT (b.first - interval '1 hour') AT TIME ZONE 'UTC',
		(b.first + CASE p_period WHEN 'day' THEN interval '1 day' WHEN 'week' THEN interval '7 days'
			ELSE interval '1 month' END - interval '1 hour') AT TIME ZONE 'UTC'
	FROM (SELECT date_trunc(CASE p_period WHEN 'day' THEN 'day' WHEN 'week' THEN 'week' ELSE 'month' END,
		(p_now AT TIME ZONE 'UTC') + interval '1 hour') AS first) b
$$;
