import { availableParallelism } from 'node:os';
import { eq } from 'drizzle-orm';
import sharp, { type Sharp } from 'sharp';
import type { Database } from '../db/client.ts';
import { Unavailable } from '../server/errors.ts';
import type { FileStore } from '../server/file-store.ts';
import { type PresetName, presetSize, presets } from './presets.ts';
import { images } from './tables.ts';

// Every variant is made once and kept in the file store, so libvips' own cache of operations and
// open files (up to 50 MB, 20 files, 100 operations by default) only holds memory: after 180
// encodes of 30 pictures it left the process 140 MB larger than with the cache off.
sharp.cache(false);

export type ImageFormat = 'avif' | 'webp' | 'jpeg';

export const formatMime: Record<ImageFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
};

const extension: Record<ImageFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' };

/**
 * Encoder settings, chosen so that a cache miss of a 1200 px variant stays under ~300 ms on two
 * cores (bench/README.md): AVIF at effort 1 is ~5× faster than at 2 for ~20 % more bytes, and
 * still about 15 % smaller than WebP.
 */
const encoders: Record<ImageFormat, (image: Sharp) => Sharp> = {
  avif: (image) => image.avif({ quality: 55, effort: 1, chromaSubsampling: '4:2:0' }),
  webp: (image) => image.webp({ quality: 80, effort: 4 }),
  jpeg: (image) => image.jpeg({ quality: 80, mozjpeg: true }),
};

/**
 * Counts resizes done in this process, so tests and benchmarks can tell a hit from a miss, and how
 * many ran at once (now and at most).
 */
export const variantStats = { renders: 0, running: 0, peakRunning: 0 };

/** Resizes run at once: one per core (at most four), leaving the rest of the thread pool free. */
export const DEFAULT_RESIZES = Math.max(1, Math.min(4, availableParallelism()));
/** Misses that may wait for a resize; beyond this they answer 503 with Retry-After. */
export const DEFAULT_WAITING_RESIZES = 64;

/**
 * A bounded pool for resizes. A resize holds a thread of libuv's pool (the one file reads and
 * PGlite's disk use too) and a core for up to a few hundred milliseconds, so thirty misses at once
 * would stall every other request; here at most `maxRunning` run, `maxWaiting` more queue in
 * arrival order, and the rest are refused with `Unavailable` straight away.
 */
