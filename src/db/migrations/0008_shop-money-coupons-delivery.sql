CREATE TABLE "cart_coupons" (
	"cart_id" uuid NOT NULL,
	"coupon_id" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cart_coupons_cart_id_coupon_id_pk" PRIMARY KEY("cart_id","coupon_id")
);
--> statement-breakpoint
CREATE TABLE "coupon_customer_uses" (
	"coupon_id" integer NOT NULL,
	"customer_key" text NOT NULL,
	"uses" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "coupon_customer_uses_coupon_id_customer_key_pk" PRIMARY KEY("coupon_id","customer_key"),
	CONSTRAINT "coupon_customer_uses_ck" CHECK ("coupon_customer_uses"."uses" >= 0)
);
--> statement-breakpoint
CREATE TABLE "coupons" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"code" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"percent_off" integer,
	"amount_off_cents" integer,
	"product_group" text,
	"min_order_cents" integer DEFAULT 0 NOT NULL,
	"valid_from" timestamp with time zone,
	"valid_to" timestamp with time zone,
	"max_uses" integer,
	"used_count" integer DEFAULT 0 NOT NULL,
	"max_uses_per_customer" integer,
	"combinable" boolean DEFAULT true NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "coupons_kind_ck" CHECK (("coupons"."percent_off" is null) <> ("coupons"."amount_off_cents" is null)),
	CONSTRAINT "coupons_percent_ck" CHECK ("coupons"."percent_off" between 1 and 100),
	CONSTRAINT "coupons_amount_ck" CHECK ("coupons"."amount_off_cents" > 0),
	CONSTRAINT "coupons_min_order_ck" CHECK ("coupons"."min_order_cents" >= 0),
	CONSTRAINT "coupons_used_ck" CHECK ("coupons"."used_count" >= 0 and ("coupons"."max_uses" is null or "coupons"."used_count" <= "coupons"."max_uses"))
);
--> statement-breakpoint
CREATE TABLE "delivery_area_postal_codes" (
	"site_id" text NOT NULL,
	"postal_code" text NOT NULL,
	"area_id" integer NOT NULL,
	CONSTRAINT "delivery_area_postal_codes_site_id_postal_code_pk" PRIMARY KEY("site_id","postal_code")
);
--> statement-breakpoint
CREATE TABLE "delivery_areas" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "delivery_calendar_slots" (
	"id" serial PRIMARY KEY NOT NULL,
	"area_id" integer NOT NULL,
	"weekday" integer NOT NULL,
	"start_time" text NOT NULL,
	"end_time" text NOT NULL,
	"capacity" integer NOT NULL,
	"cutoff_days_before" integer DEFAULT 1 NOT NULL,
	"cutoff_time" text DEFAULT '12:00' NOT NULL,
	CONSTRAINT "delivery_calendar_slots_weekday_ck" CHECK ("delivery_calendar_slots"."weekday" between 1 and 7),
	CONSTRAINT "delivery_calendar_slots_capacity_ck" CHECK ("delivery_calendar_slots"."capacity" >= 0),
	CONSTRAINT "delivery_calendar_slots_cutoff_ck" CHECK ("delivery_calendar_slots"."cutoff_days_before" >= 0),
	CONSTRAINT "delivery_calendar_slots_times_ck" CHECK ("delivery_calendar_slots"."start_time" ~ '^[0-2][0-9]:[0-5][0-9]$' and "delivery_calendar_slots"."end_time" ~ '^[0-2][0-9]:[0-5][0-9]$' and "delivery_calendar_slots"."cutoff_time" ~ '^[0-2][0-9]:[0-5][0-9]$' and "delivery_calendar_slots"."start_time" < "delivery_calendar_slots"."end_time")
);
--> statement-breakpoint
CREATE TABLE "delivery_closed_dates" (
	"area_id" integer NOT NULL,
	"date" date NOT NULL,
	CONSTRAINT "delivery_closed_dates_area_id_date_pk" PRIMARY KEY("area_id","date")
);
--> statement-breakpoint
CREATE TABLE "delivery_slot_bookings" (
	"area_id" integer NOT NULL,
	"date" date NOT NULL,
	"start_time" text NOT NULL,
	"capacity" integer NOT NULL,
	"held" integer DEFAULT 0 NOT NULL,
	"sold" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "delivery_slot_bookings_area_id_date_start_time_pk" PRIMARY KEY("area_id","date","start_time"),
	CONSTRAINT "delivery_slot_bookings_ck" CHECK ("delivery_slot_bookings"."held" >= 0 and "delivery_slot_bookings"."sold" >= 0 and "delivery_slot_bookings"."held" + "delivery_slot_bookings"."sold" <= "delivery_slot_bookings"."capacity")
);
--> statement-breakpoint
CREATE TABLE "product_date_stock" (
	"site_id" text NOT NULL,
	"code" text NOT NULL,
	"date" date NOT NULL,
	"capacity" integer NOT NULL,
	"held" integer DEFAULT 0 NOT NULL,
	"sold" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_date_stock_site_id_code_date_pk" PRIMARY KEY("site_id","code","date"),
	CONSTRAINT "product_date_stock_ck" CHECK ("product_date_stock"."capacity" >= 0 and "product_date_stock"."held" >= 0 and "product_date_stock"."sold" >= 0 and "product_date_stock"."held" + "product_date_stock"."sold" <= "product_date_stock"."capacity")
);
--> statement-breakpoint
CREATE TABLE "product_weekly_stock" (
	"site_id" text NOT NULL,
	"code" text NOT NULL,
	"weekday" integer NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "product_weekly_stock_site_id_code_weekday_pk" PRIMARY KEY("site_id","code","weekday"),
	CONSTRAINT "product_weekly_stock_weekday_ck" CHECK ("product_weekly_stock"."weekday" between 1 and 7),
	CONSTRAINT "product_weekly_stock_quantity_ck" CHECK ("product_weekly_stock"."quantity" >= 0)
);
--> statement-breakpoint
CREATE TABLE "vat_rates" (
	"tax_class" text NOT NULL,
	"valid_from" date NOT NULL,
	"rate_basis_points" integer NOT NULL,
	CONSTRAINT "vat_rates_tax_class_valid_from_pk" PRIMARY KEY("tax_class","valid_from"),
	CONSTRAINT "vat_rates_rate_ck" CHECK ("vat_rates"."rate_basis_points" between 0 and 10000)
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "tax_class" text DEFAULT 'food' NOT NULL;--> statement-breakpoint
ALTER TABLE "cart_coupons" ADD CONSTRAINT "cart_coupons_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_coupons" ADD CONSTRAINT "cart_coupons_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_customer_uses" ADD CONSTRAINT "coupon_customer_uses_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_area_postal_codes" ADD CONSTRAINT "delivery_area_postal_codes_area_id_delivery_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."delivery_areas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_calendar_slots" ADD CONSTRAINT "delivery_calendar_slots_area_id_delivery_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."delivery_areas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_closed_dates" ADD CONSTRAINT "delivery_closed_dates_area_id_delivery_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."delivery_areas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_slot_bookings" ADD CONSTRAINT "delivery_slot_bookings_area_id_delivery_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."delivery_areas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "coupons_site_code_uq" ON "coupons" USING btree ("site_id","code");--> statement-breakpoint
CREATE INDEX "delivery_area_postal_codes_area_idx" ON "delivery_area_postal_codes" USING btree ("area_id");--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_calendar_slots_uq" ON "delivery_calendar_slots" USING btree ("area_id","weekday","start_time");--> statement-breakpoint
-- Finnish VAT (decision 019): food 14 % until 31.12.2025 and 13,5 % from 1.1.2026; the standard
-- rate 24 % until 31.8.2024 and 25,5 % from 1.9.2024; gift cards (multi-purpose vouchers) are
-- sold without VAT.
INSERT INTO "vat_rates" ("tax_class", "valid_from", "rate_basis_points") VALUES
  ('food', '2013-01-01', 1400),
  ('food', '2026-01-01', 1350),
  ('standard', '2013-01-01', 2400),
  ('standard', '2024-09-01', 2550),
  ('exempt', '2000-01-01', 0);
