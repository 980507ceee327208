CREATE TABLE "campaign_draws" (
	"id" serial PRIMARY KEY NOT NULL,
	"campaign_id" text NOT NULL,
	"seed" text NOT NULL,
	"winners_wanted" integer NOT NULL,
	"participant_ids" integer[] NOT NULL,
	"participants_digest" text NOT NULL,
	"winner_ids" integer[] NOT NULL,
	"drawn_by" text NOT NULL,
	"drawn_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "news_release_mailings" (
	"id" serial PRIMARY KEY NOT NULL,
	"release_id" integer NOT NULL,
	"site_id" text NOT NULL,
	"lang" text NOT NULL,
	"translation_key" text NOT NULL,
	"information_types" text[] NOT NULL,
	"versions" jsonb NOT NULL,
	"site_url" text NOT NULL,
	"send_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"scheduled_by" text,
	"recipients" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "news_release_mailings_status_ck" CHECK ("news_release_mailings"."status" in ('scheduled', 'sent'))
);
--> statement-breakpoint
CREATE TABLE "news_release_mails" (
	"id" serial PRIMARY KEY NOT NULL,
	"mailing_id" integer NOT NULL,
	"site_id" text NOT NULL,
	"translation_key" text NOT NULL,
	"address" text NOT NULL,
	"subscription_ids" integer[] NOT NULL,
	"lang" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "news_releases" ADD COLUMN "information_types" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_draws" ADD CONSTRAINT "campaign_draws_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "news_release_mails" ADD CONSTRAINT "news_release_mails_mailing_id_news_release_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."news_release_mailings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_draws_campaign_idx" ON "campaign_draws" USING btree ("campaign_id","drawn_at");--> statement-breakpoint
CREATE UNIQUE INDEX "news_release_mailings_release_uq" ON "news_release_mailings" USING btree ("release_id");--> statement-breakpoint
CREATE INDEX "news_release_mailings_due_idx" ON "news_release_mailings" USING btree ("status","send_at");--> statement-breakpoint
CREATE UNIQUE INDEX "news_release_mails_once_uq" ON "news_release_mails" USING btree ("site_id","translation_key","address");--> statement-breakpoint
CREATE INDEX "news_release_mails_mailing_idx" ON "news_release_mails" USING btree ("mailing_id");--> statement-breakpoint
-- Reading the marketing lists' addresses and taking someone off a list on their behalf, and a
-- campaign's raffle (decision 158): administrators, customer service (who answer the people on
-- the lists) and, for reading, the data-protection officer, who already exports them.
UPDATE "staff_roles" SET "permissions" = array_append("permissions", 'subscribers.read')
  WHERE "key" IN ('admin', 'customer-service', 'dpo')
    AND NOT ('subscribers.read' = ANY ("permissions"));--> statement-breakpoint
UPDATE "staff_roles" SET "permissions" = array_append("permissions", 'subscribers.manage')
  WHERE "key" IN ('admin', 'customer-service')
    AND NOT ('subscribers.manage' = ANY ("permissions"));
