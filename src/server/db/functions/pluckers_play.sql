-- A play, every rule of it, in one statement (called by modules/games/play.ts, alone or in a batch
-- through pluckers_play_batch). It answers exactly one row: the place taken, or the refusal and
-- what the player is told it by (`detail`), in the order the rules are checked:
--   unauthorized, suspended    the account or the session is no longer what the request was
--                              admitted with (the player's row is locked first, so a log-out,
--                              suspension or deletion committed before it stops the play)
--   age_unconfirmed            no 18+ confirmation yet
--   paused                     a time-out or self-exclusion runs (detail: the break ending last)
--   not_found                  no such game
--   fee_changed, reward_changed   the terms differ from those the player was shown
--   not_started, full, closed  the game is upcoming, filled by its last place, or closed otherwise
--   tournament_only            a tournament, and no plan with tournament access
--   already_played             one answer per player per game
--   daily_limit                the day's games (detail: the limit; a plan's gamesPerDay, else
--                              the settings' daily_game_limit; null is unlimited)
--   insufficient_funds         a paid game needs max(fee, minimum payment) (detail: that amount)
--   spend_limit                the fee would pass a spend limit (detail: the tightest one)
--   last_place                 only when p_may_fill is false (a batch): every rule passes but the
--                              play would take the last place, which closes the game and queues
--                              its draw; the caller plays it alone with p_may_fill
-- A refusal writes nothing. A place taken writes the place, the entry, the player's games played,
-- points, level and day's count, and the entry fee's posting (ledger_post), and answers `last`
-- when it took the last place: the caller then closes the game and queues its draw in the same
-- transaction (the lifecycle's move, modules/game-lifecycle/moves.ts).
--
-- The game is read without a lock and its place taken with one conditional update, which checks
-- that the terms read still hold (an operator's edit locks the game's row and refuses once anyone
-- has played): concurrent players never oversell, and no entry is taken on terms the player was
-- not shown. When that update finds the game changed, the rules are checked again on the game
-- read under its lock.
--
-- Such a play sends no notification itself: NOTIFY serialises notifying transactions' commits.
-- The instance that made the play announces it after the commit (pluckers_announce).
CREATE OR REPLACE FUNCTION "pluckers_play"(
	p_user uuid, p_session uuid, p_token_version integer, p_game uuid, p_answer text,
	p_seen_fee bigint, p_seen_reward bigint, p_now timestamptz, p_day_start timestamptz,
	p_may_fill boolean)
RETURNS TABLE (entry bigint, game uuid, players integer, fee bigint, to_win bigint, last boolean,
	refusal text, detail jsonb)
LANGUAGE plpgsql AS $$
DECLARE
	v_account record;
	v_break record;
	v_game record;
	v_breach record;
	v_daily integer;
	v_minimum bigint;
	v_limit integer;
	v_needed bigint;
	v_refusal text;
	v_detail jsonb;
	v_players integer;
	v_last boolean;
	v_entry bigint;
BEGIN
	<<decide>>
	BEGIN
		SELECT u.token_version, u.suspended_at, u.deleted_at, u.account_balance, u.age_confirmed_at,
				p.features,
				CASE WHEN u.daily_games_day >= p_day_start THEN u.daily_games ELSE 0 END AS today,
				EXISTS (SELECT 1 FROM sessions s WHERE s.id = p_session AND s.user_id = u.id
					AND s.revoked_at IS NULL AND s.expires_at > p_now) AS session_live
			INTO v_account
			FROM users u LEFT JOIN plans p ON p.id = u.plan_id
			WHERE u.id = p_user
			FOR UPDATE OF u;
		IF NOT FOUND OR v_account.deleted_at IS NOT NULL OR NOT v_account.session_live
				OR v_account.token_version <> p_token_version THEN
			v_refusal := 'unauthorized';
			EXIT decide;
		END IF;
		IF v_account.suspended_at IS NOT NULL THEN
			v_refusal := 'suspended';
			EXIT decide;
		END IF;
		IF v_account.age_confirmed_at IS NULL THEN
			v_refusal := 'age_unconfirmed';
			EXIT decide;
		END IF;
		SELECT x.kind, x.ends_at, x.bound_from, x.bound_by INTO v_break
			FROM play_exclusions x
			WHERE x.user_id = p_user AND x.lifted_at IS NULL AND x.starts_at <= p_now
				AND x.ends_at > p_now
			ORDER BY x.ends_at DESC LIMIT 1;
		IF FOUND THEN
			v_refusal := 'paused';
			v_detail := jsonb_build_object('kind', v_break.kind, 'endsAt', v_break.ends_at,
				'boundFrom', v_break.bound_from, 'boundBy', to_jsonb(v_break.bound_by));
			EXIT decide;
		END IF;
		SELECT s.daily_game_limit, s.minimum_payment_amount INTO v_daily, v_minimum
			FROM settings s WHERE s.id = 1;

		FOR v_attempt IN 1..2 LOOP
			IF v_attempt = 1 THEN
				SELECT g.id, g.title, g.entry_fee, g.reward, g.status, g.is_tournament,
						g.player_count, g.maximum_players
					INTO v_game FROM games g WHERE g.id = p_game;
			ELSE
				SELECT g.id, g.title, g.entry_fee, g.reward, g.status, g.is_tournament,
						g.player_count, g.maximum_players
					INTO v_game FROM games g WHERE g.id = p_game FOR NO KEY UPDATE;
			END IF;
			IF NOT FOUND THEN
				v_refusal := 'not_found';
				EXIT decide;
			END IF;
			IF p_seen_fee IS NOT NULL AND p_seen_fee <> v_game.entry_fee THEN
				v_refusal := 'fee_changed';
				EXIT decide;
			END IF;
			IF p_seen_reward IS NOT NULL AND p_seen_reward <> v_game.reward THEN
				v_refusal := 'reward_changed';
				EXIT decide;
			END IF;
			IF v_game.status = 'UPCOMING' THEN
				v_refusal := 'not_started';
				EXIT decide;
			END IF;
			-- Taking the last place closes a game: later players are told it is full.
			IF v_game.status = 'CLOSED' AND v_game.player_count >= v_game.maximum_players THEN
				v_refusal := 'full';
				EXIT decide;
			END IF;
			IF v_game.status <> 'ONGOING' THEN
				v_refusal := 'closed';
				EXIT decide;
			END IF;
			IF v_game.is_tournament
					AND NOT coalesce((v_account.features ->> 'tournamentAccess')::boolean, false) THEN
				v_refusal := 'tournament_only';
				EXIT decide;
			END IF;
			IF EXISTS (SELECT 1 FROM game_entries e WHERE e.game_id = p_game AND e.user_id = p_user) THEN
				v_refusal := 'already_played';
				EXIT decide;
			END IF;
			v_limit := CASE WHEN v_account.features IS NULL THEN v_daily
				ELSE (v_account.features ->> 'gamesPerDay')::integer END;
			IF v_limit IS NOT NULL AND v_account.today >= v_limit THEN
				v_refusal := 'daily_limit';
				v_detail := jsonb_build_object('limit', v_limit);
				EXIT decide;
			END IF;
			IF v_game.entry_fee > 0 THEN
				v_needed := greatest(v_game.entry_fee, v_minimum);
				IF v_account.account_balance < v_needed THEN
					v_refusal := 'insufficient_funds';
					v_detail := jsonb_build_object('needed', v_needed);
					EXIT decide;
				END IF;
				SELECT * INTO v_breach FROM pluckers_spend_breach(p_user, v_game.entry_fee, p_now);
				IF FOUND THEN
					v_refusal := 'spend_limit';
					v_detail := jsonb_build_object('period', v_breach.period, 'limit', v_breach.amount,
						'remaining', v_breach.remaining, 'end', v_breach.period_end);
					EXIT decide;
				END IF;
			END IF;
			IF NOT p_may_fill AND v_game.player_count + 1 >= v_game.maximum_players THEN
				v_refusal := 'last_place';
				EXIT decide;
			END IF;

			-- The caller announces the play after the commit, so the triggers stay quiet.
			PERFORM set_config('pluckers.announced', 'on', true);
			UPDATE games g SET player_count = g.player_count + 1
				WHERE g.id = p_game AND g.status = 'ONGOING' AND g.player_count < g.maximum_players
					AND (p_may_fill OR g.player_count + 1 < g.maximum_players)
					AND g.entry_fee = v_game.entry_fee AND g.reward = v_game.reward
				RETURNING g.player_count, g.player_count >= g.maximum_players
				INTO v_players, v_last;
			EXIT decide WHEN FOUND;
			-- Changed since it was read: the second reading holds the game's lock, so its checks
			-- stand, and its update misses only a game with no place left.
		END LOOP;
		v_refusal := 'full';
	END decide;

	IF v_refusal IS NOT NULL THEN
		RETURN QUERY SELECT NULL::bigint, p_game, NULL::integer, NULL::bigint, NULL::bigint, false,
			v_refusal, v_detail;
		RETURN;
	END IF;

	INSERT INTO game_entries (game_id, user_id, answer, amount_paid, created_at)
		VALUES (p_game, p_user, p_answer, v_game.entry_fee, p_now)
		RETURNING id INTO v_entry;

	-- Games played and +10 points count when the answer is taken; the draw adds only wins. So is
	-- the day's count, in the same row (an instance whose clock lags keeps the later day).
	UPDATE users u SET total_games_played = u.total_games_played + 1, points = u.points + 10,
		daily_games = CASE WHEN u.daily_games_day >= p_day_start THEN u.daily_games + 1 ELSE 1 END,
		daily_games_day = greatest(u.daily_games_day, p_day_start),
		level = pluckers_level(u.points + 10)
		WHERE u.id = p_user;

	IF v_game.entry_fee > 0 THEN
		PERFORM ledger_post('entry_fee', 'entry:' || v_entry,
			'Entry fee for "' || v_game.title || '"',
			ARRAY['wallet', 'revenue:entry_fees']::ledger_account[],
			ARRAY[p_user, NULL]::uuid[],
			ARRAY[-v_game.entry_fee, v_game.entry_fee]);
	END IF;

	RETURN QUERY SELECT v_entry, v_game.id, v_players, v_game.entry_fee, v_game.reward, v_last,
		NULL::text, NULL::jsonb;
END $$;
