-- A player's level for their points: 1 under 100, 2 under 500, 3 under 2,000, 4 under 10,000,
-- then 5. Written where the points change (a play's +10, a win's +50), in the same statement;
-- a plain SQL expression, so PostgreSQL inlines it into those statements.
CREATE OR REPLACE FUNCTION "pluckers_level"(p_points integer) RETURNS integer
	LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT CASE WHEN p_points < 100 THEN 1 WHEN p_points < 500 THEN 2 WHEN p_points < 2000 THEN 3
		WHEN p_points < 10000 THEN 4 ELSE 5 END
$$;