export class ResizePool {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly maxRunning = DEFAULT_RESIZES,
    readonly maxWaiting = DEFAULT_WAITING_RESIZES,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.maxRunning) {
      this.running++;
    } else {
      if (this.waiting.length >= this.maxWaiting) {
        throw new Unavailable('Too many images are being made. Try again shortly.', 2);
      }
      // The finishing task hands its place over, so `running` stays as it is.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/**
 * The best format the browser accepts: AVIF, then WebP, then JPEG, which every browser takes.
 * Only explicit types count: `image/*` and `*\/*` do not promise AVIF or WebP decoding.
 */
export function negotiateFormat(accept: string | undefined): ImageFormat {
  if (!accept) return 'jpeg';
  const accepted = new Set<string>();
  for (const part of accept.toLowerCase().split(',')) {
    const [type = '', ...params] = part.split(';').map((s) => s.trim());
    const q = params.find((p) => p.startsWith('q='));
    if (q && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(type);
  }
  if (accepted.has('image/avif')) return 'avif';
  if (accepted.has('image/webp')) return 'webp';
  return 'jpeg';
}

/**
 * Where a variant is kept: `images/cache/<id>/<preset>.<ext>` for an image's first revision (as
 * before revisions were counted), `images/cache/<id>/r<revision>/<preset>.<ext>` for later ones.
 */
export function variantKey(
  id: number,
  preset: PresetName,
  format: ImageFormat,
  revision = 1,
): string {
  const folder = revision > 1 ? `${id}/r${revision}` : String(id);
  return `images/cache/${folder}/${preset}.${extension[format]}`;
}

/** Every variant key an image's revision may have: what a replace or a delete takes away. */
export function variantKeysOf(id: number, revision: number): string[] {
  const keys: string[] = [];
  for (const preset of Object.keys(presets) as PresetName[]) {
    for (const format of Object.keys(extension) as ImageFormat[]) {
      keys.push(variantKey(id, preset, format, revision));
    }
  }
  return keys;
}

export interface OriginalImage {
  width: number;
  height: number;
  /** 0..1 from the left and top: the point cover crops keep. */
  focusX: number;
  focusY: number;
}

/** Resizes an original to a preset and encodes it. */
export async function renderVariant(
  original: Buffer,
  image: OriginalImage,
  preset: PresetName,
  format: ImageFormat,
): Promise<Buffer> {
  variantStats.renders++;
  variantStats.running++;
  variantStats.peakRunning = Math.max(variantStats.peakRunning, variantStats.running);
  try {
    return await encodeVariant(original, image, preset, format);
  } finally {
    variantStats.running--;
  }
}

async function encodeVariant(
  original: Buffer,
  image: OriginalImage,
  preset: PresetName,
  format: ImageFormat,
): Promise<Buffer> {
  const p = presets[preset];
  let pipeline = sharp(original, { failOn: 'error' }).autoOrient();
  if (p.fit === 'cover') {
    const height = p.height;
    // Scale to cover the box, then cut the box out around the focus point.
    const scale = Math.max(p.width / image.width, height / image.height);
    const scaledWidth = Math.max(p.width, Math.round(image.width * scale));
    const scaledHeight = Math.max(height, Math.round(image.height * scale));
    const left = clamp(
      Math.round(image.focusX * scaledWidth - p.width / 2),
      0,
      scaledWidth - p.width,
    );
    const top = clamp(
      Math.round(image.focusY * scaledHeight - height / 2),
      0,
      scaledHeight - height,
    );
    pipeline = pipeline
      .resize(scaledWidth, scaledHeight, { fit: 'fill' })
      .extract({ left, top, width: p.width, height });
  } else if (p.fit === 'contain') {
    pipeline = pipeline.resize(p.width, p.height, { fit: 'contain', background: p.background });
  } else {
    // The size the markup announced, to the pixel.
    const size = presetSize(preset, image);
    if (size.width !== image.width || size.height !== image.height) {
      pipeline = pipeline.resize(size.width, size.height, { fit: 'fill' });
    }
  }
  if (format === 'jpeg') pipeline = pipeline.flatten({ background: '#ffffff' });
  return encoders[format](pipeline).toBuffer();
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

export type VariantResult =
  | {
      status: 'ok';
      data: Buffer;
      cached: boolean;
      /** The revision the variant is of: the asked one, or the current one when it was older. */
      revision: number;
    }
  | { status: 'missing' };

/**
 * Resized variants kept in the file store under `variantKey`. A miss loads the image's row and
 * original, resizes and writes the variant; misses for the same variant that arrive while one is
 * being made wait for it instead of resizing again.
 *
 * A cache hit does not touch the database: an id and revision always mean the same pixels (a new
 * file or focus point raises the revision, decision 168), so a stored variant stays valid. A miss
 * for a revision that is no longer the image's makes (or reads) the current revision's variant
 * and says so; the route then answers without the year-long caching. Whoever replaces or deletes
 * an image deletes the old revision's variants after the commit; a variant written while that
 * happened is taken away by its writer, which looks at the revision again after writing.
 */
export class VariantCache {
  private readonly inFlight = new Map<string, Promise<VariantResult>>();

  constructor(
    private readonly db: Database,
    private readonly files: FileStore,
    private readonly pool = new ResizePool(),
  ) {}

  /** A variant already made, or undefined: reads the file store only. */
  cached(
    id: number,
    preset: PresetName,
    format: ImageFormat,
    revision = 1,
  ): Promise<Buffer | undefined> {
    return this.files.get(variantKey(id, preset, format, revision));
  }

  async get(
    id: number,
    preset: PresetName,
    format: ImageFormat,
    revision = 1,
  ): Promise<VariantResult> {
    const key = variantKey(id, preset, format, revision);
    const cached = await this.files.get(key);
    if (cached) return { status: 'ok', data: cached, cached: true, revision };
    const running = this.inFlight.get(key);
    if (running) return running;
    const work = this.make(id, preset, format, revision).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, work);
    return work;
  }

  private async make(
    id: number,
    preset: PresetName,
    format: ImageFormat,
    asked: number,
  ): Promise<VariantResult> {
    const row = await this.rowOf(id);
    if (!row) return { status: 'missing' };
    const key = variantKey(id, preset, format, row.revision);
    if (row.revision !== asked) {
      // An address of an older (or a not yet made) revision: the current picture, said so.
      const current = await this.files.get(key);
      if (current) return { status: 'ok', data: current, cached: true, revision: row.revision };
    }
    const original = await this.files.get(row.storageKey);
    if (!original) throw new Error(`image ${id}: original ${row.storageKey} is missing`);
    const data = await this.pool.run(() => renderVariant(original, row, preset, format));
    await this.files.put(key, data);
    // A replace or delete that committed while this was made may have swept the revision's
    // variants before this one was written: then it is this writer's to take away.
    const after = await this.rowOf(id);
    if (after?.revision !== row.revision) await this.files.delete(key).catch(() => undefined);
    return { status: 'ok', data, cached: false, revision: row.revision };
  }

  private async rowOf(id: number) {
    const [row] = await this.db
      .select({
        storageKey: images.storageKey,
        width: images.width,
        height: images.height,
        focusX: images.focusX,
        focusY: images.focusY,
        revision: images.revision,
      })
      .from(images)
      .where(eq(images.id, id))
      .limit(1);
    return row;
  }
}
