CREATE TABLE "customer_registrations" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"return_path" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "customer_registrations_email_idx" ON "customer_registrations" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "customer_registrations_expires_idx" ON "customer_registrations" USING btree ("expires_at");