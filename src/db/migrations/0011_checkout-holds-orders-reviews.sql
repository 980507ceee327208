CREATE TABLE "cart_gift_cards" (
	"cart_id" uuid NOT NULL,
	"gift_card_id" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cart_gift_cards_cart_id_gift_card_id_pk" PRIMARY KEY("cart_id","gift_card_id")
);
--> statement-breakpoint
CREATE TABLE "checkout_hold_lines" (
	"hold_id" uuid NOT NULL,
	"site_id" text NOT NULL,
	"code" text NOT NULL,
	"date" date NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "checkout_hold_lines_hold_id_code_pk" PRIMARY KEY("hold_id","code"),
	CONSTRAINT "checkout_hold_lines_quantity_ck" CHECK ("checkout_hold_lines"."quantity" between 1 and 99)
);
--> statement-breakpoint
CREATE TABLE "checkout_holds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cart_id" uuid NOT NULL,
	"site_id" text NOT NULL,
	"area_id" integer NOT NULL,
	"postal_code" text NOT NULL,
	"date" date NOT NULL,
	"start_time" text NOT NULL,
	"end_time" text NOT NULL,
	"use_delivery_address_for_billing" boolean DEFAULT true NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gift_cards" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"code_hash" text NOT NULL,
	"initial_cents" integer NOT NULL,
	"balance_cents" integer NOT NULL,
	"valid_to" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gift_cards_balance_ck" CHECK ("gift_cards"."balance_cents" >= 0 and "gift_cards"."balance_cents" <= "gift_cards"."initial_cents")
);
--> statement-breakpoint
CREATE TABLE "order_coupons" (
	"order_id" uuid NOT NULL,
	"coupon_id" integer NOT NULL,
	"customer_key" text NOT NULL,
	CONSTRAINT "order_coupons_order_id_coupon_id_pk" PRIMARY KEY("order_id","coupon_id")
);
--> statement-breakpoint
CREATE TABLE "order_gift_cards" (
	"order_id" uuid NOT NULL,
	"gift_card_id" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	CONSTRAINT "order_gift_cards_order_id_gift_card_id_pk" PRIMARY KEY("order_id","gift_card_id"),
	CONSTRAINT "order_gift_cards_amount_ck" CHECK ("order_gift_cards"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "order_lines" (
	"order_id" uuid NOT NULL,
	"code" text NOT NULL,
	"product_id" integer,
	"name" text NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"line_price_without_discounts_cents" integer NOT NULL,
	"line_price_cents" integer NOT NULL,
	"vat_basis_points" integer NOT NULL,
	"is_gift_card" boolean DEFAULT false NOT NULL,
	"took_date_stock" boolean DEFAULT false NOT NULL,
	CONSTRAINT "order_lines_order_id_code_pk" PRIMARY KEY("order_id","code"),
	CONSTRAINT "order_lines_quantity_ck" CHECK ("order_lines"."quantity" between 1 and 99)
);
--> statement-breakpoint
CREATE TABLE "order_payments" (
	"stamp" text PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"transaction_id" text,
	"amount_cents" integer NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"method" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" integer GENERATED ALWAYS AS IDENTITY (sequence name "orders_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 100001 CACHE 1),
	"checkout_id" uuid NOT NULL,
	"site_id" text NOT NULL,
	"language" text NOT NULL,
	"customer_id" uuid,
	"session_id" text,
	"status" text DEFAULT 'pending_payment' NOT NULL,
	"email" text NOT NULL,
	"phone_number" text NOT NULL,
	"delivery_address" jsonb NOT NULL,
	"billing_address" jsonb NOT NULL,
	"additional_information" text DEFAULT '' NOT NULL,
	"area_id" integer,
	"postal_code" text NOT NULL,
	"delivery_date" date NOT NULL,
	"start_time" text NOT NULL,
	"end_time" text NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"sub_total_cents" integer NOT NULL,
	"discount_cents" integer DEFAULT 0 NOT NULL,
	"shipping_cents" integer DEFAULT 0 NOT NULL,
	"vat_cents" integer NOT NULL,
	"used_gift_card_cents" integer DEFAULT 0 NOT NULL,
	"total_cents" integer NOT NULL,
	"coupon_codes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"payment_method_code" text,
	"expires_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_money_ck" CHECK ("orders"."sub_total_cents" >= 0 and "orders"."discount_cents" >= 0 and "orders"."shipping_cents" >= 0 and "orders"."vat_cents" >= 0 and "orders"."used_gift_card_cents" >= 0 and "orders"."total_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "product_reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"product_id" integer NOT NULL,
	"code" text NOT NULL,
	"customer_id" uuid,
	"language" text NOT NULL,
	"user_name" text NOT NULL,
	"rating" smallint NOT NULL,
	"text" text NOT NULL,
	"is_verified" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_reviews_rating_ck" CHECK ("product_reviews"."rating" between 1 and 5)
);
--> statement-breakpoint
ALTER TABLE "delivery_slot_bookings" DROP CONSTRAINT "delivery_slot_bookings_ck";--> statement-breakpoint
ALTER TABLE "product_date_stock" DROP CONSTRAINT "product_date_stock_ck";--> statement-breakpoint
ALTER TABLE "cart_gift_cards" ADD CONSTRAINT "cart_gift_cards_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_gift_cards" ADD CONSTRAINT "cart_gift_cards_gift_card_id_gift_cards_id_fk" FOREIGN KEY ("gift_card_id") REFERENCES "public"."gift_cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_hold_lines" ADD CONSTRAINT "checkout_hold_lines_hold_id_checkout_holds_id_fk" FOREIGN KEY ("hold_id") REFERENCES "public"."checkout_holds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_holds" ADD CONSTRAINT "checkout_holds_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_holds" ADD CONSTRAINT "checkout_holds_area_id_delivery_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."delivery_areas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_coupons" ADD CONSTRAINT "order_coupons_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_coupons" ADD CONSTRAINT "order_coupons_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_gift_cards" ADD CONSTRAINT "order_gift_cards_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_gift_cards" ADD CONSTRAINT "order_gift_cards_gift_card_id_gift_cards_id_fk" FOREIGN KEY ("gift_card_id") REFERENCES "public"."gift_cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_payments" ADD CONSTRAINT "order_payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_area_id_delivery_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."delivery_areas"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD CONSTRAINT "product_reviews_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkout_hold_lines_stock_idx" ON "checkout_hold_lines" USING btree ("site_id","code","date");--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_holds_cart_uq" ON "checkout_holds" USING btree ("cart_id");--> statement-breakpoint
CREATE INDEX "checkout_holds_slot_idx" ON "checkout_holds" USING btree ("area_id","date","start_time");--> statement-breakpoint
CREATE INDEX "checkout_holds_expires_idx" ON "checkout_holds" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "gift_cards_site_code_uq" ON "gift_cards" USING btree ("site_id","code_hash");--> statement-breakpoint
CREATE INDEX "order_payments_order_idx" ON "order_payments" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_number_uq" ON "orders" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_checkout_uq" ON "orders" USING btree ("checkout_id");--> statement-breakpoint
CREATE INDEX "orders_customer_idx" ON "orders" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_pending_expires_idx" ON "orders" USING btree ("expires_at") WHERE "orders"."status" = 'pending_payment';--> statement-breakpoint
CREATE UNIQUE INDEX "product_reviews_customer_uq" ON "product_reviews" USING btree ("site_id","code","customer_id");--> statement-breakpoint
CREATE INDEX "product_reviews_list_idx" ON "product_reviews" USING btree ("site_id","code","created_at");--> statement-breakpoint
ALTER TABLE "delivery_slot_bookings" DROP COLUMN "held";--> statement-breakpoint
ALTER TABLE "product_date_stock" DROP COLUMN "held";--> statement-breakpoint
ALTER TABLE "delivery_slot_bookings" ADD CONSTRAINT "delivery_slot_bookings_ck" CHECK ("delivery_slot_bookings"."sold" >= 0 and "delivery_slot_bookings"."sold" <= "delivery_slot_bookings"."capacity");--> statement-breakpoint
ALTER TABLE "product_date_stock" ADD CONSTRAINT "product_date_stock_ck" CHECK ("product_date_stock"."capacity" >= 0 and "product_date_stock"."sold" >= 0 and "product_date_stock"."sold" <= "product_date_stock"."capacity");