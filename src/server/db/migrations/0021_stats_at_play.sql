-- A player's games played and +10 points count when the answer is taken, not at the draw
--: a draw then writes only its winners' rows (a win, the prize, +50 points),
-- where it updated every player's, a million rows for a million entries. A cancelled game takes
-- its players' game and points back (draws/service.ts cancelWithRefunds). The play in one
-- statement (migration 0017) counts them as the JavaScript play does (games/service.ts); the
-- function is otherwise unchanged. Entries already taken in games not yet drawn or cancelled
-- are counted now, so their draw or cancellation finds them counted as every later one is.
CREATE OR REPLACE FUNCTION "pluckers_play"(
	p_user uuid, p_session uuid, p_token_version integer, p_game uuid, p_answer text,
	p_seen_fee bigint, p_now timestamptz, p_day_start timestamptz)
RETURNS TABLE (entry bigint, game uuid, players integer, fee bigint, to_win bigint)
LANGUAGE plpgsql AS $$
DECLARE
	v_daily integer;
	v_minimum bigint;
	v_balance bigint;
	v_age timestamptz;
	v_features jsonb;
	v_game record;
	v_limit integer;
	v_players integer;
	v_entry bigint;
	v_transaction bigint;
BEGIN
	-- The player's row locked first, live account and session, as lockLiveAccount does.
	SELECT u.account_balance, u.age_confirmed_at, p.features
		INTO v_balance, v_age, v_features
		FROM users u LEFT JOIN plans p ON p.id = u.plan_id
		WHERE u.id = p_user AND u.deleted_at IS NULL AND u.suspended_at IS NULL
			AND u.token_version = p_token_version
			AND EXISTS (SELECT 1 FROM sessions s WHERE s.id = p_session AND s.user_id = u.id
				AND s.revoked_at IS NULL AND s.expires_at > p_now)
		FOR UPDATE OF u;
	IF NOT FOUND OR v_age IS NULL THEN RETURN; END IF;
	IF EXISTS (SELECT 1 FROM play_exclusions x WHERE x.user_id = p_user AND x.lifted_at IS NULL
			AND x.starts_at <= p_now AND x.ends_at > p_now) THEN
		RETURN;
	END IF;

	SELECT g.id, g.title, g.entry_fee, g.reward, g.status, g.is_tournament INTO v_game
		FROM games g WHERE g.id = p_game;
	IF NOT FOUND OR v_game.status <> 'ONGOING'
			OR (p_seen_fee IS NOT NULL AND p_seen_fee <> v_game.entry_fee)
			OR (v_game.is_tournament
				AND NOT coalesce((v_features ->> 'tournamentAccess')::boolean, false)) THEN
		RETURN;
	END IF;
	IF EXISTS (SELECT 1 FROM game_entries e WHERE e.game_id = p_game AND e.user_id = p_user) THEN
		RETURN;
	END IF;

	SELECT s.daily_game_limit, s.minimum_payment_amount INTO v_daily, v_minimum
		FROM settings s WHERE s.id = 1;
	v_limit := CASE WHEN v_features IS NULL THEN v_daily
		ELSE (v_features ->> 'gamesPerDay')::integer END;
	IF v_limit IS NOT NULL AND (SELECT count(*) FROM game_entries e
			WHERE e.user_id = p_user AND e.created_at >= p_day_start) >= v_limit THEN
		RETURN;
	END IF;
	IF v_game.entry_fee > 0 AND (v_balance < greatest(v_game.entry_fee, v_minimum)
			OR EXISTS (SELECT 1 FROM play_limits l WHERE l.user_id = p_user AND l.kind = 'spend')) THEN
		RETURN;
	END IF;

	-- The caller announces the play after the commit (see above), so the triggers stay quiet.
	PERFORM set_config('pluckers.announced', 'on', true);
	-- Any place but the last: concurrent players never oversell, and closing stays in JavaScript.
	UPDATE games g SET player_count = g.player_count + 1
		WHERE g.id = p_game AND g.status = 'ONGOING' AND g.player_count + 1 < g.maximum_players
		RETURNING g.player_count INTO v_players;
	IF NOT FOUND THEN RETURN; END IF;

	INSERT INTO game_entries (game_id, user_id, answer, amount_paid, created_at)
		VALUES (p_game, p_user, p_answer, v_game.entry_fee, p_now)
		RETURNING id INTO v_entry;

	-- Games played and +10 points count when the answer is taken, as in the JavaScript play.
	UPDATE users u SET total_games_played = u.total_games_played + 1, points = u.points + 10,
		level = CASE WHEN u.points + 10 < 100 THEN 1 WHEN u.points + 10 < 500 THEN 2
			WHEN u.points + 10 < 2000 THEN 3 WHEN u.points + 10 < 10000 THEN 4 ELSE 5 END
		WHERE u.id = p_user;

	IF v_game.entry_fee > 0 THEN
		INSERT INTO ledger_transactions (kind, reference, description)
			VALUES ('entry_fee', 'entry:' || v_entry, 'Entry fee for "' || v_game.title || '"')
			ON CONFLICT (reference) DO NOTHING
			RETURNING id INTO v_transaction;
		IF v_transaction IS NOT NULL THEN
			UPDATE users u SET account_balance = u.account_balance - v_game.entry_fee
				WHERE u.id = p_user AND u.account_balance >= v_game.entry_fee;
			-- Checked above under the row lock; raising undoes the whole play.
			IF NOT FOUND THEN RAISE EXCEPTION 'entry fee debit failed under the row lock'; END IF;
			INSERT INTO ledger_entries (transaction_id, account, user_id, amount) VALUES
				(v_transaction, 'wallet', p_user, -v_game.entry_fee),
				(v_transaction, 'revenue:entry_fees', NULL, v_game.entry_fee);
		END IF;
	END IF;

	RETURN QUERY SELECT v_entry, v_game.id, v_players, v_game.entry_fee, v_game.reward;
END $$;

--> statement-breakpoint
UPDATE users u SET total_games_played = u.total_games_played + c.games,
	points = u.points + 10 * c.games,
	level = CASE WHEN u.points + 10 * c.games < 100 THEN 1 WHEN u.points + 10 * c.games < 500 THEN 2
		WHEN u.points + 10 * c.games < 2000 THEN 3 WHEN u.points + 10 * c.games < 10000 THEN 4 ELSE 5 END
	FROM (
		SELECT e.user_id, count(*)::integer AS games
		FROM game_entries e JOIN games g ON g.id = e.game_id
		WHERE g.status IN ('UPCOMING', 'ONGOING', 'CLOSED')
		GROUP BY e.user_id
	) c
	WHERE u.id = c.user_id;
