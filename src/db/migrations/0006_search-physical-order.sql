-- Documents are written in site and language order, so a batch of a thousand rows (a seed batch,
-- a bulk import) puts each site's documents side by side in the table. A search reads one site
-- and language; on PGlite the rows it scans then sit on a quarter as many pages. Decision 011.
CREATE OR REPLACE FUNCTION search_refresh(kind text, ids integer[]) RETURNS void
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
    ORDER BY v.site_id, v.lang, v.source_id
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
