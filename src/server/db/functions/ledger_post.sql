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
