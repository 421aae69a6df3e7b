-- A game's status moves only as the lifecycle allows (modules/game-lifecycle/machine.ts, whose
-- table this repeats): UPCOMING → ONGOING → CLOSED → COMPLETED or CANCELLED, an unplayed game's
-- start moved either way by an operator's edit, and a cancellation from any status before the
-- draw. Any other change is refused here, whoever writes it. The WHEN clause keeps the trigger
-- off every update that leaves the status as it is, which is every play but a game's last.
CREATE FUNCTION "pluckers_game_status_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF (OLD.status, NEW.status) NOT IN (
			('UPCOMING', 'ONGOING'), ('ONGOING', 'UPCOMING'),
			('UPCOMING', 'CLOSED'), ('ONGOING', 'CLOSED'),
			('CLOSED', 'COMPLETED'),
			('UPCOMING', 'CANCELLED'), ('ONGOING', 'CANCELLED'), ('CLOSED', 'CANCELLED')) THEN
		RAISE EXCEPTION 'game % cannot move from % to %', OLD.id, OLD.status, NEW.status
			USING ERRCODE = 'check_violation';
	END IF;
	-- Waiting for its start again is only for a game nobody has played.
	IF NEW.status = 'UPCOMING' AND OLD.player_count > 0 THEN
		RAISE EXCEPTION 'game % has players and cannot wait for its start again', OLD.id
			USING ERRCODE = 'check_violation';
	END IF;
	RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "games_status_move" BEFORE UPDATE OF "status" ON "games"
	FOR EACH ROW
	WHEN (OLD.status IS DISTINCT FROM NEW.status)
	EXECUTE FUNCTION "pluckers_game_status_move"();
--> statement-breakpoint
-- A play takes its place on the terms the player was shown (fee and reward), never on terms an
-- operator's edit put in their place meanwhile. The play in one statement is restated from
-- migration 0026 with the reward the player saw, and its place is taken only while the game's
-- terms are still the ones it read: the edit locks the game's row and refuses once anyone has
-- played (games/admin-service.ts), so an edit committed between the play's read and its place
-- leaves the place untaken and the full play answers with the new terms. The batch reads the
-- reward seen as `w`; a batch sent without it checks the fee alone, as before.
DROP FUNCTION "pluckers_play"(uuid, uuid, integer, uuid, text, bigint, timestamptz, timestamptz);
--> statement-breakpoint
CREATE FUNCTION "pluckers_play"(
	p_user uuid, p_session uuid, p_token_version integer, p_game uuid, p_answer text,
	p_seen_fee bigint, p_seen_reward bigint, p_now timestamptz, p_day_start timestamptz)
RETURNS TABLE (entry bigint, game uuid, players integer, fee bigint, to_win bigint)
LANGUAGE plpgsql AS $$
DECLARE
	v_daily integer;
	v_today integer;
	v_minimum bigint;
	v_balance bigint;
	v_age timestamptz;
	v_features jsonb;
	v_game record;
	v_limit integer;
	v_players integer;
	v_entry bigint;
