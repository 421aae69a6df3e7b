CREATE TABLE "banks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bank_name" text NOT NULL,
	"code" text NOT NULL,
	CONSTRAINT "banks_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"emoji" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "categories_title_unique" UNIQUE("title")
);
--> statement-breakpoint
CREATE TABLE "games" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"category_id" uuid,
	"entry_fee" bigint DEFAULT 0 NOT NULL,
	"reward" bigint NOT NULL,
	"maximum_players" integer NOT NULL,
	"player_count" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'ONGOING' NOT NULL,
	"is_tournament" boolean DEFAULT false NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"seed" text NOT NULL,
	"commitment" text NOT NULL,
	"closed_at" timestamp with time zone,
	"drawn_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "games_entry_fee_non_negative" CHECK ("games"."entry_fee" >= 0),
	CONSTRAINT "games_reward_non_negative" CHECK ("games"."reward" >= 0),
	CONSTRAINT "games_maximum_players_positive" CHECK ("games"."maximum_players" > 0),
	CONSTRAINT "games_player_count_in_range" CHECK ("games"."player_count" >= 0 AND "games"."player_count" <= "games"."maximum_players")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"plan_name" text NOT NULL,
	"amount_per_day" bigint NOT NULL,
	"features" jsonb NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plans_plan_name_unique" UNIQUE("plan_name"),
	CONSTRAINT "plans_amount_positive" CHECK ("plans"."amount_per_day" > 0)
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"withdrawal_transaction_fee" bigint NOT NULL,
	"minimum_payment_amount" bigint NOT NULL,
	"daily_game_limit" integer NOT NULL,
	"tournament_launch_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settings_single_row" CHECK ("settings"."id" = 1),
	CONSTRAINT "settings_fee_non_negative" CHECK ("settings"."withdrawal_transaction_fee" >= 0),
	CONSTRAINT "settings_minimum_positive" CHECK ("settings"."minimum_payment_amount" > 0),
	CONSTRAINT "settings_daily_limit_positive" CHECK ("settings"."daily_game_limit" > 0)
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"handle" text NOT NULL,
	"fullname" text NOT NULL,
	"email" text NOT NULL,
	"phone_number" text DEFAULT '' NOT NULL,
	"password_hash" text,
	"role" text DEFAULT 'player' NOT NULL,
	"email_verified_at" timestamp with time zone,
	"age_confirmed_at" timestamp with time zone,
	"plan_id" uuid,
	"plan_expires_at" timestamp with time zone,
	"account_balance" bigint DEFAULT 0 NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"level" integer DEFAULT 1 NOT NULL,
	"total_games_played" integer DEFAULT 0 NOT NULL,
	"total_games_won" integer DEFAULT 0 NOT NULL,
	"total_winning_amount" bigint DEFAULT 0 NOT NULL,
	"profile_photo" text,
	"bank_id" uuid,
	"bank_account_number" text,
	"bank_account_name" text,
	"token_version" integer DEFAULT 0 NOT NULL,
	"suspended_at" timestamp with time zone,
	"suspended_reason" text,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_balance_non_negative" CHECK ("users"."account_balance" >= 0)
);
--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_bank_id_banks_id_fk" FOREIGN KEY ("bank_id") REFERENCES "public"."banks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "games_status_idx" ON "games" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id") WHERE "notifications"."read_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_handle_unique" ON "users" USING btree (lower("handle"));