import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import { startJob } from '../../server/jobs.ts';

/** How often the statistics are checked while the server runs. */
const CHECK_EVERY_MS = 5 * 60_000;

/**
 * Refreshes the planner's statistics of the search documents when they are missing or stale.
 * PGlite runs no autovacuum, so after a seed (100,000 rows) the planner would otherwise guess one
 * row per site and pick nested loops; on PostgreSQL autovacuum does the same and this is cheap.
 * Returns true when it analysed.
 */
export async function analyzeSearchIfStale(db: Database): Promise<boolean> {
  const result = (await db.execute(sql`
    select c.reltuples::float8 as estimated,
      coalesce(s.n_mod_since_analyze, 0)::float8 as modified,
      (select count(*) from search_documents)::float8 as actual
    from pg_class c
    left join pg_stat_user_tables s on s.relid = c.oid
    where c.oid = 'search_documents'::regclass
  `)) as unknown as { rows: { estimated: number; modified: number; actual: number }[] };
  const row = result.rows[0];
  if (!row) return false;
  const tolerance = 0.1 * Math.max(row.actual, 0) + 100;
  const stale =
    row.estimated < 0 ||
    Math.abs(row.actual - row.estimated) > tolerance ||
    row.modified > tolerance;
  if (stale) await db.execute(sql`analyze search_documents`);
  return stale;
}

/**
 * Checks the statistics once the server is ready and then every few minutes, in one process at
 * a time (the statistics are the database's, not the process's).
 */
export function startSearchStatistics(app: FastifyInstance) {
  app.addHook('onReady', async () => {
    const tick = startJob(app, {
      name: 'search-statistics',
      everyMs: CHECK_EVERY_MS,
      run: (db) => analyzeSearchIfStale(db),
    });
    await tick();
  });
}

/**
 * After a bulk load (the seed): rewrites the search documents in site and language order and
 * refreshes their statistics. A search reads one site and language, so its rows then sit on a few
 * hundred pages instead of thousands; at 100,000 documents this cut search times by about a third
 * on PGlite (bench/README.md). It locks the table while it runs, so it is not for live servers.
 */
export async function compactSearchDocuments(db: Database): Promise<void> {
  await db.execute(sql`cluster search_documents using search_documents_site_idx`);
  await db.execute(sql`analyze search_documents`);
}
