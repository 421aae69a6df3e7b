-- Plays that arrived together (modules/games/play-batch.ts), one transaction and one round trip:
-- each is pluckers_play's on its own, with its answer (a place or a refusal) as its row, and a
-- play that would take a game's last place is left to its caller (refusal 'last_place'). In the
-- order of game then player, so two batches lock the rows they share in the same order.
CREATE OR REPLACE FUNCTION "pluckers_play_batch"(p_plays jsonb)
RETURNS TABLE (slot integer, entry bigint, game uuid, players integer, fee bigint, to_win bigint,
	last boolean, refusal text, detail jsonb)
LANGUAGE plpgsql AS $$
DECLARE
	r record;
BEGIN
	FOR r IN SELECT x.n, x.u, x.s, x.v, x.g, x.a, x.f, x.w, x.t, x.d
			FROM jsonb_to_recordset(p_plays) AS x(n integer, u uuid, s uuid, v integer, g uuid,
				a text, f bigint, w bigint, t timestamptz, d timestamptz)
			ORDER BY x.g, x.u, x.n LOOP
		RETURN QUERY SELECT r.n, p.entry, p.game, p.players, p.fee, p.to_win, p.last, p.refusal,
				p.detail
			FROM pluckers_play(r.u, r.s, r.v, r.g, r.a, r.f, r.w, r.t, r.d, false) p;
	END LOOP;
END $$;
