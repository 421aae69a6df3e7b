-- A draw writes its winners only (rewriting every entry with its indexes and inserting a notice
-- per player was most of a million-entry draw's time; bench/RESULTS.md). A loser's entry
-- keeps is_winner null: an entry of a COMPLETED game that is not a winner lost. Entries of
-- games drawn before keep their false, which reads the same. So the indexes that told drawn
-- entries by is_winner IS NOT NULL tell them by the game instead, and TRENDING's count of recent
-- entries, which a drawn game's losers would now stay in, is kept by game. Every player of a
-- game drawn from now on reads the result from one row per game (game_result_notices, its id
-- from the notifications' sequence so it pages among them) and marking it read writes one row.
CREATE TABLE "game_result_notices" (
	"id" bigint PRIMARY KEY DEFAULT nextval('notifications_id_seq') NOT NULL,
	"game_id" uuid NOT NULL,
	"winner_title" text NOT NULL,
	"winner_message" text NOT NULL,
	"loser_title" text NOT NULL,
	"loser_message" text NOT NULL,
	"link" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "game_result_notices_game_id_unique" UNIQUE("game_id")
);
--> statement-breakpoint
CREATE TABLE "game_result_reads" (
	"user_id" uuid NOT NULL,
	"game_id" uuid NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	CONSTRAINT "game_result_reads_user_id_game_id_pk" PRIMARY KEY("user_id","game_id")
);
--> statement-breakpoint
DROP INDEX "game_entries_created_idx";--> statement-breakpoint
DROP INDEX "game_entries_player_window_idx";--> statement-breakpoint
ALTER TABLE "game_result_notices" ADD CONSTRAINT "game_result_notices_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "game_entries_game_created_idx" ON "game_entries" USING btree ("game_id","created_at") WHERE "game_entries"."is_winner" IS NULL;--> statement-breakpoint
CREATE INDEX "game_entries_player_entries_idx" ON "game_entries" USING btree ("user_id","created_at","is_winner","game_id") WHERE NOT "game_entries"."refunded";