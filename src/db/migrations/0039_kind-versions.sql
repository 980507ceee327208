-- Job listings, school materials, timeline years and map buttons in the versions (decision
-- 171): their kinds in the items, and when each row was last published.
ALTER TABLE "content_items" DROP CONSTRAINT "content_items_kind_ck";--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "map_regions" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "timeline_years" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "school_materials" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "content_items" ADD CONSTRAINT "content_items_kind_ck" CHECK ("content_items"."kind" in ('recipe', 'product', 'page', 'news', 'job', 'school-material', 'timeline-year', 'map-region'));