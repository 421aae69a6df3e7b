-- A play in one statement (modules/games/play-fast.ts). The play in JavaScript is 15 statements
-- in a transaction, each a round trip whose socket writes and query building cost the server
-- far more CPU than PostgreSQL spends on them. This function takes the common case, a play
-- that passes every rule, in one round trip and writes exactly what the JavaScript play writes.
-- Whenever anything is off (session, age, break, game, fee, tournament, already played, daily
-- limit, balance, any spend limit set, the last place, which closes the game and queues its
-- draw), it writes nothing and returns no row: the caller then runs the JavaScript play, which
-- says why in the spec's words. So refusals and rare cases keep one implementation.
-- The ledger's account names and the posting's texts are those of modules/wallet/ledger.ts and
-- modules/games/service.ts.
--
-- Such a play sends no notification itself. NOTIFY makes PostgreSQL serialise the commits of
-- notifying transactions, each holding a database-wide lock through its WAL flush, which cut
-- the plays pgbench could make through this function several times over (bench/RESULTS.md).
-- The instance that made the play announces it right after the commit instead
-- (`pluckers_announce`, plugins/cluster-events.ts), many plays in one transaction that does not
-- wait for its flush (a notification needs no durability).
CREATE FUNCTION "pluckers_play"(
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
CREATE OR REPLACE FUNCTION "pluckers_notify_games"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('pluckers.announced', true) = 'on' THEN RETURN NULL; END IF;
	PERFORM pg_notify('pluckers_events', 'g');
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pluckers_notify_entries"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	entry record;
BEGIN
	IF current_setting('pluckers.announced', true) = 'on' THEN RETURN NULL; END IF;
	-- A bulk insert (imports, generated data) says "forget every player's entries" once
	-- instead of queueing one notification per row.
	IF (SELECT count(*) FROM inserted) > 100 THEN
		PERFORM pg_notify('pluckers_events', 'P');
	ELSE
		FOR entry IN SELECT user_id, game_id FROM inserted LOOP
			PERFORM pg_notify('pluckers_events', 'p:' || entry.user_id || ':' || entry.game_id);
		END LOOP;
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
-- Notifications an instance sends for changes it made (plays in one statement), in one
-- transaction that does not wait for its WAL flush: it writes nothing that must survive a crash.
CREATE FUNCTION "pluckers_announce"(p_events jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	PERFORM set_config('synchronous_commit', 'off', true);
	PERFORM pg_notify('pluckers_events', e) FROM jsonb_array_elements_text(p_events) AS e;
END $$;
