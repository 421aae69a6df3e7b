-- The tightest of a player's spend limits that p_amount more would pass at p_now, or no row: the
-- rule for entry fees (pluckers_play) and plans (responsible-play/limits.ts) alike. A limit in
-- force is its amount, or the raise or removal waiting out its cooling-off once that is over;
-- what counts against it is pluckers_spend_used over its Lagos period. Among equally tight
-- limits the shortest period is named. The player's row must be locked, so concurrent charges
-- cannot each see room for themselves.
CREATE OR REPLACE FUNCTION "pluckers_spend_breach"(p_user uuid, p_amount bigint, p_now timestamptz)
RETURNS TABLE (period text, amount bigint, remaining bigint, period_end timestamptz)
	LANGUAGE sql STABLE AS $$
	SELECT l.period, l.amount, greatest(l.amount - u.used, 0), p.ends
	FROM (SELECT l.period,
			CASE WHEN l.pending_from <= p_now THEN
				CASE WHEN l.pending_removal THEN NULL ELSE l.pending_amount END
			ELSE l.amount END AS amount
		FROM play_limits l WHERE l.user_id = p_user AND l.kind = 'spend') l
	CROSS JOIN LATERAL pluckers_limit_period(l.period, p_now) p
	CROSS JOIN LATERAL (SELECT pluckers_spend_used(p_user, p.starts, p.ends) AS used) u
	WHERE l.amount IS NOT NULL AND p_amount > greatest(l.amount - u.used, 0)
	ORDER BY 3, CASE l.period WHEN 'day' THEN 1 WHEN 'week' THEN 2 ELSE 3 END
	LIMIT 1
$$;
