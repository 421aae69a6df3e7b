-- The half that binds one account to other accounts' running breaks it shares a key with. Each
-- binding goes into the audit trail as the system's own action (no operator). PL/pgSQL rather than
-- SQL: a SQL function with a data-modifying WITH is never inlined, so each call from
-- pluckers_bind_person planned it afresh, most of a sign-in's binding; PL/pgSQL keeps the plan.
CREATE OR REPLACE FUNCTION "pluckers_bind_to_breaks"(p_user uuid, p_now timestamptz)
	RETURNS TABLE(user_id uuid, exclusion_id uuid, bound_from uuid, bound_by text[])
	LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
	RETURN QUERY WITH bound AS (
		INSERT INTO play_exclusions (user_id, kind, starts_at, ends_at, bound_from, bound_by)
			SELECT p_user, x.kind, p_now, x.ends_at, x.id,
					array_agg(DISTINCT b.kind ORDER BY b.kind)
				FROM pluckers_identity_values(p_user) k
				JOIN break_identities b ON b.kind = k.kind
					AND b.digest = pluckers_identity_digest(k.kind, k.value)
				JOIN play_exclusions x ON x.id = b.exclusion_id
				WHERE x.user_id <> p_user AND x.bound_from IS NULL AND x.lifted_at IS NULL
					AND x.starts_at <= p_now AND x.ends_at > p_now
				GROUP BY x.id, x.kind, x.ends_at
			ON CONFLICT (user_id, bound_from) WHERE bound_from IS NOT NULL DO NOTHING
			RETURNING user_id, id, kind, ends_at, bound_from, bound_by
	), audited AS (
		INSERT INTO admin_audit (admin_id, action, target_type, target_id, after, created_at)
			SELECT NULL, 'user.break.bound', 'user', b.user_id::text,
					jsonb_build_object('exclusionId', b.id, 'kind', b.kind, 'endsAt', b.ends_at,
						'boundFrom', b.bound_from, 'boundFromUser', x.user_id,
						'matchedOn', to_jsonb(b.bound_by)),
					p_now
				FROM bound b JOIN play_exclusions x ON x.id = b.bound_from
	)
	SELECT user_id, id, bound_from, bound_by FROM bound;
END $$;
