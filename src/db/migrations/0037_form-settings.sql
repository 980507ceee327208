-- Form settings per site (decision 170): recipients and success pages (per language) that staff
-- set in the back office; a missing row or a null is the environment's default.
CREATE TABLE "form_settings" (
	"site_id" text NOT NULL,
	"form" text NOT NULL,
	"recipients" text[],
	"success_pages" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "form_settings_site_id_form_pk" PRIMARY KEY("site_id","form"),
	CONSTRAINT "form_settings_recipients_ck" CHECK ("form_settings"."recipients" is null or cardinality("form_settings"."recipients") between 1 and 10)
);
--> statement-breakpoint
-- Administrators and publishers set them (forms.settings).
UPDATE "staff_roles" SET "permissions" = array_append("permissions", 'forms.settings')
  WHERE "key" IN ('admin', 'publisher')
    AND NOT ('forms.settings' = ANY ("permissions"));
