CREATE TABLE "path_redirects" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"lang" text NOT NULL,
	"from_path" text NOT NULL,
	"to_path" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "path_redirects_not_self_ck" CHECK ("path_redirects"."from_path" <> "path_redirects"."to_path"),
	CONSTRAINT "path_redirects_paths_ck" CHECK ("path_redirects"."from_path" ~ '^/[^/]' and "path_redirects"."to_path" ~ '^/([^/]|$)' and length("path_redirects"."from_path") <= 500 and length("path_redirects"."to_path") <= 500)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "path_redirects_site_lang_from_uq" ON "path_redirects" USING btree ("site_id","lang","from_path");--> statement-breakpoint
CREATE INDEX "path_redirects_to_idx" ON "path_redirects" USING btree ("site_id","lang","to_path");