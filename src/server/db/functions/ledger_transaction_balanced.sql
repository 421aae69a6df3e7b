CREATE OR REPLACE FUNCTION "ledger_transaction_balanced"() RETURNS trigger
LANGUAGE plpgsql AS $$
-- At commit, once per transaction: its lines sum to zero, and every wallet line is a player's
-- (ledger lines have no per-row key check on users, migration 0033: one join here instead).
DECLARE
	v_lines bigint;
	v_total numeric;
	v_strays bigint;
BEGIN
	-- One pass over the transaction's lines, a users key lookup for each wallet line and no row
	-- lock (a foreign key's check locks each row it finds).
	SELECT count(*), coalesce(sum(e.amount), 0),
			count(*) FILTER (WHERE e.user_id IS NOT NULL AND u.id IS NULL)
		INTO v_lines, v_total, v_strays
		FROM ledger_entries e LEFT JOIN users u ON u.id = e.user_id
		WHERE e.transaction_id = NEW.id;
	IF v_lines < 2 OR v_total <> 0 THEN
		RAISE EXCEPTION 'ledger transaction % (%) is unbalanced: % lines summing to %',
			NEW.id, NEW.reference, v_lines, v_total USING ERRCODE = 'check_violation';
	END IF;
	IF v_strays > 0 THEN
		RAISE EXCEPTION 'ledger transaction % (%) credits or debits % wallets of no player',
			NEW.id, NEW.reference, v_strays USING ERRCODE = 'foreign_key_violation';
	END IF;
	RETURN NULL;
END $$;
