-- Drafts, versions and document presence of editable content (decision 162). The live rows
-- (recipes, …) stay what the site reads; a save writes only these tables.
CREATE TABLE "content_items" (
	"kind" text NOT NULL,
	"item_id" integer NOT NULL,
	"site_id" text NOT NULL,
	"lang" text NOT NULL,
	"translation_key" text NOT NULL,
	"head_version" integer NOT NULL,
	"published_version" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_items_kind_item_id_pk" PRIMARY KEY("kind","item_id"),
	CONSTRAINT "content_items_kind_ck" CHECK ("content_items"."kind" in ('recipe', 'product', 'page', 'news')),
	CONSTRAINT "content_items_published_ck" CHECK ("content_items"."published_version" is null or "content_items"."published_version" between 1 and "content_items"."head_version")
);
--> statement-breakpoint
CREATE TABLE "content_presence" (
	"kind" text NOT NULL,
	"item_id" integer NOT NULL,
	"staff_id" uuid NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_presence_kind_item_id_staff_id_pk" PRIMARY KEY("kind","item_id","staff_id")
);
--> statement-breakpoint
CREATE TABLE "content_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"item_id" integer NOT NULL,
	"version" integer NOT NULL,
	"status" text NOT NULL,
	"document" jsonb NOT NULL,
	"author_id" uuid,
	"restored_from" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"published_by" uuid,
	CONSTRAINT "content_versions_status_ck" CHECK ("content_versions"."status" in ('draft', 'published')),
	CONSTRAINT "content_versions_published_ck" CHECK (("content_versions"."status" = 'published') = ("content_versions"."published_at" is not null))
);
--> statement-breakpoint
CREATE INDEX "content_items_scope_idx" ON "content_items" USING btree ("kind","site_id","lang");--> statement-breakpoint
CREATE UNIQUE INDEX "content_versions_item_version_uq" ON "content_versions" USING btree ("kind","item_id","version");