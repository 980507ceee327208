import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Transaction } from '../../../db/client.ts';
import { sanitizeRichText } from '../../../render/rich-text.server.tsx';
import { getSite } from '../../../sites/registry.ts';
import { langPrefix } from '../../../sites/resolve.ts';
import type { Lang } from '../../../sites/types.ts';
import { type Actor, recordAudit } from '../../staff/index.server.ts';
import {
  scheduleNewsReleaseMailing,
  withdrawNewsReleaseMailing,
} from '../../subscriptions/index.server.ts';
import { type NewsDocument, newsDocumentSchema } from '../admin/schemas.ts';
import type { NewsRow as NewsDto } from '../content.server.ts';
import { existingImages } from '../media/where-used.server.ts';
import { facetCategories, facetTags, newsReleases } from '../tables.ts';
import { liveRowOf, writeLiveRow } from './live-rows.server.ts';
import { pathErrors } from './recipes.server.ts';
import type { ScheduledKind } from './schedule.server.ts';
import type { ItemRow, KindAdapter, PreviewVersion } from './versions.server.ts';

type NewsRow = typeof newsReleases.$inferSelect;

/** A live release row as a version's document: what its page and its card render. */
export function newsDocumentOf(row: NewsRow): NewsDocument {
  return {
    path: row.path,
    title: row.title,
    teaser: row.teaser,
    bodyHtml: row.bodyHtml,
    imageId: row.imageId,
    authors: row.authors,
    textType: row.textType,
    source: row.kind === 'mynewsdesk' ? 'mynewsdesk' : 'cision',
    categoryIds: row.categoryIds,
    facetTagIds: row.facetTagIds,
  };
}

/**
 * News releases in the versions (decisions 162, 167): the live row is the `news_releases` row of
 * the same id. A release not yet on the site has no row, so neither its page, the listings, the
 * sitemap nor search show it: that is the embargo. Its publish date is the moment it was
 * published (a scheduled one's time); a later publish of a new version keeps it.
 */
export const newsAdapter: KindAdapter<NewsDocument> = {
  kind: 'news',
  table: 'news_releases',
  schema: newsDocumentSchema,
  async live(db, id) {
    const [row] = await db.select().from(newsReleases).where(eq(newsReleases.id, id));
    // A release's publish date is its live row's time of publishing.
    return row
      ? liveRowOf({ ...row, publishedAt: row.publishDate }, newsDocumentOf(row))
      : undefined;
  },
  async check(db, item, doc) {
    const errors = await pathErrors(db, item, doc.path, 'news');
    if (sanitizeRichText(doc.bodyHtml) !== doc.bodyHtml) errors.bodyHtml = 'admin.news.bodyUnsafe';
    if (doc.imageId !== null) {
      if (!(await existingImages(db, [doc.imageId])).has(doc.imageId))
        errors.imageId = 'admin.recipe.imageMissing';
    }
    const wanted = [...new Set([...doc.facetTagIds, ...doc.categoryIds])];
    const tags = wanted.length
      ? new Set(
          (
            await db
              .select({ id: facetTags.id })
              .from(facetTags)
              .innerJoin(facetCategories, eq(facetCategories.id, facetTags.categoryId))
              .where(
                and(
                  inArray(facetTags.id, wanted),
                  eq(facetCategories.siteId, item.siteId),
                  eq(facetCategories.lang, item.lang),
                ),
              )
          ).map((r) => r.id),
        )
      : new Set<number>();
    doc.facetTagIds.forEach((tag, i) => {
      if (!tags.has(tag)) errors[`facetTagIds.${i}`] ??= 'admin.recipe.tagMissing';
    });
    doc.categoryIds.forEach((tag, i) => {
      if (!tags.has(tag)) errors[`categoryIds.${i}`] ??= 'admin.recipe.tagMissing';
    });
    return errors;
  },
  writeLive(tx, item, doc, exists, at) {
    const { itemId: id, siteId, lang, translationKey } = item;
    const { source, ...columns } = doc;
    return writeLiveRow(
      tx,
      newsReleases,
      exists,
      { id, siteId, lang, translationKey, publishDate: at },
      { ...columns, kind: source, updatedAt: new Date() },
    );
  },
};

/**
 * A release's version as its page renders it, for a preview link (decision 172); not yet
 * published, its date is the moment of the preview.
 */
