-- A draw writes what it decides and nothing else of an entry. Winners get a table of their own:
-- marking a fifth of a million entries rewrote each of them with the five indexes of
-- game_entries, where a winner row is one small insert, in key order, into two indexes.
-- Existing winners move over with their prizes; losers of earlier draws (is_winner false)
-- read the same as those since migration 0020, lost by their game's status. The rows a winner
-- copies from its entry (player, time) are checked against it by the statement trigger of the
-- function file game_winners_of_their_entries.sql, set-based, once per statement.
CREATE TABLE "game_winners" (
	"game_id" uuid NOT NULL,
	"entry_id" bigint NOT NULL,
	"user_id" uuid NOT NULL,
	"prize" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "game_winners_game_id_entry_id_pk" PRIMARY KEY("game_id","entry_id"),
	CONSTRAINT "game_winners_prize_not_negative" CHECK ("game_winners"."prize" >= 0)
);
--> statement-breakpoint
INSERT INTO "game_winners" ("game_id", "entry_id", "user_id", "prize", "created_at")
	SELECT "game_id", "id", "user_id", "prize", "created_at" FROM "game_entries"
	WHERE "is_winner" ORDER BY "game_id", "id";--> statement-breakpoint
DROP INDEX "game_entries_game_created_idx";--> statement-breakpoint
DROP INDEX "game_entries_winnings_idx";--> statement-breakpoint
DROP INDEX "game_entries_player_entries_idx";--> statement-breakpoint
ALTER TABLE "game_entries" DROP COLUMN "is_winner";--> statement-breakpoint
ALTER TABLE "game_entries" DROP COLUMN "prize";--> statement-breakpoint
-- The answer's hash as the seal's leaf takes it, sha256 of "<id>:<answer>" in UTF-8, stored
-- when the entry is written, so sealing a game hashes each entry once rather than twice. A
-- generated column, so no writer can store another: convert_to is only STABLE, and decode of
-- the text with its backslashes doubled gives the same bytes in a UTF-8 database, which
-- PostgreSQL and PGlite both are (draws/seal.test.ts compares the two). Adding it computes it
-- for every existing entry.
ALTER TABLE "game_entries" ADD COLUMN "answer_hash" bytea GENERATED ALWAYS AS (sha256(decode(replace("game_entries"."id"::text || ':' || "game_entries"."answer", '\', '\\'), 'escape'))) STORED NOT NULL;--> statement-breakpoint
-- TRENDING counts the recent entries of live games, which no draw has reached.
CREATE INDEX "game_entries_game_created_idx" ON "game_entries" USING btree ("game_id","created_at");--> statement-breakpoint
CREATE INDEX "game_entries_player_entries_idx" ON "game_entries" USING btree ("user_id","created_at","game_id") WHERE NOT "game_entries"."refunded";--> statement-breakpoint
-- The leaderboard's winnings of a window, from this index alone. A winner's entry is never
-- refunded: a refund cancels a game, which then has no winners.
CREATE INDEX "game_winners_winnings_idx" ON "game_winners" USING btree ("created_at","user_id","prize","game_id");--> statement-breakpoint
-- Ledger lines without per-row key checks, which cost a draw's 200,000 prize lines two lookups
-- and a row lock each. A wallet line's player is checked instead by the ledger's deferred
-- check, once per transaction and set-based (ledger_transaction_balanced.sql); a line's
-- transaction exists because ledger_post, the only writer the triggers of migration 0026 allow,
-- inserts it first, and from now on a posted transaction is never updated or deleted (the
-- foreign key refused its deletion before).
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_transaction_id_ledger_transactions_id_fk";--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_user_id_users_id_fk";--> statement-breakpoint
CREATE TRIGGER "ledger_transactions_kept" BEFORE UPDATE OR DELETE ON "ledger_transactions"
	FOR EACH STATEMENT EXECUTE FUNCTION "ledger_written_by_post"();--> statement-breakpoint
CREATE TRIGGER "ledger_transactions_kept_whole" BEFORE TRUNCATE ON "ledger_transactions"
	FOR EACH STATEMENT EXECUTE FUNCTION "ledger_written_by_post"();