BEGIN
	-- The player's row locked first, live account and session, as lockLiveAccount does.
	SELECT u.account_balance, u.age_confirmed_at, p.features,
			CASE WHEN u.daily_games_day >= p_day_start THEN u.daily_games ELSE 0 END
		INTO v_balance, v_age, v_features, v_today
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
			OR (p_seen_reward IS NOT NULL AND p_seen_reward <> v_game.reward)
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
	IF v_limit IS NOT NULL AND v_today >= v_limit THEN
		RETURN;
	END IF;
	IF v_game.entry_fee > 0 AND (v_balance < greatest(v_game.entry_fee, v_minimum)
			OR EXISTS (SELECT 1 FROM play_limits l WHERE l.user_id = p_user AND l.kind = 'spend')) THEN
		RETURN;
	END IF;

	-- The caller announces the play after the commit (see above), so the triggers stay quiet.
	PERFORM set_config('pluckers.announced', 'on', true);
	-- Any place but the last: concurrent players never oversell, and closing stays in JavaScript.
	-- The game was read above without a lock; here, under its row lock, the terms must still be
	-- the ones read, or an operator's edit that committed in between would take this entry on
	-- terms the player was never shown. If they changed, the full play says so.
	UPDATE games g SET player_count = g.player_count + 1
		WHERE g.id = p_game AND g.status = 'ONGOING' AND g.player_count + 1 < g.maximum_players
			AND g.entry_fee = v_game.entry_fee AND g.reward = v_game.reward
		RETURNING g.player_count INTO v_players;
	IF NOT FOUND THEN RETURN; END IF;

	INSERT INTO game_entries (game_id, user_id, answer, amount_paid, created_at)
		VALUES (p_game, p_user, p_answer, v_game.entry_fee, p_now)
		RETURNING id INTO v_entry;

	-- Games played and +10 points count when the answer is taken, as in the JavaScript play.
	-- So is the day's count, in the same row (an instance whose clock lags keeps the later day).
	UPDATE users u SET total_games_played = u.total_games_played + 1, points = u.points + 10,
		daily_games = CASE WHEN u.daily_games_day >= p_day_start THEN u.daily_games + 1 ELSE 1 END,
		daily_games_day = greatest(u.daily_games_day, p_day_start),
		level = CASE WHEN u.points + 10 < 100 THEN 1 WHEN u.points + 10 < 500 THEN 2
			WHEN u.points + 10 < 2000 THEN 3 WHEN u.points + 10 < 10000 THEN 4 ELSE 5 END
		WHERE u.id = p_user;

	IF v_game.entry_fee > 0 THEN
		PERFORM ledger_post('entry_fee', 'entry:' || v_entry,
			'Entry fee for "' || v_game.title || '"',
			ARRAY['wallet', 'revenue:entry_fees']::ledger_account[],
			ARRAY[p_user, NULL]::uuid[],
			ARRAY[-v_game.entry_fee, v_game.entry_fee]);
	END IF;

	RETURN QUERY SELECT v_entry, v_game.id, v_players, v_game.entry_fee, v_game.reward;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pluckers_play_batch"(p_plays jsonb)
RETURNS TABLE (slot integer, entry bigint, game uuid, players integer, fee bigint, to_win bigint,
	refusal text)
LANGUAGE plpgsql AS $$
DECLARE
	r record;
	v_refusal text;
BEGIN
	FOR r IN SELECT x.n, x.u, x.s, x.v, x.g, x.a, x.f, x.w, x.t, x.d
			FROM jsonb_to_recordset(p_plays) AS x(n integer, u uuid, s uuid, v integer, g uuid,
				a text, f bigint, w bigint, t timestamptz, d timestamptz)
			ORDER BY x.g, x.u, x.n LOOP
		RETURN QUERY SELECT r.n, p.entry, p.game, p.players, p.fee, p.to_win, NULL::text
			FROM pluckers_play(r.u, r.s, r.v, r.g, r.a, r.f, r.w, r.t, r.d) p;
		IF NOT FOUND THEN
			-- Declined. The commonest reason under load, a game that filled or closed meanwhile, is
			-- told here when every check the full play makes before it passes (a live account and
			-- session, the age confirmed, no break, the fee and reward as shown), so the full play's nine
			-- statements are not run just to say so. Anything else: no row, the full play answers.
			SELECT CASE WHEN g.status = 'UPCOMING' THEN 'not_started'
					WHEN g.status = 'CLOSED' AND g.player_count >= g.maximum_players THEN 'full'
					WHEN g.status <> 'ONGOING' THEN 'closed' END
				INTO v_refusal
				FROM games g
				WHERE g.id = r.g AND (r.f IS NULL OR r.f = g.entry_fee)
					AND (r.w IS NULL OR r.w = g.reward)
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
