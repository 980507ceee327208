CREATE TABLE "school_votes" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"vote_id" text NOT NULL,
	"voter_id" text NOT NULL,
	"option" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "school_votes_option_ck" CHECK ("school_votes"."option" between 0 and 5)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "school_votes_voter_uq" ON "school_votes" USING btree ("site_id","vote_id","voter_id");--> statement-breakpoint
CREATE INDEX "school_votes_count_idx" ON "school_votes" USING btree ("site_id","vote_id","option");