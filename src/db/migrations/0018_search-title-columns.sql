DROP INDEX "search_documents_title_trgm_idx";--> statement-breakpoint
ALTER TABLE "search_documents" ADD COLUMN "title_lower" text GENERATED ALWAYS AS (lower(title)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "search_documents" ADD COLUMN "title_search" "tsvector" GENERATED ALWAYS AS (to_tsvector(search_config(lang), title) || to_tsvector('simple'::regconfig, title)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "search_documents_title_lower_trgm_idx" ON "search_documents" USING gin ("title_lower" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "search_documents_title_search_idx" ON "search_documents" USING gin ("title_search");