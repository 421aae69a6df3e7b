CREATE TABLE "fairness_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"position" bigint,
	"kind" text NOT NULL,
	"game_id" uuid,
	"body" text NOT NULL,
	"prev_hash" text,
	"hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fairness_log_position_unique" UNIQUE("position")
);
--> statement-breakpoint
-- Games that exist already were committed under the seed-only rules (version 1).
ALTER TABLE "games" ADD COLUMN "draw_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "games" ALTER COLUMN "draw_version" SET DEFAULT 2;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "merkle_root" text;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "beacon_round" bigint;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "beacon_signature" text;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "beacon_randomness" text;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "fairness_log" ADD CONSTRAINT "fairness_log_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fairness_log_unchained_idx" ON "fairness_log" USING btree ("id") WHERE "fairness_log"."position" IS NULL;--> statement-breakpoint
CREATE INDEX "fairness_log_game_idx" ON "fairness_log" USING btree ("game_id");