DROP INDEX "game_entries_created_idx";--> statement-breakpoint
CREATE INDEX "game_entries_created_idx" ON "game_entries" USING btree ("created_at") WHERE "game_entries"."is_winner" IS NULL;