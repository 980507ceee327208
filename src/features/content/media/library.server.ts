import { randomUUID } from 'node:crypto';
import { count, desc, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import type { Database, Transaction } from '../../../db/client.ts';
import { imageUrl } from '../../../images/presets.ts';
import { images } from '../../../images/tables.ts';
import { variantKeysOf } from '../../../images/variants.server.ts';
import { AppError, Forbidden, Invalid, NotFound } from '../../../server/errors.ts';
import { actorOf, recordAudit } from '../../staff/index.server.ts';
import { type AccessGrant, canSomewhere } from '../../staff/index.ts';
import { editableScopes } from '../publishing/routes.server.ts';
import {
  IMAGE_UPLOAD_MAX_BYTES,
  IMAGE_UPLOAD_TYPES,
  type ImageChoice,
} from '../publishing/schemas.ts';
import {
  type AltTexts,
  type ImageUse,
  MEDIA_LANGS,
  type MediaImage,
  type MediaLang,
  type MediaRow,
} from './schemas.ts';
import { mayEdit, seenUses, whereUsed } from './where-used.server.ts';

/** Pictures larger than this many pixels are refused: the image pipeline would decode them whole. */
const MAX_PIXELS = 40_000_000;
const PAGE_SIZE = 24;
/** The library screen pages as the back office's other lists do. */
const LIBRARY_PAGE_SIZE = 50;

type ImageRow = typeof images.$inferSelect;

/** Someone changed the image since the staff member saw it: 409 with the image as it is now. */
export class StaleImage extends AppError {
  constructor(current: MediaImage) {
    super(
      409,
      'stale-version',
      'Conflict',
      'Someone changed the image since it was opened. Look at it again, then make the change.',
      { current },
    );
  }
}

/**
 * The image is used somewhere (a live page or a draft): 409 with the places the staff member may
 * see and the number of the others.
 */
export class ImageInUse extends AppError {
  constructor(seen: { uses: ImageUse[]; elsewhere: number }) {
    super(
      409,
      'image-in-use',
      'Conflict',
      'The image is used. Take it out of every place first, drafts included.',
      seen,
    );
  }
}

/**
 * A picture's bytes checked as every upload is (decision 162): its real type from its bytes
 * (JPEG, PNG or WebP, whatever the data URL claims), at most 8 MiB, it decodes, and it is at most
 * 40 megapixels. Its size is of the picture turned as its orientation says.
 */
async function checkedPicture(data: string) {
  const bytes = Buffer.from(data.slice(data.indexOf(',') + 1), 'base64');
  if (bytes.length > IMAGE_UPLOAD_MAX_BYTES)
    throw new Invalid({ data: 'admin.recipe.imageTooLarge' });
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !(IMAGE_UPLOAD_TYPES as readonly string[]).includes(type.mime)) {
    throw new Invalid({ data: 'admin.recipe.imageType' });
  }
  const size = await sharp(bytes, { failOn: 'error', limitInputPixels: MAX_PIXELS })
    .metadata()
    .then((m) => {
      if (!m.width || !m.height) return undefined;
      // Orientations 5–8 turn the picture a quarter: the pipeline's crops are of the turned one.
      const turned = (m.orientation ?? 1) >= 5;
      return turned ? { width: m.height, height: m.width } : { width: m.width, height: m.height };
    })
    .catch(() => undefined);
  if (!size || size.width * size.height > MAX_PIXELS) {
    throw new Invalid({ data: 'admin.recipe.imageUnreadable' });
  }
  return { bytes, type, size };
}

/**
 * A picture uploaded by staff into the image library (decision 162), through the same pipeline
 * as every image: checked as uploads are, its original stored in the file store, a row in
 * `images` with its alt text in the site's language; the image route makes its crops from it.
 * The row and the audit row are one transaction; a failed insert takes the stored file away again.
 */
