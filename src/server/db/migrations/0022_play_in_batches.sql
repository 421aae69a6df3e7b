-- Plays that reach one instance together go to PostgreSQL as one statement and one transaction
-- (issue 18 part 2, games/play-batch.ts): each still runs `pluckers_play` (migration 0021) and so
-- passes every rule on its own, but the batch shares one round trip, one planning of the call and
-- one commit, whose WAL flush cost more than the play itself. A play the function declines wrote
-- nothing; it has a row with its refusal when that is a game that is full, closed or not started,
-- and none otherwise (the caller's full play answers it). Games are taken in id order, so
-- batches sharing games lock them in one order and do not deadlock over them.
CREATE OR REPLACE FUNCTION "pluckers_play_batch"(p_plays jsonb)
RETURNS TABLE (slot integer, entry bigint, game uuid, players integer, fee bigint, to_win bigint,
	refusal text)
LANGUAGE plpgsql AS $$
DECLARE
	r record;
	v_refusal text;
BEGIN
	FOR r IN SELECT x.n, x.u, x.s, x.v, x.g, x.a, x.f, x.t, x.d
			FROM jsonb_to_recordset(p_plays) AS x(n integer, u uuid, s uuid, v integer, g uuid,
				a text, f bigint, t timestamptz, d timestamptz)
			ORDER BY x.g, x.u, x.n LOOP
		RETURN QUERY SELECT r.n, p.entry, p.game, p.players, p.fee, p.to_win, NULL::text
			FROM pluckers_play(r.u, r.s, r.v, r.g, r.a, r.f, r.t, r.d) p;
		IF NOT FOUND THEN
			-- Declined. The commonest reason under load, a game that filled or closed meanwhile, is
			-- told here when every check the full play makes before it passes (a live account and
			-- session, the age confirmed, no break, the fee as shown), so the full play's nine
			-- statements are not run just to say so. Anything else: no row, the full play answers.
			SELECT CASE WHEN g.status = 'UPCOMING' THEN 'not_started'
					WHEN g.status = 'CLOSED' AND g.player_count >= g.maximum_players THEN 'full'
					WHEN g.status <> 'ONGOING' THEN 'closed' END
				INTO v_refusal
				FROM games g
				WHERE g.id = r.g AND (r.f IS NULL OR r.f = g.entry_fee)
					AND EXISTS (SELECT 1 FROM users u JOIN sessions s ON s.user_id = u.id
						WHERE u.id = r.u AND u.deleted_at IS NULL AND u.suspended_at IS NULL
							AND u.token_version = r.v AND u.age_confirmed_at IS NOT NULL
							AND s.id = r.s AND s.revoked_at IS NULL AND s.expires_at > r.t)
					AND NOT EXISTS (SELECT 1 FROM play_exclusions x WHERE x.user_id = r.u
						AND x.lifted_at IS NULL AND x.starts_at <= r.t AND x.ends_at > r.t);
			IF v_refusal IS NOT NULL THEN
				RETURN QUERY SELECT r.n, NULL::bigint, r.g, NULL::integer, NULL::bigint, NULL::bigint,
					v_refusal;
			END IF;
		END IF;
	END LOOP;
END $$;

--> statement-breakpoint
-- The daily limit's count of a player's entries today read the player's whole history through
-- game_entries_user_idx (user_id, id), filtering on created_at: 500 rows a play for a player of
-- 500 games. This index makes it today's range alone.
CREATE INDEX IF NOT EXISTS "game_entries_user_day_idx" ON "game_entries" USING btree ("user_id","created_at");
