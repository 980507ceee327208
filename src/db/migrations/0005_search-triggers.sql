-- Search documents follow their content in the same transaction: statement-level triggers on
-- pages, products, recipes and news_releases re-index the rows a statement touched, as one set
-- (a seed batch of 1,000 rows is one INSERT … SELECT, not 1,000 trigger calls). Decision 011.

-- Plain text of stored HTML: tags out, the usual entities decoded, white space folded.
CREATE FUNCTION search_plain(html text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT btrim(regexp_replace(
    replace(replace(replace(replace(replace(replace(replace(
      regexp_replace(coalesce(html, ''), '<[^>]*>', ' ', 'g'),
      '&nbsp;', ' '), '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&shy;', ''),
      '&amp;', '&'),
    '\s+', ' ', 'g'))
$$;
--> statement-breakpoint

-- The text search configuration of a content language.
CREATE FUNCTION search_config(lang text) RETURNS regconfig
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE lang
    WHEN 'fi' THEN 'finnish'::regconfig
    WHEN 'sv' THEN 'swedish'::regconfig
    WHEN 'en' THEN 'english'::regconfig
    ELSE 'simple'::regconfig
  END
$$;
--> statement-breakpoint

-- Title (A) stemmed and also as written, so a prefix of the unstemmed word still matches;
-- teaser (B); body (C).
CREATE FUNCTION search_vector(lang text, title text, teaser text, body text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector(search_config(lang), title), 'A')
      || setweight(to_tsvector('simple'::regconfig, title), 'A')
      || setweight(to_tsvector(search_config(lang), teaser), 'B')
      || setweight(to_tsvector(search_config(lang), body), 'C')
$$;
--> statement-breakpoint

-- Searchable text of a page's blocks: rich text, hero slide texts and the headers of card grids.
CREATE FUNCTION search_page_text(blocks jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  WITH b AS (
    SELECT e.value AS block, e.ordinality AS n
    FROM jsonb_array_elements(CASE jsonb_typeof(blocks) WHEN 'array' THEN blocks ELSE '[]'::jsonb END)
      WITH ORDINALITY AS e
  )
  SELECT coalesce(string_agg(t, ' ' ORDER BY n, m), '') FROM (
    SELECT search_plain(block->>'html') AS t, n, 0::bigint AS m FROM b WHERE block->>'type' = 'rich-text'
    UNION ALL
    SELECT block->>'header', n, 0 FROM b WHERE block->>'type' IN ('card-grid', 'brand-cards')
    UNION ALL
    SELECT search_plain(s.value->>'text'), n, s.ordinality
    FROM b, jsonb_array_elements(
      CASE jsonb_typeof(block->'slides') WHEN 'array' THEN block->'slides' ELSE '[]'::jsonb END
    ) WITH ORDINALITY AS s
    WHERE block->>'type' = 'hero-carousel'
  ) parts
  WHERE t IS NOT NULL AND t <> ''
$$;
--> statement-breakpoint

-- Searchable text of a recipe's steps: headings, instructions and ingredient names.
CREATE FUNCTION search_recipe_text(steps jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(concat_ws(' ', s.value->>'heading', s.value->>'instructions', (
    SELECT string_agg(i.value->>'name', ' ' ORDER BY i.ordinality)
    FROM jsonb_array_elements(
      CASE jsonb_typeof(s.value->'ingredients') WHEN 'array' THEN s.value->'ingredients' ELSE '[]'::jsonb END
    ) WITH ORDINALITY AS i
  )), ' ' ORDER BY s.ordinality), '')
  FROM jsonb_array_elements(CASE jsonb_typeof(steps) WHEN 'array' THEN steps ELSE '[]'::jsonb END)
    WITH ORDINALITY AS s
$$;
--> statement-breakpoint

-- What each source contributes, one view per table with the columns of search_documents (less
-- id and search). Pages that are only tools (search, cart, checkout) or point elsewhere are left out.
CREATE VIEW search_source_page AS
SELECT 'page'::text AS source, p.id AS source_id, p.site_id, p.lang, p.type, p.path, p.title,
  p.teaser, search_page_text(p.blocks) AS body, p.teaser_image_id AS image_id,
  0::smallint AS content_group, NULL::text AS category, '{}'::integer[] AS facet_tag_ids,
  '{}'::integer[] AS category_ids, NULL::text AS product_group, '{}'::text[] AS equipment,
  '{}'::text[] AS authors, p.published_at, 0 AS like_count, NULL::integer AS total_time,
  false AS is_novelty
FROM pages p
WHERE p.type NOT IN ('search', 'cart', 'checkout') AND NOT p.is_external;
--> statement-breakpoint

CREATE VIEW search_source_product AS
SELECT 'product'::text AS source, p.id AS source_id, p.site_id, p.lang, p.kind AS type, p.path,
  p.name AS title, p.teaser,
  concat_ws(' ', search_plain(p.description_html), p.ingredients, p.code, p.gtin, p.valo_code) AS body,
  p.image_ids[1] AS image_id, 1::smallint AS content_group, p.product_group AS category,
  p.facet_tag_ids, p.category_ids, p.product_group, '{}'::text[] AS equipment,
  '{}'::text[] AS authors, p.published_at, p.like_count, NULL::integer AS total_time,
  p.is_novelty
FROM products p;
--> statement-breakpoint

CREATE VIEW search_source_recipe AS
SELECT 'recipe'::text AS source, r.id AS source_id, r.site_id, r.lang, 'recipe'::text AS type,
  r.path, r.title, r.teaser,
  concat_ws(' ', search_recipe_text(r.steps), array_to_string(r.equipment, ' ')) AS body,
  r.image_id, 2::smallint AS content_group, NULL::text AS category, r.facet_tag_ids,
  r.category_ids, NULL::text AS product_group, r.equipment, '{}'::text[] AS authors,
  r.published_at, r.like_count, r.total_time_minutes AS total_time, false AS is_novelty
FROM recipes r;
--> statement-breakpoint

CREATE VIEW search_source_news AS
SELECT 'news'::text AS source, n.id AS source_id, n.site_id, n.lang, 'news'::text AS type, n.path,
  n.title, n.teaser,
  concat_ws(' ', search_plain(n.body_html), array_to_string(n.authors, ' '), n.text_type) AS body,
  n.image_id, 0::smallint AS content_group, n.text_type AS category, n.facet_tag_ids,
  n.category_ids, NULL::text AS product_group, '{}'::text[] AS equipment, n.authors,
  n.publish_date AS published_at, 0 AS like_count, NULL::integer AS total_time,
  false AS is_novelty
FROM news_releases n;
--> statement-breakpoint

-- Re-indexes the given rows of one source: upserts those its view has, deletes those it no
-- longer has (deleted, or a page that became a tool page).
CREATE FUNCTION search_refresh(kind text, ids integer[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF kind NOT IN ('page', 'product', 'recipe', 'news') THEN
    RAISE EXCEPTION 'search_refresh: unknown source %', kind;
  END IF;
  IF cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  EXECUTE format($sql$
    INSERT INTO search_documents AS d (source, source_id, site_id, lang, type, path, title, teaser,
      body, image_id, content_group, category, facet_tag_ids, category_ids, product_group,
      equipment, authors, published_at, like_count, total_time, is_novelty, search)
    SELECT v.source, v.source_id, v.site_id, v.lang, v.type, v.path, v.title, v.teaser, v.body,
      v.image_id, v.content_group, v.category, v.facet_tag_ids, v.category_ids, v.product_group,
      v.equipment, v.authors, v.published_at, v.like_count, v.total_time, v.is_novelty,
      search_vector(v.lang, v.title, v.teaser, v.body)
    FROM %I v
    WHERE v.source_id = ANY($1)
    ON CONFLICT (source, source_id) DO UPDATE SET
      site_id = excluded.site_id, lang = excluded.lang, type = excluded.type,
      path = excluded.path, title = excluded.title, teaser = excluded.teaser,
      body = excluded.body, image_id = excluded.image_id,
      content_group = excluded.content_group, category = excluded.category,
      facet_tag_ids = excluded.facet_tag_ids, category_ids = excluded.category_ids,
      product_group = excluded.product_group, equipment = excluded.equipment,
      authors = excluded.authors, published_at = excluded.published_at,
      like_count = excluded.like_count, total_time = excluded.total_time,
      is_novelty = excluded.is_novelty, search = excluded.search
  $sql$, 'search_source_' || kind) USING ids;
  EXECUTE format($sql$
    DELETE FROM search_documents d
    WHERE d.source = $1 AND d.source_id = ANY($2)
      AND NOT EXISTS (SELECT 1 FROM %I v WHERE v.source_id = d.source_id)
  $sql$, 'search_source_' || kind) USING kind, ids;
END
$$;
--> statement-breakpoint

CREATE FUNCTION search_after_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_refresh(TG_ARGV[0], ARRAY(SELECT id FROM new_rows));
  RETURN NULL;
END
$$;
--> statement-breakpoint

CREATE FUNCTION search_after_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_refresh(
    TG_ARGV[0], ARRAY(SELECT id FROM new_rows UNION SELECT id FROM old_rows));
  RETURN NULL;
END
$$;
--> statement-breakpoint

CREATE FUNCTION search_after_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_documents
  WHERE source = TG_ARGV[0] AND source_id IN (SELECT id FROM old_rows);
  RETURN NULL;
END
$$;
--> statement-breakpoint

CREATE FUNCTION search_after_truncate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_documents WHERE source = TG_ARGV[0];
  RETURN NULL;
END
$$;
--> statement-breakpoint

CREATE TRIGGER search_insert AFTER INSERT ON pages REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_after_insert('page');
--> statement-breakpoint
CREATE TRIGGER search_update AFTER UPDATE ON pages
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_after_update('page');
--> statement-breakpoint
CREATE TRIGGER search_delete AFTER DELETE ON pages REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_after_delete('page');
--> statement-breakpoint
CREATE TRIGGER search_truncate AFTER TRUNCATE ON pages
  FOR EACH STATEMENT EXECUTE FUNCTION search_after_truncate('page');
--> statement-breakpoint

CREATE TRIGGER search_insert AFTER INSERT ON products REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_after_insert('product');
--> statement-breakpoint
CREATE TRIGGER search_update AFTER UPDATE ON products
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_after_update('product');
--> statement-breakpoint
CREATE TRIGGER search_delete AFTER DELETE ON products REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_after_delete('product');
--> statement-breakpoint
CREATE TRIGGER search_truncate AFTER TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION search_after_truncate('product');
--> statement-breakpoint

CREATE TRIGGER search_insert AFTER INSERT ON recipes REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_after_insert('recipe');
--> statement-breakpoint
CREATE TRIGGER search_update AFTER UPDATE ON recipes
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_after_update('recipe');
--> statement-breakpoint
CREATE TRIGGER search_delete AFTER DELETE ON recipes REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_after_delete('recipe');
--> statement-breakpoint
CREATE TRIGGER search_truncate AFTER TRUNCATE ON recipes
  FOR EACH STATEMENT EXECUTE FUNCTION search_after_truncate('recipe');
--> statement-breakpoint

CREATE TRIGGER search_insert AFTER INSERT ON news_releases REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_after_insert('news');
--> statement-breakpoint
CREATE TRIGGER search_update AFTER UPDATE ON news_releases
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_after_update('news');
--> statement-breakpoint
CREATE TRIGGER search_delete AFTER DELETE ON news_releases REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_after_delete('news');
--> statement-breakpoint
CREATE TRIGGER search_truncate AFTER TRUNCATE ON news_releases
  FOR EACH STATEMENT EXECUTE FUNCTION search_after_truncate('news');
--> statement-breakpoint

-- Content that exists already.
SELECT search_refresh('page', ARRAY(SELECT id FROM pages));
--> statement-breakpoint
SELECT search_refresh('product', ARRAY(SELECT id FROM products));
--> statement-breakpoint
SELECT search_refresh('recipe', ARRAY(SELECT id FROM recipes));
--> statement-breakpoint
SELECT search_refresh('news', ARRAY(SELECT id FROM news_releases));