export async function uploadImage(
  request: FastifyRequest,
  scope: { siteId: string; lang: 'fi' | 'sv' | 'en' },
  upload: { data: string; alt: string },
): Promise<ImageChoice> {
  const { bytes, type, size } = await checkedPicture(upload.data);
  upload.data = '';
  const storageKey = `images/uploads/${randomUUID()}.${type.ext}`;
  const files = request.server.files;
  await files.put(storageKey, bytes);
  try {
    return await request.server.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(images)
        .values({ storageKey, mime: type.mime, ...size, alt: { [scope.lang]: upload.alt } })
        .returning({ id: images.id });
      if (!row) throw new Error('image insert returned no row');
      await recordAudit(tx, actorOf(request), {
        action: 'content.image.upload',
        subjectType: 'image',
        subjectId: String(row.id),
        siteId: scope.siteId,
        lang: scope.lang,
        changes: {
          alt: { after: upload.alt },
          mime: { after: type.mime },
          bytes: { after: bytes.length },
        },
      });
      return {
        id: row.id,
        alt: upload.alt,
        width: size.width,
        height: size.height,
        thumbUrl: imageUrl({ id: row.id, slug: upload.alt }, 'thumbnail-medium'),
      };
    });
  } catch (error) {
    await files.delete(storageKey).catch(() => undefined);
    throw error;
  }
}

const escapeLike = (q: string) => `%${q.replace(/[%_\\]/g, '\\$&')}%`;

/** The image library for choosing a picture: by its alt text in a language, newest first. */
export async function listImages(
  request: FastifyRequest,
  query: { q?: string | undefined; lang: 'fi' | 'sv' | 'en'; offset: number },
) {
  const db = request.server.db;
  const alt = sql<string>`coalesce(${images.alt}->>${query.lang}, ${images.alt}->>'fi', '')`;
  const where = query.q ? sql`${alt} ilike ${escapeLike(query.q)}` : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: images.id,
        alt,
        width: images.width,
        height: images.height,
        revision: images.revision,
      })
      .from(images)
      .where(where)
      .orderBy(desc(images.id))
      .limit(PAGE_SIZE)
      .offset(query.offset),
    db.select({ n: count() }).from(images).where(where),
  ]);
  return {
    images: rows.map(({ revision, ...r }) => ({
      ...r,
      thumbUrl: imageUrl({ id: r.id, slug: r.alt, revision }, 'thumbnail-medium'),
    })),
    total: Number(total?.n ?? 0),
  };
}

const slugOf = (row: Pick<ImageRow, 'alt'>) => row.alt.fi ?? row.alt.sv ?? row.alt.en ?? '';

function rowOf(row: ImageRow): MediaRow {
  return {
    id: row.id,
    alt: row.alt,
    width: row.width,
    height: row.height,
    thumbUrl: imageUrl(
      { id: row.id, slug: slugOf(row), revision: row.revision },
      'thumbnail-medium',
    ),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The library (decision 168): every image, searched by its alt text in any language, newest first. */
export async function listLibrary(
  request: FastifyRequest,
  query: { q?: string | undefined; offset: number },
) {
  const db = request.server.db;
  const alt = sql`concat_ws(' ', ${images.alt}->>'fi', ${images.alt}->>'sv', ${images.alt}->>'en')`;
  const where = query.q ? sql`${alt} ilike ${escapeLike(query.q)}` : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(images)
      .where(where)
      .orderBy(desc(images.id))
      .limit(LIBRARY_PAGE_SIZE)
      .offset(query.offset),
    db.select({ n: count() }).from(images).where(where),
  ]);
  return {
    images: rows.map(rowOf),
    total: Number(total?.n ?? 0),
    pageSize: LIBRARY_PAGE_SIZE,
    scopes: editableScopes(grantsOf(request)),
  };
}

async function readImage(db: Database | Transaction, id: number, lock = false) {
  const query = db.select().from(images).where(eq(images.id, id));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new NotFound('No such image.');
  return row;
}

