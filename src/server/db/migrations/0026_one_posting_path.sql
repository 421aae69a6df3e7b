-- One posting path, enforced by PostgreSQL. Every movement of money (plays' entry fees, draws'
-- prizes and refunds, top-ups, holds, withdrawals and payouts, plans, adjustments) is written by
-- `ledger_post`, the one function below: the TypeScript post() (wallet/ledger.ts), the play
-- function and the draws all call it. Accounts and posting kinds are closed lists, mirrored by
-- src/shared/ledger.ts. The database refuses what the ledger check (wallet/ledger-check.ts) could
-- only report afterwards:
--   - a ledger row written by anything but ledger_post (statement triggers, next to free);
--   - a transaction whose lines do not sum to zero or are fewer than two: a deferred constraint
--     trigger on ledger_transactions, once per transaction at commit, summing its lines through
--     ledger_entries_transaction_idx (one index range, however many lines a draw writes);
--   - a wallet debited below zero: ledger_post debits each wallet with one conditional update, in
--     user-id order, and users_balance_non_negative stays the last line of defence;
--   - a reference posted again with different lines or kind; the same lines again are a no-op,
--     so retries stay safe.
CREATE TYPE "public"."ledger_kind" AS ENUM('top_up', 'payment_hold', 'payment_hold_release', 'payment_hold_return', 'entry_fee', 'prize', 'refund', 'plan', 'plan_renewal', 'withdrawal', 'withdrawal_refund', 'payout', 'payout_reversal', 'adjustment', 'test_topup');--> statement-breakpoint
CREATE TYPE "public"."ledger_account" AS ENUM('wallet', 'clearing:payments:transactpay', 'clearing:payments:paystack', 'clearing:payments:flutterwave', 'clearing:payments:test', 'held:payments', 'clearing:payouts', 'bank:payouts', 'revenue:entry_fees', 'revenue:plans', 'revenue:withdrawal_fees', 'expense:prizes', 'expense:adjustments');--> statement-breakpoint
-- The check compares the column with text; it is put back once the column is an enum.
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_wallet_has_user";--> statement-breakpoint
ALTER TABLE "ledger_transactions" ALTER COLUMN "kind" SET DATA TYPE "public"."ledger_kind" USING "kind"::"public"."ledger_kind";--> statement-breakpoint
ALTER TABLE "ledger_entries" ALTER COLUMN "account" SET DATA TYPE "public"."ledger_account" USING "account"::"public"."ledger_account";--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_wallet_has_user" CHECK (("ledger_entries"."account" = 'wallet') = ("ledger_entries"."user_id" IS NOT NULL));--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ledger_post"(
	p_kind ledger_kind, p_reference text, p_description text,
	p_accounts ledger_account[], p_users uuid[], p_amounts bigint[],
	p_at timestamptz DEFAULT NULL, p_caller_credits_wallets boolean DEFAULT false)
