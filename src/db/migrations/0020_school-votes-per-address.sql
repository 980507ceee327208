ALTER TABLE "school_votes" ADD COLUMN "client_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "school_votes_client_uq" ON "school_votes" USING btree ("site_id","vote_id","client_key");