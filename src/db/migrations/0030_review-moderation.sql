-- Review moderation (decision 148). The reviews written before moderation were shown at once:
-- they become published; a review written from now on is pending unless the shop moderates
-- after publishing (the application sets the state; the column's default keeps a row written
-- without one hidden).
ALTER TABLE "product_reviews" ADD COLUMN "state" text DEFAULT 'published' NOT NULL;--> statement-breakpoint
ALTER TABLE "product_reviews" ALTER COLUMN "state" SET DEFAULT 'pending';--> statement-breakpoint
ALTER TABLE "product_reviews" ADD COLUMN "rejection_reason" text;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD COLUMN "moderated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD COLUMN "moderated_by" uuid;--> statement-breakpoint
CREATE INDEX "product_reviews_queue_idx" ON "product_reviews" USING btree ("site_id","state","created_at");--> statement-breakpoint
ALTER TABLE "product_reviews" ADD CONSTRAINT "product_reviews_state_ck" CHECK ("product_reviews"."state" in ('pending', 'published', 'rejected'));--> statement-breakpoint
ALTER TABLE "product_reviews" ADD CONSTRAINT "product_reviews_rejection_ck" CHECK (("product_reviews"."state" = 'rejected') = ("product_reviews"."rejection_reason" is not null));--> statement-breakpoint
-- Customer service moderates reviews too (administrators and shop staff have had the permission
-- since 0023).
UPDATE "staff_roles" SET "permissions" = array_append("permissions", 'reviews.moderate')
  WHERE "key" IN ('admin', 'customer-service', 'shop-staff')
    AND NOT ('reviews.moderate' = ANY ("permissions"));
