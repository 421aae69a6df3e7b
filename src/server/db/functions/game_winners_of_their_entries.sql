CREATE OR REPLACE FUNCTION "game_winners_of_their_entries"() RETURNS trigger
LANGUAGE plpgsql AS $$
-- A winner row is an entry of its own game, with that entry's player and time, never refunded:
-- checked once per statement over all the rows it wrote (a draw writes 200,000 in one), a join
-- where a key check per row would cost a lookup and a row lock each.
DECLARE
	v_stray record;
BEGIN
	SELECT w.game_id, w.entry_id INTO v_stray FROM added w
		WHERE NOT EXISTS (SELECT 1 FROM game_entries e
			WHERE e.id = w.entry_id AND e.game_id = w.game_id AND e.user_id = w.user_id
				AND e.created_at = w.created_at AND NOT e.refunded)
		LIMIT 1;
	IF FOUND THEN
		RAISE EXCEPTION 'winner of game % names entry %, which is not an entry of that game as it is',
			v_stray.game_id, v_stray.entry_id USING ERRCODE = 'foreign_key_violation';
	END IF;
	RETURN NULL;
END $$;
-- The triggers need the table of migration 0033 and this function, so they are made here, after
-- both (a migration runs before the function files). One per event: a trigger with a transition
-- table may have only one.
CREATE OR REPLACE TRIGGER "game_winners_added" AFTER INSERT ON "game_winners"
	REFERENCING NEW TABLE AS added FOR EACH STATEMENT
	EXECUTE FUNCTION "game_winners_of_their_entries"();
CREATE OR REPLACE TRIGGER "game_winners_changed" AFTER UPDATE ON "game_winners"
	REFERENCING NEW TABLE AS added FOR EACH STATEMENT
	EXECUTE FUNCTION "game_winners_of_their_entries"();
