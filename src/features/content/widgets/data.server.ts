import { and, asc, count, eq, gte, inArray, sql } from 'drizzle-orm';
import type { PgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { schoolMaterials } from '../../forms/index.server.ts';
import type { Block } from '../blocks.ts';
import type { PageDto } from '../content.server.ts';
import { jobs, mapRegions, pages, timelineYears } from '../tables.ts';
import { VOTE_QUERY } from './vote-values.ts';

/** A table of rows a site keeps per language (jobs, timeline years, map buttons…). */
type SiteListTable = PgTable & { id: PgColumn; siteId: PgColumn; lang: PgColumn };

/** A job as the listing shows it (spec shop-and-widgets §3 Job). */
export interface JobDto {
  title: string;
  city: string;
  url: string;
  /** ISO date-time. */
  applicationPeriodEnd: string;
}

export interface TimelineYearDto {
  year: number;
  title: string;
  text: string;
  imageId: number | null;
}

/** Spec §3 Map button, with the number the button shows. */
export interface MapRegionDto {
  number: number;
  buttonLabel: string;
  buttonRegion: string;
  buttonInfo: string;
}

/** Spec navigation-and-search §3: a desktop page-navigation item. */
export interface PageNavItem {
  Name: string;
  FriendlyUrl: string;
  Children: PageNavItem[];
  Active: boolean;
}

/** What the widget blocks of one page need from the database. */
export interface WidgetData {
  jobs?: { items: JobDto[]; total: number; page: number; pageSize: number };
  timeline?: TimelineYearDto[];
  mapRegions?: MapRegionDto[];
  schoolMaterials?: { Material: string; Url: string }[];
  tabs?: PageNavItem[];
  /** The answer to a plain-form vote the page was sent back with (`?aanestys=…`). */
  voteOutcome?: VoteOutcome;
}

/** A plain-form vote's answer: the counted option, or that it failed. */
export type VoteOutcome = { voteId: string } & ({ option: number } | { failed: true });

/** The vote answer in the request's query (see `voteReturnPath`); undefined when none. */
export function voteOutcomeOf(query: unknown): VoteOutcome | undefined {
  if (typeof query !== 'object' || query === null) return undefined;
  const q = query as Record<string, unknown>;
  const voteId = q[VOTE_QUERY.vote];
  if (typeof voteId !== 'string' || !/^[a-z0-9-]{1,60}$/.test(voteId)) return undefined;
  if (q[VOTE_QUERY.failed] === '1') return { voteId, failed: true };
  const option = q[VOTE_QUERY.option];
  if (typeof option !== 'string' || !/^\d$/.test(option)) return undefined;
  return { voteId, option: Number(option) };
}

const jobsQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
});

/** The page number a jobs listing shows (`?page=`, 1 when absent or malformed). */
export function jobsPageNumber(request: FastifyRequest): number {
  return jobsQuery.parse(request.query ?? {}).page;
}

/**
 * Reads what the page's widget blocks show, for the request's site and language: only what a
 * block on the page asks for.
 */
export async function loadWidgetData(
  request: FastifyRequest,
  page: PageDto,
  linkOf: (path: string) => string,
): Promise<WidgetData> {
  const { db } = request.server;
  const siteId = request.site.id;
  const lang = request.locale.lang;
  const has = (type: Block['type']) => page.blocks.find((b) => b.type === type);
  const data: WidgetData = {};
  const work: Promise<void>[] = [];
  if (has('school-vote')) {
    const outcome = voteOutcomeOf(request.query);
    if (outcome) data.voteOutcome = outcome;
  }

  const jobsBlock = has('jobs');
  if (jobsBlock?.type === 'jobs') {
    const pageNumber = jobsPageNumber(request);
    const { pageSize } = jobsBlock;
    const open = and(
      eq(jobs.siteId, siteId),
      eq(jobs.lang, lang),
      gte(jobs.applicationPeriodEnd, sql`now()`),
    );
    work.push(
      Promise.all([
        db
          .select()
          .from(jobs)
          .where(open)
          .orderBy(asc(jobs.applicationPeriodEnd), asc(jobs.id))
          .limit(pageSize)
          .offset((pageNumber - 1) * pageSize),
        db.select({ n: count() }).from(jobs).where(open),
      ]).then(([rows, [total]]) => {
        data.jobs = {
          items: rows.map((r) => ({
            title: r.title,
            city: r.city,
            url: r.url,
            applicationPeriodEnd: r.applicationPeriodEnd.toISOString(),
          })),
          total: total?.n ?? 0,
          page: pageNumber,
          pageSize,
        };
      }),
    );
  }
  /** `query` of a list the site keeps per language: its rows, in its order (then as written). */
  const siteList = <Query extends PgSelect>(query: Query, table: SiteListTable, order: PgColumn) =>
    query
      .where(and(eq(table.siteId, siteId), eq(table.lang, lang)))
      .orderBy(asc(order), asc(table.id));
  if (has('timeline')) {
    const { year, title, text, imageId } = timelineYears;
    const query = db.select({ year, title, text, imageId }).from(timelineYears).$dynamic();
    work.push(
      siteList(query, timelineYears, year).then((rows) => {
        data.timeline = rows;
      }),
    );
  }
  if (has('map')) {
    const { number, buttonLabel, buttonRegion, buttonInfo } = mapRegions;
    const fields = { number, buttonLabel, buttonRegion, buttonInfo };
    work.push(
      siteList(db.select(fields).from(mapRegions).$dynamic(), mapRegions, number).then((rows) => {
        data.mapRegions = rows;
      }),
    );
  }
  if (has('school-materials')) {
    const { material, url, sortOrder } = schoolMaterials;
    const query = db.select({ Material: material, Url: url }).from(schoolMaterials).$dynamic();
    work.push(
      siteList(query, schoolMaterials, sortOrder).then((rows) => {
        data.schoolMaterials = rows;
      }),
    );
  }
  if (has('page-tabs') && page.parentId !== null) {
    work.push(
      pageTabs(request, page, linkOf).then((tabs) => {
        data.tabs = tabs;
      }),
    );
  }
  await Promise.all(work);
  return data;
}

/**
 * The tabs of a page: the pages of its section (its parent's children in the navigation), each
 * with its own children, the current one `Active`.
 */
async function pageTabs(
  request: FastifyRequest,
  page: PageDto,
  linkOf: (path: string) => string,
): Promise<PageNavItem[]> {
  const { db } = request.server;
  const inNav = (parentIds: number[]) =>
    db
      .select({
        id: pages.id,
        parentId: pages.parentId,
        path: pages.path,
        navLabel: sql<string>`coalesce(${pages.navLabel}, ${pages.title})`,
      })
      .from(pages)
      .where(and(inArray(pages.parentId, parentIds), eq(pages.showInNav, true)))
      .orderBy(asc(pages.sortOrder), asc(pages.id));
  if (page.parentId === null) return [];
  const siblings = await inNav([page.parentId]);
  const children = siblings.length ? await inNav(siblings.map((s) => s.id)) : [];
  const item = (p: { id: number; path: string; navLabel: string }): PageNavItem => ({
    Name: p.navLabel,
    FriendlyUrl: linkOf(p.path),
    Children: children.filter((c) => c.parentId === p.id).map(item),
    Active: p.id === page.id,
  });
  return siblings.map(item);
}
