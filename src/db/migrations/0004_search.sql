CREATE TABLE "search_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"source_id" integer NOT NULL,
	"site_id" text NOT NULL,
	"lang" text NOT NULL,
	"type" text NOT NULL,
	"path" text NOT NULL,
	"title" text NOT NULL,
	"teaser" text DEFAULT '' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"image_id" integer,
	"content_group" smallint DEFAULT 0 NOT NULL,
	"category" text,
	"facet_tag_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"category_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"product_group" text,
	"equipment" text[] DEFAULT '{}'::text[] NOT NULL,
	"authors" text[] DEFAULT '{}'::text[] NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"like_count" integer DEFAULT 0 NOT NULL,
	"total_time" integer,
	"is_novelty" boolean DEFAULT false NOT NULL,
	"search" "tsvector" NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "search_documents_source_uq" ON "search_documents" USING btree ("source","source_id");--> statement-breakpoint
CREATE INDEX "search_documents_site_idx" ON "search_documents" USING btree ("site_id","lang","source");--> statement-breakpoint
CREATE INDEX "search_documents_search_idx" ON "search_documents" USING gin ("search");--> statement-breakpoint
CREATE INDEX "search_documents_title_trgm_idx" ON "search_documents" USING gin (lower("title") gin_trgm_ops);