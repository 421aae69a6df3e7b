-- Binds the account to every break of another account it shares a key with, and, if the account
-- is on a break of its own, keeps its current keys with that break and binds every live account
-- sharing one. Returns the bound copies it made (one per break and account), for the audit trail.
CREATE OR REPLACE FUNCTION "pluckers_bind_person"(p_user uuid, p_now timestamptz)
	RETURNS TABLE(user_id uuid, exclusion_id uuid, bound_from uuid, bound_by text[])
	LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
	v_other uuid;
BEGIN
	-- Its own running breaks learn its keys as they are now (an old phone number stays with them).
	INSERT INTO break_identities (exclusion_id, kind, digest)
		SELECT x.id, k.kind, pluckers_identity_digest(k.kind, k.value)
			FROM play_exclusions x, pluckers_identity_values(p_user) k
			WHERE x.user_id = p_user AND x.bound_from IS NULL AND x.lifted_at IS NULL
				AND x.starts_at <= p_now AND x.ends_at > p_now
		ON CONFLICT DO NOTHING;

	-- Live accounts sharing a key with it are bound to its breaks, if it has any running.
	IF EXISTS (SELECT 1 FROM play_exclusions x WHERE x.user_id = p_user
			AND x.bound_from IS NULL AND x.lifted_at IS NULL
			AND x.starts_at <= p_now AND x.ends_at > p_now) THEN
		FOR v_other IN
			SELECT w.id FROM users me, users w
				WHERE me.id = p_user AND w.id <> p_user AND w.deleted_at IS NULL
					AND pluckers_email_key(w.email) = pluckers_email_key(me.email)
			UNION SELECT w.id FROM users me, users w
				WHERE me.id = p_user AND w.id <> p_user AND w.deleted_at IS NULL
					AND me.phone_number <> '' AND w.phone_number = me.phone_number
			UNION SELECT w.id FROM users me, users w
				WHERE me.id = p_user AND w.id <> p_user AND w.deleted_at IS NULL
					AND me.verified_birth_date IS NOT NULL
					AND pluckers_name_key(w.verified_name) = pluckers_name_key(me.verified_name)
					AND w.verified_birth_date = me.verified_birth_date
			UNION SELECT other.user_id FROM identity_verifications mine, identity_verifications other
				WHERE mine.user_id = p_user AND other.id_hash = mine.id_hash
					AND other.user_id <> p_user
					AND (mine.status = 'VERIFIED' OR mine.failure_reason = 'duplicate')
					AND (other.status = 'VERIFIED' OR other.failure_reason = 'duplicate')
		LOOP
			RETURN QUERY SELECT * FROM pluckers_bind_to_breaks(v_other, p_now);
		END LOOP;
	END IF;

	RETURN QUERY SELECT * FROM pluckers_bind_to_breaks(p_user, p_now);
END $$;
