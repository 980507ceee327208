CREATE TABLE "submission_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"submission_id" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"staff_id" uuid,
	"kind" text NOT NULL,
	"sealed_text" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "submission_events_kind_check" CHECK ("submission_events"."kind" in ('note', 'state', 'assignee', 'reply', 'hold'))
);
--> statement-breakpoint
CREATE TABLE "submission_handling" (
	"submission_id" text PRIMARY KEY NOT NULL,
	"state" text DEFAULT 'new' NOT NULL,
	"assignee_id" uuid,
	"legal_hold" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "submission_handling_state_check" CHECK ("submission_handling"."state" in ('new', 'in_progress', 'waiting', 'closed'))
);
--> statement-breakpoint
ALTER TABLE "submission_events" ADD CONSTRAINT "submission_events_submission_id_form_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."form_submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_events" ADD CONSTRAINT "submission_events_staff_id_staff_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_handling" ADD CONSTRAINT "submission_handling_submission_id_form_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."form_submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_handling" ADD CONSTRAINT "submission_handling_assignee_id_staff_members_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."staff_members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "submission_events_submission_idx" ON "submission_events" USING btree ("submission_id","id");--> statement-breakpoint
CREATE INDEX "submission_handling_assignee_idx" ON "submission_handling" USING btree ("assignee_id");