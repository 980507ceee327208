-- Job listings and school materials in the versions (decision 171): their kinds in the items,
-- and when each row was last published.
ALTER TABLE "content_items" DROP CONSTRAINT "content_items_kind_ck";--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "school_materials" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "content_items" ADD CONSTRAINT "content_items_kind_ck" CHECK ("content_items"."kind" in ('recipe', 'product', 'page', 'news', 'job', 'school-material'));