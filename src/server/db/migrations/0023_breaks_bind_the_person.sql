-- A time-out or self-exclusion binds the person, not the account. When a break starts, the
-- keys that identify its player (normalised e-mail, phone number, Google subject, KYC identity
-- hashes, verified name with date of birth) are kept beside it as digests, so they outlive an
-- account that is deleted or changed during the break. Any account found to share one of them
-- gets a bound copy of the break in play_exclusions: every check that already reads that table
-- (the play in one statement, top-ups, plans, renewals, marketing) then holds it to the break
-- with no rule restated. `pluckers_bind_person` is the one place that decides; the server calls
-- it wherever an account is made or its identity changes, where a break starts, and before
-- money comes in.
ALTER TABLE "play_exclusions" ADD COLUMN "bound_from" uuid REFERENCES "play_exclusions"("id");--> statement-breakpoint
ALTER TABLE "play_exclusions" ADD COLUMN "bound_by" text[];--> statement-breakpoint
ALTER TABLE "play_exclusions" ADD CONSTRAINT "play_exclusions_bound_has_keys"
	CHECK (("bound_from" IS NULL) = ("bound_by" IS NULL));--> statement-breakpoint
CREATE UNIQUE INDEX "play_exclusions_bound_once" ON "play_exclusions" ("user_id", "bound_from")
	WHERE "bound_from" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "play_exclusions_bound_from_idx" ON "play_exclusions" ("bound_from")
	WHERE "bound_from" IS NOT NULL;--> statement-breakpoint
-- The system's own actions (a break bound to another account) join the operators' audit trail.
ALTER TABLE "admin_audit" ALTER COLUMN "admin_id" DROP NOT NULL;--> statement-breakpoint
CREATE TABLE "break_identities" (
	"exclusion_id" uuid NOT NULL REFERENCES "play_exclusions"("id"),
	"kind" text NOT NULL,
	"digest" text NOT NULL,
	CONSTRAINT "break_identities_pk" PRIMARY KEY ("exclusion_id", "kind", "digest"),
	CONSTRAINT "break_identities_kind" CHECK ("kind" IN ('email', 'phone', 'google', 'identity', 'name_birth'))
);--> statement-breakpoint
CREATE INDEX "break_identities_digest_idx" ON "break_identities" ("digest");--> statement-breakpoint
-- One mailbox, however it is written: case, a +tag (delivered to the same mailbox by most
-- providers) and, at Gmail, dots and the googlemail.com domain.
CREATE FUNCTION "pluckers_email_key"(p_email text) RETURNS text
	LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT CASE WHEN domain IN ('gmail.com', 'googlemail.com')
			THEN replace(local, '.', '') || '@gmail.com'
			ELSE local || '@' || domain END
		FROM (SELECT split_part(split_part(address, '@', 1), '+', 1) AS local,
				split_part(address, '@', 2) AS domain
			FROM (SELECT lower(btrim(p_email)) AS address) typed) parts
$$;--> statement-breakpoint
-- A name however it is spaced, cased or ordered (a surname first on one record, last on another).
CREATE FUNCTION "pluckers_name_key"(p_name text) RETURNS text
	LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT string_agg(word, ' ' ORDER BY word)
		FROM regexp_split_to_table(lower(btrim(p_name)), '\s+') word WHERE word <> ''
$$;--> statement-breakpoint
CREATE INDEX "users_email_key_idx" ON "users" (pluckers_email_key("email"));--> statement-breakpoint
CREATE INDEX "users_phone_idx" ON "users" ("phone_number") WHERE "phone_number" <> '';--> statement-breakpoint
CREATE INDEX "users_name_birth_idx" ON "users" (pluckers_name_key("verified_name"), "verified_birth_date")
	WHERE "verified_birth_date" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "identity_verifications_hash_idx" ON "identity_verifications" ("id_hash");--> statement-breakpoint
-- The keys of a live account, each as kind and value. An identity check counts when it was
-- verified, or refused only because another account holds that number.
CREATE FUNCTION "pluckers_identity_values"(p_user uuid) RETURNS TABLE(kind text, value text)
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
$$;--> statement-breakpoint
CREATE FUNCTION "pluckers_identity_digest"(p_kind text, p_value text) RETURNS text
	LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT encode(sha256(convert_to(p_kind || ':' || p_value, 'UTF8')), 'hex')
$$;--> statement-breakpoint
-- Binds the account to every break of another account it shares a key with, and, if the account
-- is on a break of its own, keeps its current keys with that break and binds every live account
-- sharing one. Returns the bound copies it made (one per break and account), for the audit trail.
CREATE FUNCTION "pluckers_bind_person"(p_user uuid, p_now timestamptz)
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
END $$;--> statement-breakpoint
-- The half that binds one account to other accounts' running breaks it shares a key with. Each
-- binding goes into the audit trail as the system's own action (no operator).
CREATE FUNCTION "pluckers_bind_to_breaks"(p_user uuid, p_now timestamptz)
	RETURNS TABLE(user_id uuid, exclusion_id uuid, bound_from uuid, bound_by text[])
	LANGUAGE sql AS $$
	WITH bound AS (
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
	SELECT user_id, id, bound_from, bound_by FROM bound
$$;
--> statement-breakpoint
-- Where the row carries the server's time, PostgreSQL binds by itself: a break as it starts, and
-- every sign-in, which no account can play or pay without.
CREATE FUNCTION "pluckers_bind_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_TABLE_NAME = 'play_exclusions' THEN
		PERFORM pluckers_bind_person(NEW.user_id, NEW.starts_at);
	ELSE
		PERFORM pluckers_bind_person(NEW.user_id, NEW.created_at);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "play_exclusions_bind_person" AFTER INSERT ON "play_exclusions"
	FOR EACH ROW WHEN (NEW.bound_from IS NULL)
	EXECUTE FUNCTION "pluckers_bind_on_insert"();
--> statement-breakpoint
CREATE TRIGGER "sessions_bind_person" AFTER INSERT ON "sessions"
	FOR EACH ROW EXECUTE FUNCTION "pluckers_bind_on_insert"();
--> statement-breakpoint
-- Breaks already running when this arrives bind their players' other accounts now.
SELECT bound.* FROM (SELECT DISTINCT x.user_id FROM play_exclusions x
		WHERE x.lifted_at IS NULL AND x.starts_at <= now() AND x.ends_at > now()) running,
	LATERAL pluckers_bind_person(running.user_id, now()) bound;
