-- Deposit limits count the money that lands (payments/holds.ts): a payment that completes past a
-- player's limit is HELD (its money in the ledger account held:payments) or REFUNDED, and an
-- operator's decision on it is kept here beside the audit log. The status column has no CHECK,
-- so the two new statuses need no change to it. Deposits are counted by settled_at, per player.
ALTER TABLE "payments" ADD COLUMN "hold_reason" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "held_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "hold_resolved_by" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "hold_resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "hold_resolution_note" text;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_hold_resolved_by_users_id_fk" FOREIGN KEY ("hold_resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_held_idx" ON "payments" USING btree ("held_at") WHERE "payments"."status" = 'HELD';--> statement-breakpoint
CREATE INDEX "payments_user_settled_idx" ON "payments" USING btree ("user_id","settled_at");
