-- What counts against a player's spend limits in [p_starts, p_ends): entry fees not refunded, by
-- when the answer was taken, and plan subscriptions and renewals, by when they were charged.
CREATE OR REPLACE FUNCTION "pluckers_spend_used"(p_user uuid, p_starts timestamptz,
	p_ends timestamptz) RETURNS bigint
	LANGUAGE sql STABLE AS $$
	SELECT (coalesce((SELECT sum(e.amount_paid) FROM game_entries e
			WHERE e.user_id = p_user AND NOT e.refunded
				AND e.created_at >= p_starts AND e.created_at < p_ends), 0)
		+ coalesce((SELECT -sum(le.amount) FROM ledger_entries le
			JOIN ledger_transactions t ON t.id = le.transaction_id
			WHERE le.user_id = p_user AND le.account = 'wallet'
				AND t.kind IN ('plan', 'plan_renewal')
				AND t.created_at >= p_starts AND t.created_at < p_ends), 0))::bigint
$$;