function imageOf(row: ImageRow, uses: ImageUse[], grants: readonly AccessGrant[]): MediaImage {
  const ref = { id: row.id, slug: slugOf(row), revision: row.revision };
  return {
    ...rowOf(row),
    mime: row.mime,
    focus: { x: row.focusX, y: row.focusY },
    version: row.version,
    revision: row.revision,
    updatedAt: row.updatedAt.toISOString(),
    previewUrl: imageUrl(ref, 'medium'),
    cropUrl: imageUrl(ref, 'card-wide'),
    ...seenUses(grants, uses),
  };
}

const grantsOf = (request: FastifyRequest) => request.staff?.grants ?? [];

/** An image with every place it is used. */
export async function openImage(request: FastifyRequest, id: number): Promise<MediaImage> {
  const db = request.server.db;
  const row = await readImage(db, id);
  return imageOf(row, await whereUsed(db, id), grantsOf(request));
}

/** Whether some grant gives `content.edit` for the language, on any site. */
function mayEditLanguage(grants: readonly AccessGrant[], lang: MediaLang): boolean {
  return grants.some(
    (g) => g.permissions.includes('content.edit') && (g.langs === null || g.langs.includes(lang)),
  );
}

/**
 * An image shows on every place that uses it: changing it (alt texts, focus point, file) or
 * deleting it needs `content.edit` for each place's site and language (live or draft), and
 * somewhere at all (decision 168).
 */
function assertMayChange(grants: readonly AccessGrant[], uses: ImageUse[]): void {
  if (!canSomewhere(grants, 'content.edit')) throw new Forbidden();
  if (uses.some((use) => !mayEdit(grants, use))) {
    throw new Forbidden('The image is used where you may not edit content: ask someone who may.');
  }
}

/**
 * The check of a route about one image, before its body is read (as a recipe's route checks the
 * recipe's site and language): 403 when the image is used where the staff member may not edit.
 * Checked again in the change's transaction, where the row is locked.
 */
export async function assertMayChangeImage(request: FastifyRequest, id: number): Promise<void> {
  assertMayChange(grantsOf(request), await whereUsed(request.server.db, id));
}

/**
 * Changes an image's alt texts and focus point (decision 168), on the version the staff member
 * saw (409 with the image as it is now otherwise). Like every change of an image it needs
 * `content.edit` wherever the image is used; an alt text also needs it for its language (on some
 * site, for an image nothing uses yet). A new focus point is a new revision: new crop addresses.
 * One transaction with the audit row; a change that changes nothing writes nothing.
 */
export async function editImage(
  request: FastifyRequest,
  id: number,
  body: {
    version: number;
    alt?: AltTexts | undefined;
    focus?: { x: number; y: number } | undefined;
  },
): Promise<MediaImage> {
  const grants = grantsOf(request);
  const swept = await request.server.db.transaction(async (tx) => {
    const row = await readImage(tx, id, true);
    const uses = await whereUsed(tx, id);
    if (row.version !== body.version) throw new StaleImage(imageOf(row, uses, grants));
    assertMayChange(grants, uses);
    const changes: Record<string, { before: unknown; after: unknown }> = {};
    const alt: Partial<Record<MediaLang, string>> = { ...row.alt };
    for (const lang of MEDIA_LANGS) {
      const text = body.alt?.[lang];
      if (text === undefined || text === (row.alt[lang] ?? '')) continue;
      if (!mayEditLanguage(grants, lang)) {
        throw new Forbidden(`You may not edit content in language ${lang}.`);
      }
      changes[`alt.${lang}`] = { before: row.alt[lang] ?? null, after: text || null };
      if (text) alt[lang] = text;
      else delete alt[lang];
    }
    const focus = body.focus;
    const moved = focus !== undefined && (focus.x !== row.focusX || focus.y !== row.focusY);
    if (moved) {
      changes.focus = { before: { x: row.focusX, y: row.focusY }, after: focus };
    }
    if (Object.keys(changes).length === 0) return undefined;
    await tx
      .update(images)
      .set({
        alt,
        ...(moved ? { focusX: focus.x, focusY: focus.y, revision: row.revision + 1 } : {}),
        version: row.version + 1,
        updatedAt: new Date(),
      })
      .where(eq(images.id, id));
    await recordAudit(tx, actorOf(request), {
      action: 'content.image.edit',
      subjectType: 'image',
      subjectId: String(id),
      changes,
    });
    return moved ? row.revision : undefined;
  });
  if (swept !== undefined) await sweepVariants(request, id, swept);
  return openImage(request, id);
}

