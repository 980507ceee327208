CREATE TABLE "content_likes" (
	"id" serial PRIMARY KEY NOT NULL,
	"recipe_id" integer,
	"product_id" integer,
	"visitor" text NOT NULL,
	"client" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_likes_one_target_ck" CHECK (num_nonnulls("content_likes"."recipe_id", "content_likes"."product_id") = 1)
);
--> statement-breakpoint
ALTER TABLE "content_likes" ADD CONSTRAINT "content_likes_recipe_id_recipes_id_fk" FOREIGN KEY ("recipe_id") REFERENCES "public"."recipes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_likes" ADD CONSTRAINT "content_likes_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "content_likes_recipe_visitor_uq" ON "content_likes" USING btree ("recipe_id","visitor");--> statement-breakpoint
CREATE UNIQUE INDEX "content_likes_product_visitor_uq" ON "content_likes" USING btree ("product_id","visitor");--> statement-breakpoint
CREATE INDEX "content_likes_recipe_client_idx" ON "content_likes" USING btree ("recipe_id","client","created_at");--> statement-breakpoint
CREATE INDEX "content_likes_product_client_idx" ON "content_likes" USING btree ("product_id","client","created_at");