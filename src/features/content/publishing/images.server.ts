import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { imageUrl } from '../../../images/presets.ts';
import { images } from '../../../images/tables.ts';
import { Invalid } from '../../../server/errors.ts';
import { actorOf, recordAudit } from '../../staff/index.server.ts';
import { IMAGE_UPLOAD_MAX_BYTES, IMAGE_UPLOAD_TYPES, type ImageChoice } from './schemas.ts';

/** Pictures larger than this many pixels are refused: the image pipeline would decode them whole. */
const MAX_PIXELS = 40_000_000;

/**
 * A picture uploaded by staff into the image library (decision 162), through the same pipeline
 * as every image: checked as uploads are (its real type from its bytes, its size, that it
 * decodes), its original stored in the file store, a row in `images` with its alt text in the
 * site's language; the image route makes its crops from it. The row and the audit row are one
 * transaction; a failed insert takes the stored file away again.
 */
export async function uploadImage(
  request: FastifyRequest,
  scope: { siteId: string; lang: 'fi' | 'sv' | 'en' },
  upload: { data: string; alt: string },
): Promise<ImageChoice> {
  const bytes = Buffer.from(upload.data.slice(upload.data.indexOf(',') + 1), 'base64');
  upload.data = '';
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
