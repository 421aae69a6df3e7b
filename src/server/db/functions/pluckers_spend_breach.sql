-- The tightest of a player's spend limits that p_amount more would pass at p_now, or no row.
-- A limit in force is its amount, or the raise or removal waiting out its cooling-off once that
-- is over. What counts against it in its period: entry fees not refunded, by when the answer was
-- taken, and plan subscriptions and renewals, by when they were charged. The player's row must
-- be locked, so concurrent charges cannot each see room for themselves.
CREATE OR REPLACE FUNCTION "pluckers_spend_breach"(p_user uuid, p_amount bigint, p_now timestamptz)
RETURNS TABLE (period text, amount bigint, remaining bigint, period_end timestamptz)
	LANGUAGE sql STABLE AS $$
	SELECT l.period, l.amount, greatest(l.amount - used.total, 0)::bigint, p.ends
	FROM (SELECT l.period,
			CASE WHEN l.pending_from <= p_now THEN
				CASE WHEN l.pending_removal THEN NULL ELSE l.pending_amount END
			ELSE l.amount END AS amount
		FROM play_limits l WHERE l.user_id = p_user AND l.kind = 'spend') l
	CROSS JOIN LATERAL pluckers_limit_period(l.period, p_now) p
	CROSS JOIN LATERAL (SELECT
		coalesce((SELECT sum(e.amount_paid) FROM game_entries e
			WHERE e.user_id = p_user AND NOT e.refunded
				AND e.created_at >= p.starts AND e.created_at < p.ends), 0)
		+ coalesce((SELECT -sum(le.amount) FROM ledger_entries le
			JOIN ledger_transactions t ON t.id = le.transaction_id
			WHERE le.user_id = p_user AND le.account = 'wallet'
				AND t.kind IN ('plan', 'plan_renewal')
				AND t.created_at >= p.starts AND t.created_at < p.ends), 0) AS total) used
	WHERE l.amount IS NOT NULL AND p_amount > greatest(l.amount - used.total, 0)
	ORDER BY 3, CASE l.period WHEN 'day' THEN 1 WHEN 'week' THEN 2 ELSE 3 END
	LIMIT 1
$$;
