ALTER TABLE "checkout_holds" ALTER COLUMN "area_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_holds" ALTER COLUMN "postal_code" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_holds" ALTER COLUMN "date" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_holds" ALTER COLUMN "start_time" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_holds" ALTER COLUMN "end_time" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "postal_code" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "delivery_date" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "start_time" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "end_time" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "gift_cards" ADD COLUMN "order_id" uuid;--> statement-breakpoint
ALTER TABLE "gift_cards" ADD COLUMN "order_line_code" text;--> statement-breakpoint
ALTER TABLE "gift_cards" ADD COLUMN "order_seq" integer;--> statement-breakpoint
ALTER TABLE "gift_cards" ADD CONSTRAINT "gift_cards_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gift_cards_order_line_uq" ON "gift_cards" USING btree ("order_id","order_line_code","order_seq");--> statement-breakpoint
ALTER TABLE "checkout_holds" ADD CONSTRAINT "checkout_holds_delivery_ck" CHECK (num_nulls("checkout_holds"."area_id", "checkout_holds"."postal_code", "checkout_holds"."date", "checkout_holds"."start_time", "checkout_holds"."end_time") in (0, 5));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_delivery_ck" CHECK (num_nulls("orders"."postal_code", "orders"."delivery_date", "orders"."start_time", "orders"."end_time") in (0, 4));