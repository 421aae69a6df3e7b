-- Top-ups by bank transfer: each player may get an account number of their own at the
-- provider the operator picks (settings.bank_transfer_provider). Every transfer into it becomes a
-- payment of channel 'bank_transfer' under the provider's own transaction reference (unique, so a
-- transfer credits once), with the sender's name and bank as the provider reported them.
CREATE TABLE "virtual_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"method" text NOT NULL,
	"mode" text NOT NULL,
	"account_number" text NOT NULL,
	"account_name" text NOT NULL,
	"bank_name" text NOT NULL,
	"provider_customer" text,
	"provider_reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "virtual_accounts_user_method_unique" UNIQUE("user_id","method","mode"),
	CONSTRAINT "virtual_accounts_number_unique" UNIQUE("method","mode","account_number")
);--> statement-breakpoint
ALTER TABLE "virtual_accounts" ADD CONSTRAINT "virtual_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "channel" text DEFAULT 'checkout' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "sender_name" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "sender_bank" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "provider_transaction_id" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "bank_transfer_provider" text DEFAULT 'paystack' NOT NULL;
