-- The keys of a live account, each as kind and value. An identity check counts when it was
-- verified, or refused only because another account holds that number.
CREATE OR REPLACE FUNCTION "pluckers_identity_values"(p_user uuid) RETURNS TABLE(kind text, value text)
	LANGUAGE sql STABLE AS $$
	SELECT k.kind, k.value FROM users u, LATERAL (VALUES
			('email', pluckers_email_key(u.email)),
			('phone', nullif(u.phone_number, '')),
			('google', u.google_sub),
			('name_birth', pluckers_name_key(u.verified_name) || '|' || u.verified_birth_date)
		) AS k(kind, value)
		WHERE u.id = p_user AND u.deleted_at IS NULL AND k.value IS NOT NULL
	UNION
	SELECT 'identity', v.id_hash FROM identity_verifications v, users u
		WHERE v.user_id = p_user AND u.id = p_user AND u.deleted_at IS NULL
			AND (v.status = 'VERIFIED' OR v.failure_reason = 'duplicate')
$$;