/** Takes a revision's crops out of the file store (after the commit that left them behind). */
async function sweepVariants(request: FastifyRequest, id: number, revision: number) {
  const files = request.server.files;
  await Promise.all(
    variantKeysOf(id, revision).map((key) => files.delete(key).catch(() => undefined)),
  );
}

/**
 * A new file for an image (decision 168): every place that shows the image shows the new
 * picture. Checked as an upload is; its original stored under a new key, the row pointed at it
 * with a new revision (new crop addresses; a content change, so cached pages are made again),
 * one transaction with the audit row. After the commit the old original and crops are deleted;
 * when the transaction fails, the new original is.
 */
export async function replaceImage(
  request: FastifyRequest,
  id: number,
  body: { version: number; data: string },
): Promise<MediaImage> {
  const grants = grantsOf(request);
  const { bytes, type, size } = await checkedPicture(body.data);
  body.data = '';
  const storageKey = `images/uploads/${randomUUID()}.${type.ext}`;
  const files = request.server.files;
  await files.put(storageKey, bytes);
  let old: ImageRow;
  try {
    old = await request.server.db.transaction(async (tx) => {
      const row = await readImage(tx, id, true);
      const uses = await whereUsed(tx, id);
      if (row.version !== body.version) throw new StaleImage(imageOf(row, uses, grants));
      assertMayChange(grants, uses);
      await tx
        .update(images)
        .set({
          storageKey,
          mime: type.mime,
          ...size,
          version: row.version + 1,
          revision: row.revision + 1,
          updatedAt: new Date(),
        })
        .where(eq(images.id, id));
      await recordAudit(tx, actorOf(request), {
        action: 'content.image.replace',
        subjectType: 'image',
        subjectId: String(id),
        changes: {
          file: { before: row.storageKey, after: storageKey },
          mime: { before: row.mime, after: type.mime },
          size: {
            before: { width: row.width, height: row.height },
            after: size,
          },
          bytes: { after: bytes.length },
        },
      });
      return row;
    });
  } catch (error) {
    await files.delete(storageKey).catch(() => undefined);
    throw error;
  }
  await files.delete(old.storageKey).catch(() => undefined);
  await sweepVariants(request, id, old.revision);
  return openImage(request, id);
}

/**
 * Deletes an image nothing uses (decision 168): on the version the staff member saw, and refused
 * (409 with every place) while a live row or a draft uses it. The row is locked while the uses
 * are looked for; a save naming the image waits for the lock (`existingImages`) and then finds it
 * gone. One transaction with the audit row; the original and its crops leave the file store
 * after the commit.
 */
export async function deleteImage(request: FastifyRequest, id: number, version: number) {
  const grants = grantsOf(request);
  const row = await request.server.db.transaction(async (tx) => {
    const row = await readImage(tx, id, true);
    const uses = await whereUsed(tx, id);
    if (row.version !== version) throw new StaleImage(imageOf(row, uses, grants));
    assertMayChange(grants, uses);
    if (uses.length > 0) throw new ImageInUse(seenUses(grants, uses));
    await tx.delete(images).where(eq(images.id, id));
    await recordAudit(tx, actorOf(request), {
      action: 'content.image.delete',
      subjectType: 'image',
      subjectId: String(id),
      changes: {
        alt: { before: row.alt, after: null },
        file: { before: row.storageKey, after: null },
      },
    });
    return row;
  });
  const files = request.server.files;
  await files.delete(row.storageKey).catch(() => undefined);
  // Earlier revisions' crops were taken away when the revision changed.
  await sweepVariants(request, id, row.revision);
  return { deleted: id };
}
