CREATE OR REPLACE FUNCTION "ledger_written_by_post"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION '% is written by ledger_post() only', TG_TABLE_NAME
		USING ERRCODE = 'insufficient_privilege';
END $$;
