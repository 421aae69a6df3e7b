-- A game's status moves only as the lifecycle allows (modules/game-lifecycle/machine.ts, whose
-- table this repeats): UPCOMING → ONGOING → CLOSED → COMPLETED or CANCELLED, an unplayed game's
-- start moved either way by an operator's edit, and a cancellation from any status before the
-- draw. Any other change is refused here, whoever writes it. The WHEN clause keeps the trigger
-- off every update that leaves the status as it is, which is every play but a game's last.
CREATE OR REPLACE FUNCTION "pluckers_game_status_move"() RETURNS trigger LANGUAGE plpgsql AS $$
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
