import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';
import { images } from '../../src/images/tables.ts';
import type { FileStore } from '../../src/server/file-store.ts';
import { generateImage, type ImageKind, imageSizes } from './generate.ts';

export type { ImageKind } from './generate.ts';
export { imageKinds } from './generate.ts';

export type ImageAlt = Partial<Record<'fi' | 'sv' | 'en', string>>;

/** Where the original of a generated image lives in the file store. */
export function generatedImageKey(kind: ImageKind, seed: string): string {
  const hash = createHash('sha256').update(`${kind}\0${seed}`).digest('hex').slice(0, 24);
  return `images/originals/${kind}/${hash}.jpg`;
}

/**
 * Draws a demo image, keeps the original in the file store and its row in `images`, and returns
 * the row's id. Idempotent: for a kind and seed already stored it returns the existing id without
 * drawing again (the row's alt text is left as it was).
 */
export async function storeGeneratedImage(
  ctx: { db: Database; files: FileStore },
  spec: { kind: ImageKind; seed: string; title?: string; alt: ImageAlt },
): Promise<number> {
  const storageKey = generatedImageKey(spec.kind, spec.seed);
  // Two callers storing the same image at once share one piece of work.
  let running = inFlight.get(ctx.db);
  if (!running) {
    running = new Map();
    inFlight.set(ctx.db, running);
  }
  const pending = running.get(storageKey);
  if (pending) return pending;
  const work = store(ctx, spec, storageKey).finally(() => running.delete(storageKey));
  running.set(storageKey, work);
  return work;
}

const inFlight = new WeakMap<Database, Map<string, Promise<number>>>();

async function store(
  ctx: { db: Database; files: FileStore },
  spec: { kind: ImageKind; seed: string; title?: string; alt: ImageAlt },
  storageKey: string,
): Promise<number> {
  const existing = await findByKey(ctx.db, storageKey);
  if (existing !== undefined) return existing;

  const image = await generateImage(spec);
  await ctx.files.put(storageKey, image.data);
  const size = imageSizes[spec.kind];
  const inserted = await ctx.db
    .insert(images)
    .values({
      storageKey,
      mime: image.mime,
      width: size.width,
      height: size.height,
      alt: spec.alt,
      focusX: image.focus.x,
      focusY: image.focus.y,
    })
    .onConflictDoNothing({ target: images.storageKey })
    .returning({ id: images.id });
  const id = inserted[0]?.id ?? (await findByKey(ctx.db, storageKey));
  if (id === undefined) throw new Error(`image ${storageKey} was neither inserted nor found`);
  return id;
}

async function findByKey(db: Database, storageKey: string): Promise<number | undefined> {
  const rows = await db
    .select({ id: images.id })
    .from(images)
    .where(eq(images.storageKey, storageKey))
    .limit(1);
  return rows[0]?.id;
}
