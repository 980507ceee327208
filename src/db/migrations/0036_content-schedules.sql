CREATE TABLE "content_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"item_id" integer NOT NULL,
	"action" text NOT NULL,
	"version" integer,
	"run_at" timestamp with time zone NOT NULL,
	"site_id" text NOT NULL,
	"lang" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_by" uuid,
	"done_at" timestamp with time zone,
	"error" text,
	CONSTRAINT "content_schedules_action_ck" CHECK ("content_schedules"."action" in ('publish', 'unpublish')),
	CONSTRAINT "content_schedules_state_ck" CHECK ("content_schedules"."state" in ('pending', 'done', 'cancelled', 'failed')),
	CONSTRAINT "content_schedules_kind_ck" CHECK ("content_schedules"."kind" in ('recipe', 'product', 'page', 'news'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "content_schedules_pending_uq" ON "content_schedules" USING btree ("kind","item_id","action") WHERE "content_schedules"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "content_schedules_due_idx" ON "content_schedules" USING btree ("run_at") WHERE "content_schedules"."state" = 'pending';