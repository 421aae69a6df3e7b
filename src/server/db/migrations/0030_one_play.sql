-- One play: pluckers_play decides every case, its refusals and their reasons included, and
-- pluckers_play_batch answers each play with its row. Their arguments and results change, so the
-- old ones are dropped here; the new ones, like every function, come from src/server/db/functions
-- (applied after the migrations, db/migrate-functions.ts), whose digest is kept below so a start
-- with nothing new to apply costs one read.
DROP FUNCTION "pluckers_play_batch"(jsonb);--> statement-breakpoint
DROP FUNCTION "pluckers_play"(uuid, uuid, integer, uuid, text, bigint, bigint, timestamptz, timestamptz);--> statement-breakpoint
CREATE TABLE "drizzle"."pluckers_functions" ("digest" text NOT NULL);
