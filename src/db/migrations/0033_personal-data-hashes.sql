-- Personal-data requests (decision 159): the keyed hash of the address beside every sealed row that
-- carries one (the submissions and the outbox; the rows written before this are filled by the
-- backfill job, which opens them), and the queue of files an erasure let go.
CREATE TABLE "personal_data_file_deletions" (
	"storage_key" text PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "form_submissions" ADD COLUMN "email_hash" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "email_hash" text;--> statement-breakpoint
CREATE INDEX "personal_data_file_deletions_request_idx" ON "personal_data_file_deletions" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "form_submissions_email_hash_idx" ON "form_submissions" USING btree ("email_hash");--> statement-breakpoint
CREATE INDEX "mail_outbox_email_hash_idx" ON "mail_outbox" USING btree ("email_hash");