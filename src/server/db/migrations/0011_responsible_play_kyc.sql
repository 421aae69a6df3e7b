CREATE TABLE "identity_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"id_type" text NOT NULL,
	"id_hash" text NOT NULL,
	"id_last_four" text NOT NULL,
	"provider" text NOT NULL,
	"provider_reference" text,
	"mode" text NOT NULL,
	"status" text NOT NULL,
	"failure_reason" text,
	"returned_name" text,
	"returned_birth_date" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kyc_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"document_type" text NOT NULL,
	"file_key" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone,
	"review_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "play_exclusions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"lifted_at" timestamp with time zone,
	"lifted_by" uuid,
	"lifted_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "play_exclusions_ends_after_start" CHECK ("play_exclusions"."ends_at" > "play_exclusions"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "play_limits" (
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"period" text NOT NULL,
	"amount" bigint,
	"pending_amount" bigint,
	"pending_removal" boolean DEFAULT false NOT NULL,
	"pending_from" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "play_limits_user_id_kind_period_pk" PRIMARY KEY("user_id","kind","period"),
	CONSTRAINT "play_limits_amount_positive" CHECK ("play_limits"."amount" IS NULL OR "play_limits"."amount" > 0),
	CONSTRAINT "play_limits_pending_positive" CHECK ("play_limits"."pending_amount" IS NULL OR "play_limits"."pending_amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "tier1_balance_cap" bigint DEFAULT 30000000;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "tier1_daily_withdrawal_cap" bigint DEFAULT 5000000;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "tier2_balance_cap" bigint DEFAULT 50000000;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "tier2_daily_withdrawal_cap" bigint DEFAULT 20000000;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "tier3_balance_cap" bigint;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "tier3_daily_withdrawal_cap" bigint DEFAULT 500000000;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "aml_review_threshold" bigint DEFAULT 10000000 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "kyc_tier" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "verified_name" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "verified_birth_date" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "reality_check_minutes" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "marketing_emails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "hold_reasons" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD CONSTRAINT "identity_verifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_documents" ADD CONSTRAINT "kyc_documents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_documents" ADD CONSTRAINT "kyc_documents_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "play_exclusions" ADD CONSTRAINT "play_exclusions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "play_exclusions" ADD CONSTRAINT "play_exclusions_lifted_by_users_id_fk" FOREIGN KEY ("lifted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "play_limits" ADD CONSTRAINT "play_limits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "identity_verifications_user_idx" ON "identity_verifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "identity_verifications_identity_unique" ON "identity_verifications" USING btree ("id_hash") WHERE "identity_verifications"."status" = 'VERIFIED';--> statement-breakpoint
CREATE INDEX "kyc_documents_user_idx" ON "kyc_documents" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "kyc_documents_pending_idx" ON "kyc_documents" USING btree ("created_at") WHERE "kyc_documents"."status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "play_exclusions_user_idx" ON "play_exclusions" USING btree ("user_id","ends_at");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_kyc_tier_range" CHECK ("users"."kyc_tier" BETWEEN 1 AND 3);