RETURNS bigint
LANGUAGE plpgsql AS $$
-- Posts one transaction: lines i of the three arrays are (account, user id or NULL, kobo; positive
-- credits the account). Returns its id, or NULL when this reference was already posted with the
-- same kind and lines. Wallet lines move users.account_balance here, unless the caller credits
-- the wallets itself in the same database transaction (p_caller_credits_wallets: the draw writes
-- each winner's row once, balance and stats together); then wallet lines may only be credits.
-- Errors: LE001 a wallet cannot pay its debit; LE002 the reference was posted with other lines;
-- 23514 a malformed posting. On any error the caller's transaction (or savepoint) must roll back.
DECLARE
	v_lines integer := coalesce(cardinality(p_accounts), 0);
	v_total numeric := 0;
	v_misplaced integer := 0;
	v_zero integer := 0;
	v_debits integer := 0;
	v_wallets integer := 0;
	v_wallet integer;
	v_id bigint;
	v_kind ledger_kind;
	r record;
BEGIN
	IF v_lines IS DISTINCT FROM coalesce(cardinality(p_users), 0)
			OR v_lines IS DISTINCT FROM coalesce(cardinality(p_amounts), 0) THEN
		RAISE EXCEPTION 'posting %: lines of different lengths', p_reference
			USING ERRCODE = 'check_violation';
	END IF;
	-- A play's or a payment's few lines are checked in the procedure; a draw's many in one query.
	IF v_lines <= 8 THEN
		FOR i IN 1..v_lines LOOP
			v_total := v_total + coalesce(p_amounts[i], 0);
			IF coalesce(p_amounts[i], 0) = 0 THEN v_zero := v_zero + 1; END IF;
			IF (p_accounts[i] = 'wallet') IS DISTINCT FROM (p_users[i] IS NOT NULL) THEN
				v_misplaced := v_misplaced + 1;
			END IF;
			IF p_accounts[i] = 'wallet' THEN
				v_wallets := v_wallets + 1;
				v_wallet := i;
				IF p_amounts[i] < 0 THEN v_debits := v_debits + 1; END IF;
			END IF;
		END LOOP;
	ELSE
		SELECT coalesce(sum(l.m), 0),
				count(*) FILTER (WHERE (l.a = 'wallet') IS DISTINCT FROM (l.u IS NOT NULL)),
				count(*) FILTER (WHERE l.m IS NULL OR l.m = 0),
				count(*) FILTER (WHERE l.a = 'wallet'),
				count(*) FILTER (WHERE l.a = 'wallet' AND l.m < 0)
			INTO v_total, v_misplaced, v_zero, v_wallets, v_debits
			FROM unnest(p_accounts, p_users, p_amounts) AS l(a, u, m);
	END IF;
	IF v_lines < 2 THEN
		RAISE EXCEPTION 'posting % needs two or more lines', p_reference USING ERRCODE = 'check_violation';
	END IF;
	IF v_zero > 0 THEN
		RAISE EXCEPTION 'posting % has a line of no amount', p_reference USING ERRCODE = 'check_violation';
	END IF;
	IF v_total <> 0 THEN
		RAISE EXCEPTION 'unbalanced posting %: sums to %', p_reference, v_total
			USING ERRCODE = 'check_violation';
	END IF;
	IF v_misplaced > 0 THEN
		RAISE EXCEPTION 'posting %: only wallet lines carry a user id', p_reference
			USING ERRCODE = 'check_violation';
	END IF;
	IF p_caller_credits_wallets AND v_debits > 0 THEN
		RAISE EXCEPTION 'posting %: a wallet debit is never left to the caller', p_reference
			USING ERRCODE = 'check_violation';
	END IF;

	PERFORM set_config('pluckers.ledger_post', 'on', true);
	INSERT INTO ledger_transactions (kind, reference, description, created_at)
		VALUES (p_kind, p_reference, p_description, coalesce(p_at, now()))
		ON CONFLICT (reference) DO NOTHING
		RETURNING id INTO v_id;
	IF v_id IS NULL THEN
		PERFORM set_config('pluckers.ledger_post', '', true);
		-- A retry is a no-op; the same reference with other lines is a different event under a
		-- reused name, refused rather than dropped.
		SELECT t.id, t.kind INTO v_id, v_kind FROM ledger_transactions t WHERE t.reference = p_reference;
		IF v_kind IS DISTINCT FROM p_kind OR EXISTS (
				(SELECT e.account, e.user_id, e.amount FROM ledger_entries e WHERE e.transaction_id = v_id
					EXCEPT ALL SELECT l.a, l.u, l.m FROM unnest(p_accounts, p_users, p_amounts) AS l(a, u, m))
				UNION ALL
				(SELECT l.a, l.u, l.m FROM unnest(p_accounts, p_users, p_amounts) AS l(a, u, m)
					EXCEPT ALL SELECT e.account, e.user_id, e.amount FROM ledger_entries e WHERE e.transaction_id = v_id)) THEN
			RAISE EXCEPTION 'reference % was already posted with different lines', p_reference
				USING ERRCODE = 'LE002';
		END IF;
		RETURN NULL;
	END IF;

	IF NOT p_caller_credits_wallets AND v_wallets = 1 AND v_lines <= 8 THEN
		-- One wallet (a play, a top-up, a withdrawal): its one conditional statement.
		UPDATE users u SET account_balance = u.account_balance + p_amounts[v_wallet]
			WHERE u.id = p_users[v_wallet]
				AND (p_amounts[v_wallet] > 0 OR u.account_balance >= -p_amounts[v_wallet]);
		IF NOT FOUND THEN
			RAISE EXCEPTION 'wallet % cannot pay % kobo for %', p_users[v_wallet], -p_amounts[v_wallet],
				p_reference USING ERRCODE = 'LE001';
		END IF;
	ELSIF NOT p_caller_credits_wallets AND v_wallets > 0 THEN
		-- One global order (user id, debits first), so postings touching the same wallets queue
		-- behind each other instead of deadlocking; each debit one conditional statement, so
		-- concurrent postings never overdraw.
		FOR r IN SELECT l.u, l.m FROM unnest(p_accounts, p_users, p_amounts) AS l(a, u, m)
				WHERE l.a = 'wallet' ORDER BY l.u, l.m LOOP
			UPDATE users u SET account_balance = u.account_balance + r.m
				WHERE u.id = r.u AND (r.m > 0 OR u.account_balance >= -r.m);
			IF NOT FOUND THEN
				RAISE EXCEPTION 'wallet % cannot pay % kobo for %', r.u, -r.m, p_reference
					USING ERRCODE = 'LE001';
			END IF;
		END LOOP;
	END IF;

	INSERT INTO ledger_entries (transaction_id, account, user_id, amount)
		SELECT v_id, l.a, l.u, l.m FROM unnest(p_accounts, p_users, p_amounts) AS l(a, u, m);
	PERFORM set_config('pluckers.ledger_post', '', true);
	RETURN v_id;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ledger_written_by_post"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION '% is written by ledger_post() only', TG_TABLE_NAME
		USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
-- The condition is evaluated before any function is called, so ledger_post's own inserts cost
-- no call.
CREATE TRIGGER "ledger_transactions_written_by_post" BEFORE INSERT ON "ledger_transactions"
	FOR EACH STATEMENT
	WHEN (coalesce(current_setting('pluckers.ledger_post', true), '') <> 'on')
	EXECUTE FUNCTION "ledger_written_by_post"();--> statement-breakpoint
CREATE TRIGGER "ledger_entries_written_by_post" BEFORE INSERT ON "ledger_entries"
	FOR EACH STATEMENT
	WHEN (coalesce(current_setting('pluckers.ledger_post', true), '') <> 'on')
	EXECUTE FUNCTION "ledger_written_by_post"();--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ledger_transaction_balanced"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	v_lines bigint;
	v_total numeric;
BEGIN
	SELECT count(*), coalesce(sum(e.amount), 0) INTO v_lines, v_total
		FROM ledger_entries e WHERE e.transaction_id = NEW.id;
	IF v_lines < 2 OR v_total <> 0 THEN
		RAISE EXCEPTION 'ledger transaction % (%) is unbalanced: % lines summing to %',
			NEW.id, NEW.reference, v_lines, v_total USING ERRCODE = 'check_violation';
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ledger_transactions_balanced" AFTER INSERT ON "ledger_transactions"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "ledger_transaction_balanced"();--> statement-breakpoint
-- The play, as migration 0022 left it, with its entry fee posted through ledger_post. A fee that
-- cannot be debited (checked above under the row lock) raises, undoing the whole play, as before.
-- pluckers_play_batch calls this function and writes nothing to the ledger itself: unchanged.
CREATE OR REPLACE FUNCTION "pluckers_play"(
	p_user uuid, p_session uuid, p_token_version integer, p_game uuid, p_answer text,
	p_seen_fee bigint, p_now timestamptz, p_day_start timestamptz)
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
	UPDATE games g SET player_count = g.player_count + 1
		WHERE g.id = p_game AND g.status = 'ONGOING' AND g.player_count + 1 < g.maximum_players
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