export function newsPreview(
  claims: { i: number; s: string; l: string },
  found: PreviewVersion<NewsDocument>,
): NewsDto {
  const { source, ...columns } = found.document;
  const now = new Date();
  return {
    id: claims.i,
    siteId: claims.s,
    lang: claims.l,
    ...columns,
    kind: source,
    informationTypes: [],
    translationKey: found.live?.translationKey ?? `news-preview-${claims.i}`,
    publishDate: found.live?.publishedAt ?? now,
    updatedAt: now,
  };
}

/** What a release's publishing carries beside its version: its mailing (decision 158). */
export const newsPayloadSchema = z.object({
  informationTypes: z.array(z.string()).default([]),
  mailingVersion: z.number().int().nullable().default(null),
  /** The site's address as the publishing request saw it (the mails' links). */
  siteUrl: z.string().default(''),
});
export type NewsPayload = z.infer<typeof newsPayloadSchema>;

/** The release's page on its site, absolute. */
function releaseUrl(home: string, release: Pick<NewsRow, 'siteId' | 'lang' | 'path'>): string {
  const site = getSite(release.siteId);
  const prefix = site ? langPrefix(site, release.lang as Lang) : '';
  return new URL(`${prefix}${release.path}`, home).href;
}

/**
 * Queues (or moves) the release's mailing in the publishing transaction, sent from `at`, to the
 * subscribers of its categories, with its language versions on the site; the release's
 * categories and date are set with it, and `news.publish` records the mailing.
 */
export async function queueNewsMailing(
  tx: Transaction,
  releaseId: number,
  payload: NewsPayload,
  at: Date,
  actor: Actor,
  options: { setDate: boolean },
) {
  const [locked] = await tx
    .select()
    .from(newsReleases)
    .where(eq(newsReleases.id, releaseId))
    .for('update');
  if (!locked) throw new Error(`news release ${releaseId} is not on the site`);
  const siblings = await tx
    .select()
    .from(newsReleases)
    .where(
      and(
        eq(newsReleases.siteId, locked.siteId),
        eq(newsReleases.translationKey, locked.translationKey),
      ),
    );
  const versions = [locked, ...siblings.filter((s) => s.id !== locked.id)].map((v) => ({
    lang: v.lang,
    title: v.title,
    teaser: v.teaser,
    url: releaseUrl(payload.siteUrl, v),
  }));
  const mailing = await scheduleNewsReleaseMailing(
    tx,
    {
      releaseId: locked.id,
      siteId: locked.siteId,
      lang: locked.lang,
      translationKey: locked.translationKey,
      informationTypes: payload.informationTypes,
      versions,
      siteUrl: payload.siteUrl,
      sendAt: at,
    },
    payload.mailingVersion,
    actor.label,
  );
  await tx
    .update(newsReleases)
    .set({
      ...(options.setDate ? { publishDate: at } : {}),
      informationTypes: mailing.after.informationTypes,
      updatedAt: new Date(),
    })
    .where(eq(newsReleases.id, releaseId));
  await recordAudit(tx, actor, {
    action: 'news.publish',
    subjectType: 'news_release',
    subjectId: String(releaseId),
    siteId: locked.siteId,
    lang: locked.lang,
    changes: {
      publishDate: {
        before: locked.publishDate.toISOString(),
        after: (options.setDate ? at : locked.publishDate).toISOString(),
      },
      informationTypes: { before: locked.informationTypes, after: mailing.after.informationTypes },
      mailing: { before: mailing.before, after: mailing.after },
    },
  });
  return mailing;
}

/**
 * The news release as a kind of the schedules: publishing it (now or at its time) queues its
 * mailing in the same transaction when categories were chosen; taking it off the site withdraws
 * a mailing that has not begun.
 */
export const newsKind: ScheduledKind = {
  adapter: newsAdapter,
  async afterPublish(tx, { item, at, payload, actor }) {
    const parsed = newsPayloadSchema.parse(payload);
    if (parsed.informationTypes.length === 0) return undefined;
    await queueNewsMailing(tx, item.itemId, parsed, at, actor, { setDate: false });
    return undefined;
  },
  async afterUnpublish(tx, item: ItemRow) {
    await withdrawNewsReleaseMailing(tx, item.itemId);
  },
};
