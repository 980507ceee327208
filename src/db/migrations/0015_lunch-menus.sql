CREATE TABLE "lunch_menus" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"lang" text NOT NULL,
	"weeks" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lunch_menus_id_ck" CHECK ("lunch_menus"."id" ~ '^[A-Za-z0-9_-]{22}$'),
	CONSTRAINT "lunch_menus_weeks_ck" CHECK (jsonb_typeof("lunch_menus"."weeks") = 'array')
);
--> statement-breakpoint
-- hand-written
-- A saved lunch menu never changes (decision 042): a save is a new row with a new id.
CREATE FUNCTION lunch_menus_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'lunch_menus rows are immutable';
END
$$;
--> statement-breakpoint
CREATE TRIGGER lunch_menus_no_update BEFORE UPDATE ON lunch_menus
FOR EACH ROW EXECUTE FUNCTION lunch_menus_immutable();
