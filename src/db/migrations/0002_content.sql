CREATE TABLE "facet_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"lang" text NOT NULL,
	"scope" text NOT NULL,
	"name" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "facet_tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"category_id" integer NOT NULL,
	"name" text NOT NULL,
	"display" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "images" (
	"id" serial PRIMARY KEY NOT NULL,
	"storage_key" text NOT NULL,
	"mime" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"alt" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"focus_x" real DEFAULT 0.5 NOT NULL,
	"focus_y" real DEFAULT 0.5 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "images_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"lang" text NOT NULL,
	"title" text NOT NULL,
	"city" text NOT NULL,
	"url" text NOT NULL,
	"application_period_end" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "map_regions" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"lang" text NOT NULL,
	"number" integer NOT NULL,
	"button_label" text NOT NULL,
	"button_region" text NOT NULL,
	"button_info" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "news_releases" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"lang" text NOT NULL,
	"path" text NOT NULL,
	"title" text NOT NULL,
	"teaser" text DEFAULT '' NOT NULL,
	"body_html" text DEFAULT '' NOT NULL,
	"image_id" integer,
	"publish_date" timestamp with time zone NOT NULL,
	"category_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"facet_tag_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"authors" text[] DEFAULT '{}'::text[] NOT NULL,
	"kind" text NOT NULL,
	"text_type" text,
	"translation_key" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"lang" text NOT NULL,
	"parent_id" integer,
	"path" text NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"nav_label" text,
	"teaser" text DEFAULT '' NOT NULL,
	"teaser_image_id" integer,
	"seo_title" text,
	"seo_description" text,
	"blocks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"show_in_nav" boolean DEFAULT true NOT NULL,
	"nav_area" text DEFAULT 'bottom' NOT NULL,
	"icon" text,
	"is_external" boolean DEFAULT false NOT NULL,
	"external_url" text,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"translation_key" text NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"lang" text NOT NULL,
	"kind" text NOT NULL,
	"path" text NOT NULL,
	"code" text NOT NULL,
	"gtin" text,
	"valo_code" text,
	"name" text NOT NULL,
	"teaser" text DEFAULT '' NOT NULL,
	"description_html" text DEFAULT '' NOT NULL,
	"ingredients" text DEFAULT '' NOT NULL,
	"image_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"category_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"facet_tag_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"product_group" text,
	"is_novelty" boolean DEFAULT false NOT NULL,
	"nutrition" jsonb,
	"weight_grams" integer,
	"price_cents" integer,
	"price_per_kg_cents" integer,
	"svh_price_cents" integer,
	"discount_percentage" integer,
	"stock" integer,
	"is_gift_card" boolean DEFAULT false NOT NULL,
	"like_count" integer DEFAULT 0 NOT NULL,
	"translation_key" text NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recipes" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"lang" text NOT NULL,
	"path" text NOT NULL,
	"title" text NOT NULL,
	"teaser" text DEFAULT '' NOT NULL,
	"image_id" integer,
	"yield" integer NOT NULL,
	"portion_size" real,
	"portion_unit" text,
	"total_yield_kg" real,
	"total_time_minutes" integer NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"nutrients" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"facet_tag_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"category_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"equipment" text[] DEFAULT '{}'::text[] NOT NULL,
	"like_count" integer DEFAULT 0 NOT NULL,
	"translation_key" text NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "school_materials" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"lang" text NOT NULL,
	"material" text NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"topic" text DEFAULT '' NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "timeline_years" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"lang" text NOT NULL,
	"year" integer NOT NULL,
	"title" text NOT NULL,
	"text" text NOT NULL,
	"image_id" integer
);
--> statement-breakpoint
ALTER TABLE "facet_tags" ADD CONSTRAINT "facet_tags_category_id_facet_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."facet_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "news_releases" ADD CONSTRAINT "news_releases_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pages" ADD CONSTRAINT "pages_teaser_image_id_images_id_fk" FOREIGN KEY ("teaser_image_id") REFERENCES "public"."images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipes" ADD CONSTRAINT "recipes_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timeline_years" ADD CONSTRAINT "timeline_years_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "facet_categories_site_idx" ON "facet_categories" USING btree ("site_id","lang","scope");--> statement-breakpoint
CREATE INDEX "facet_tags_category_idx" ON "facet_tags" USING btree ("category_id");--> statement-breakpoint
CREATE UNIQUE INDEX "news_site_lang_path_uq" ON "news_releases" USING btree ("site_id","lang","path");--> statement-breakpoint
CREATE INDEX "news_site_date_idx" ON "news_releases" USING btree ("site_id","lang","publish_date");--> statement-breakpoint
CREATE UNIQUE INDEX "pages_site_lang_path_uq" ON "pages" USING btree ("site_id","lang","path");--> statement-breakpoint
CREATE INDEX "pages_parent_idx" ON "pages" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "pages_translation_idx" ON "pages" USING btree ("site_id","translation_key");--> statement-breakpoint
CREATE UNIQUE INDEX "products_site_lang_path_uq" ON "products" USING btree ("site_id","lang","path");--> statement-breakpoint
CREATE INDEX "products_site_code_idx" ON "products" USING btree ("site_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "recipes_site_lang_path_uq" ON "recipes" USING btree ("site_id","lang","path");