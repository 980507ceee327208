CREATE TABLE "customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"delivery_address" jsonb,
	"billing_address" jsonb,
	"phone_country_code" text DEFAULT '+358' NOT NULL,
	"phone_number" text DEFAULT '' NOT NULL,
	"is_private_customer" boolean DEFAULT false NOT NULL,
	"additional_information" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_reset_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "carts" ALTER COLUMN "session_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "carts" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_email_uq" ON "customers" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "password_reset_tokens_customer_idx" ON "password_reset_tokens" USING btree ("customer_id");--> statement-breakpoint
ALTER TABLE "carts" ADD CONSTRAINT "carts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "carts_customer_site_uq" ON "carts" USING btree ("customer_id","site_id");--> statement-breakpoint
ALTER TABLE "carts" ADD CONSTRAINT "carts_owner_ck" CHECK ("carts"."session_id" is not null or "carts"."customer_id" is not null);--> statement-breakpoint

-- A customer's saved cart outlives the session holding it (logout, expiry, a login elsewhere):
-- before a session row goes, its customer carts are let go instead of deleted by the cascade.
CREATE FUNCTION carts_keep_customer_carts() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE carts SET session_id = NULL WHERE session_id = OLD.id AND customer_id IS NOT NULL;
  RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_keep_customer_carts BEFORE DELETE ON sessions
FOR EACH ROW EXECUTE FUNCTION carts_keep_customer_carts();
