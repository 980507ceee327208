ALTER TABLE "images" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_focus_ck" CHECK ("images"."focus_x" between 0 and 1 and "images"."focus_y" between 0 and 1);--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_version_ck" CHECK ("images"."version" >= 1 and "images"."revision" >= 1);