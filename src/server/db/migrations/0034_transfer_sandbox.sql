-- The payments sandbox's own record of the bank transfers its page sent to players' account
-- numbers: it stands in for the provider that a webhook's reference is verified with, as
-- sandbox_orders does for checkouts.
CREATE TABLE "sandbox_transfers" (
	"reference" text PRIMARY KEY NOT NULL,
	"method" text NOT NULL,
	"account_number" text NOT NULL,
	"amount" bigint NOT NULL,
	"sender_name" text NOT NULL,
	"sender_bank" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_transfers_amount_positive" CHECK ("sandbox_transfers"."amount" > 0)
);--> statement-breakpoint
CREATE INDEX "sandbox_transfers_created_idx" ON "sandbox_transfers" USING btree ("method","created_at");
