CREATE TABLE "cart_handovers" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"cart_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "shop_code" text;--> statement-breakpoint
ALTER TABLE "cart_handovers" ADD CONSTRAINT "cart_handovers_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cart_handovers_cart_idx" ON "cart_handovers" USING btree ("cart_id");