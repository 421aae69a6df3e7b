-- A short reference per withdrawal (ten characters of Crockford base32) that a player can read
-- out to support; the long id stays the key and the provider's transfer reference (wd-<id>).
-- New rows get theirs from the server (random, retried on a collision); existing rows get one
-- made from the md5 of their id: 50 of its bits, five to a character.
ALTER TABLE "withdrawals" ADD COLUMN "short_reference" text;--> statement-breakpoint
UPDATE "withdrawals" AS w SET "short_reference" = (
  SELECT string_agg(
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ',
      ((('x' || lpad(substr(md5(w."id"::text), 1, 13), 16, '0'))::bit(64)::bigint >> (5 * (9 - i))) & 31)::int + 1,
      1),
    '' ORDER BY i)
  FROM generate_series(0, 9) AS i
);--> statement-breakpoint
ALTER TABLE "withdrawals" ALTER COLUMN "short_reference" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_short_reference_unique" ON "withdrawals" USING btree ("short_reference");
