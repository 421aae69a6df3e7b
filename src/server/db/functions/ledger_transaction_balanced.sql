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
