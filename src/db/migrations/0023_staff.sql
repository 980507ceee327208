CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"staff_id" uuid,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"subject_type" text,
	"subject_id" text,
	"site_id" text,
	"lang" text,
	"ip" text,
	"request_id" text,
	"changes" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_grants" (
	"id" serial PRIMARY KEY NOT NULL,
	"staff_id" uuid NOT NULL,
	"role_key" text NOT NULL,
	"sites" text[],
	"langs" text[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"lang" text DEFAULT 'fi' NOT NULL,
	"password_hash" text,
	"totp_secret_sealed" text,
	"totp_last_step" bigint,
	"enrolled_at" timestamp with time zone,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_members_lang_check" CHECK ("staff_members"."lang" in ('fi', 'sv', 'en'))
);
--> statement-breakpoint
CREATE TABLE "staff_recovery_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"staff_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "staff_recovery_codes_code_hash_unique" UNIQUE("code_hash")
);
--> statement-breakpoint
CREATE TABLE "staff_roles" (
	"key" text PRIMARY KEY NOT NULL,
	"name" jsonb NOT NULL,
	"permissions" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"staff_id" uuid NOT NULL,
	"stage" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"verified_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	CONSTRAINT "staff_sessions_stage_check" CHECK ("staff_sessions"."stage" in ('second-factor', 'full'))
);
--> statement-breakpoint
CREATE TABLE "staff_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"staff_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"totp_secret_sealed" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_tokens_purpose_check" CHECK ("staff_tokens"."purpose" in ('enrol', 'reset'))
);
--> statement-breakpoint
ALTER TABLE "staff_grants" ADD CONSTRAINT "staff_grants_staff_id_staff_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_grants" ADD CONSTRAINT "staff_grants_role_key_staff_roles_key_fk" FOREIGN KEY ("role_key") REFERENCES "public"."staff_roles"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_recovery_codes" ADD CONSTRAINT "staff_recovery_codes_staff_id_staff_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD CONSTRAINT "staff_sessions_staff_id_staff_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_tokens" ADD CONSTRAINT "staff_tokens_staff_id_staff_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_staff_idx" ON "audit_log" USING btree ("staff_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_subject_idx" ON "audit_log" USING btree ("subject_type","subject_id");--> statement-breakpoint
CREATE INDEX "staff_grants_staff_idx" ON "staff_grants" USING btree ("staff_id");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_members_email_idx" ON "staff_members" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "staff_recovery_codes_staff_idx" ON "staff_recovery_codes" USING btree ("staff_id");--> statement-breakpoint
CREATE INDEX "staff_sessions_staff_idx" ON "staff_sessions" USING btree ("staff_id");--> statement-breakpoint
CREATE INDEX "staff_sessions_expires_idx" ON "staff_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "staff_tokens_staff_idx" ON "staff_tokens" USING btree ("staff_id");--> statement-breakpoint
-- The audit log is append-only (decision 132): rows are written, never changed or removed, not
-- even by the application's own database role.
CREATE FUNCTION audit_log_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_update_or_delete BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
--> statement-breakpoint
-- The starting roles (src/features/staff/permissions.ts, STARTING_ROLES).
INSERT INTO "staff_roles" ("key", "name", "permissions") VALUES
  ('admin', '{"fi":"Ylläpitäjä","sv":"Administratör","en":"Administrator"}',
   ARRAY['staff.manage','audit.read','content.edit','content.publish','submissions.read','submissions.manage','customers.read','orders.read','orders.manage','orders.refund','shop.manage','reviews.moderate','subscribers.export','personal-data.export','personal-data.erase']),
  ('editor', '{"fi":"Sisällöntuottaja","sv":"Redaktör","en":"Editor"}', ARRAY['content.edit']),
  ('publisher', '{"fi":"Julkaisija","sv":"Publicerare","en":"Publisher"}', ARRAY['content.edit','content.publish']),
  ('customer-service', '{"fi":"Asiakaspalvelu","sv":"Kundtjänst","en":"Customer service"}',
   ARRAY['submissions.read','submissions.manage','customers.read','orders.read']),
  ('shop-staff', '{"fi":"Verkkokaupan henkilöstö","sv":"Webbutikens personal","en":"Shop staff"}',
   ARRAY['orders.read','orders.manage','orders.refund','shop.manage','reviews.moderate']),
  ('dpo', '{"fi":"Tietosuojavastaava","sv":"Dataskyddsombud","en":"Data protection officer"}',
   ARRAY['audit.read','customers.read','submissions.read','subscribers.export','personal-data.export','personal-data.erase']);
