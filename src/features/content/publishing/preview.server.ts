import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../../db/client.ts';
import { NotFound } from '../../../server/errors.ts';
import { getSite } from '../../../sites/registry.ts';
import { langPrefix } from '../../../sites/resolve.ts';
import type { Lang } from '../../../sites/types.ts';
import { actorOf, recordAudit } from '../../staff/index.server.ts';
import type { Resolved } from '../content.server.ts';
import { newsAdapter, newsPreview } from './news.server.ts';
import { pageAdapter, pagePreview } from './pages.server.ts';
import { productAdapter, productPreview } from './products.server.ts';
import { recipeAdapter, recipePreview } from './recipes.server.ts';
import { PREVIEW_PATH, PREVIEW_TTL_MS } from './schemas.ts';
import {
  assertMay,
  type KindAdapter,
  type PreviewVersion,
  publicUrl,
  versionForPreview,
} from './versions.server.ts';

/**
 * Signed preview links (decision 162): `<site><language prefix>/_preview/<token>`, the token
 * naming the item, the version and the moment it stops opening, with an HMAC of the server's
 * secret. Anyone with the link sees that version until then (to show a colleague); the page is
 * never cached, never indexed and says that it is a preview.
 */

const claimsSchema = z
  .object({
    k: z.enum(['recipe', 'page', 'news', 'product']),
    i: z.number().int().min(1),
    v: z.number().int().min(1),
    s: z.string(),
    l: z.string(),
    e: z.number().int(),
  })
  .strict();
export type PreviewClaims = z.infer<typeof claimsSchema>;

const mac = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(`content-preview:${payload}`).digest('base64url');

export function signPreview(secret: string, claims: PreviewClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
}

/** The claims of a token this server signed that has not expired; undefined otherwise. */
export function verifyPreview(
  secret: string,
  token: string,
  now = Date.now(),
): PreviewClaims | undefined {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0) return undefined;
  const expected = Buffer.from(mac(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const claims = claimsSchema.safeParse(parsed);
  if (!claims.success || claims.data.e <= now) return undefined;
  return claims.data;
}

type PreviewKind = PreviewClaims['k'];

/** A preview link of a version, with the audit row that says who made it. */
export async function previewLink<Doc extends object>(
  request: FastifyRequest,
  id: number,
  version: number,
  adapter: KindAdapter<Doc> = recipeAdapter as unknown as KindAdapter<Doc>,
) {
  const kind = adapter.kind as PreviewKind;
  const found = await versionForPreview(request.server.db, adapter, id, version);
  if (!found) throw new NotFound('No such version.');
  assertMay(request, 'content.edit', found.scope);
  const expiresAt = Date.now() + PREVIEW_TTL_MS;
  const token = signPreview(request.server.config.sessionSecret, {
    k: kind,
    i: id,
    v: version,
    s: found.scope.siteId,
    l: found.scope.lang,
    e: expiresAt,
  });
  await recordAudit(request.server.db, actorOf(request), {
    action: 'content.preview',
    subjectType: kind,
    subjectId: String(id),
    siteId: found.scope.siteId,
    lang: found.scope.lang,
    changes: { version: { after: version } },
  });
  return {
    url: publicUrl(request, found.scope.siteId, found.scope.lang, `${PREVIEW_PATH}/${token}`),
    expiresAt: new Date(expiresAt).toISOString(),
  };
}

/** One kind's version of a preview link as the page route resolves its path; undefined if none. */
type ResolveVersion = (db: Database, claims: PreviewClaims) => Promise<Resolved | undefined>;

/** A kind's preview: its version, found by its adapter, made into what its page route renders. */
function previewOf<Doc extends object>(
  adapter: KindAdapter<Doc>,
  resolve: (db: Database, claims: PreviewClaims, found: PreviewVersion<Doc>) => Promise<Resolved>,
): ResolveVersion {
  return async (db, claims) => {
    const found = await versionForPreview(db, adapter, claims.i, claims.v);
    return found ? resolve(db, claims, found) : undefined;
  };
}

const previews: Record<PreviewKind, ResolveVersion> = {
  page: previewOf(pageAdapter, async (db, claims, found) => ({
    kind: 'page',
    page: await pagePreview(db, claims.i, found),
  })),
  news: previewOf(newsAdapter, async (_db, claims, found) => ({
    kind: 'news',
    news: newsPreview(claims, found),
  })),
  product: previewOf(productAdapter, async (db, claims, found) => ({
    kind: 'product',
    product: await productPreview(db, claims, found),
  })),
  recipe: previewOf(recipeAdapter, async (_db, claims, found) => ({
    kind: 'recipe',
    recipe: recipePreview(claims, found),
  })),
};

/**
 * What a preview link shows, as the page route resolves a path: the version's document as a
 * recipe row, a page, a product or a news release of the request's site and language. Undefined
 * for a token that is not this server's, has expired, or names another site or language than the
 * address it came to.
 */
export async function resolvePreview(
  request: FastifyRequest,
  token: string,
): Promise<{ resolved: Resolved; version: number; expiresAt: Date } | undefined> {
  const claims = verifyPreview(request.server.config.sessionSecret, token);
  if (!claims || claims.s !== request.site.id || claims.l !== request.locale.lang) return undefined;
  const resolved = await previews[claims.k](request.server.db, claims);
  if (!resolved) return undefined;
  return { version: claims.v, expiresAt: new Date(claims.e), resolved };
}

/** The path part of a preview address for a site's language version (for tests and links). */
export function previewPath(siteId: string, lang: string, token: string): string {
  const site = getSite(siteId);
  return `${site ? langPrefix(site, lang as Lang) : ''}${PREVIEW_PATH}/${token}`;
}
