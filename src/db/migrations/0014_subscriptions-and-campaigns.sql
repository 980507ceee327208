CREATE TABLE "campaign_participations" (
	"id" serial PRIMARY KEY NOT NULL,
	"campaign_id" text NOT NULL,
	"email" text NOT NULL,
	"lang" text NOT NULL,
	"is_adult" boolean NOT NULL,
	"accepted_rules" boolean NOT NULL,
	"wants_newsletter" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"name" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"newsletter_list" text,
	CONSTRAINT "campaigns_period_ck" CHECK ("campaigns"."ends_at" > "campaigns"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "news_release_categories" (
	"site_id" text NOT NULL,
	"lang" text NOT NULL,
	"information_type" text NOT NULL,
	"name" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "news_release_categories_site_id_lang_information_type_pk" PRIMARY KEY("site_id","lang","information_type")
);
--> statement-breakpoint
CREATE TABLE "subscription_mails" (
	"id" serial PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"list" text NOT NULL,
	"email" text NOT NULL,
	"lang" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"source" text NOT NULL,
	"consent_text" text NOT NULL,
	"consent_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"unsubscribed_at" timestamp with time zone,
	"token_hash" text,
	"token_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_status_ck" CHECK ("subscriptions"."status" in ('pending', 'confirmed', 'unsubscribed'))
);
--> statement-breakpoint
ALTER TABLE "campaign_participations" ADD CONSTRAINT "campaign_participations_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_participations_address_uq" ON "campaign_participations" USING btree ("campaign_id",lower("email"));--> statement-breakpoint
CREATE INDEX "subscription_mails_address_idx" ON "subscription_mails" USING btree ("address","sent_at");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_address_uq" ON "subscriptions" USING btree ("site_id","list",lower("email"));--> statement-breakpoint
CREATE INDEX "subscriptions_token_idx" ON "subscriptions" USING btree ("token_hash");