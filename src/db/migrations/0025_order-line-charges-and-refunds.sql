CREATE TABLE "order_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"payment_stamp" text NOT NULL,
	"provider" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"lines" jsonb,
	"status" text DEFAULT 'requested' NOT NULL,
	"transaction_id" text,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_refunds_amount_ck" CHECK ("order_refunds"."amount_cents" > 0),
	CONSTRAINT "order_refunds_status_ck" CHECK ("order_refunds"."status" in ('requested', 'pending', 'ok', 'fail'))
);
--> statement-breakpoint
CREATE TABLE "test_bank_payments" (
	"transaction_id" text PRIMARY KEY NOT NULL,
	"stamp" text NOT NULL,
	"reference" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_bank_payments_status_ck" CHECK ("test_bank_payments"."status" in ('new', 'ok', 'fail')),
	CONSTRAINT "test_bank_payments_refunded_ck" CHECK ("test_bank_payments"."refunded_cents" >= 0 and "test_bank_payments"."refunded_cents" <= "test_bank_payments"."amount_cents")
);
--> statement-breakpoint
CREATE TABLE "test_bank_refunds" (
	"refund_stamp" text PRIMARY KEY NOT NULL,
	"refund_transaction_id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"transaction_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "charged_cents" integer;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_payment_stamp_order_payments_stamp_fk" FOREIGN KEY ("payment_stamp") REFERENCES "public"."order_payments"("stamp") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_bank_refunds" ADD CONSTRAINT "test_bank_refunds_transaction_id_test_bank_payments_transaction_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."test_bank_payments"("transaction_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_refunds_key_uq" ON "order_refunds" USING btree ("order_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "order_refunds_payment_idx" ON "order_refunds" USING btree ("payment_stamp");--> statement-breakpoint
CREATE UNIQUE INDEX "test_bank_payments_stamp_uq" ON "test_bank_payments" USING btree ("stamp");--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_charged_ck" CHECK ("order_lines"."charged_cents" is null or "order_lines"."charged_cents" between 0 and "order_lines"."line_price_cents");