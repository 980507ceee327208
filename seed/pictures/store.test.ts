import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images } from '../../src/images/tables.ts';
import { createTestApp, type TestApp } from '../../tests/helpers/app.ts';
import { generatedImageKey, storeGeneratedImage } from './store.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(() => t.close());

describe('storeGeneratedImage', () => {
  it('keeps the original in the file store and its row in images', async () => {
    const ctx = { db: t.app.db, files: t.app.files };
    const id = await storeGeneratedImage(ctx, {
      kind: 'product',
      seed: 'grillimakkara-400',
      title: 'Grillimakkara 400 g',
      alt: { fi: 'Grillimakkarapakkaus', en: 'A pack of grill sausages' },
    });
    const [row] = await t.app.db.select().from(images).where(eq(images.id, id));
    expect(row).toMatchObject({
      storageKey: generatedImageKey('product', 'grillimakkara-400'),
      mime: 'image/jpeg',
      width: 1200,
      height: 1200,
      alt: { fi: 'Grillimakkarapakkaus', en: 'A pack of grill sausages' },
    });
    const original = await t.app.files.get(row?.storageKey ?? '');
    expect(original).toBeDefined();
    const meta = await sharp(original).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 1200, height: 1200 });
  });

  it('is idempotent: the same kind and seed give the same id and one row', async () => {
    const ctx = { db: t.app.db, files: t.app.files };
    const spec = {
      kind: 'recipe' as const,
      seed: 'jauhelihakastike',
      alt: { fi: 'Jauhelihakastike' },
    };
    const first = await storeGeneratedImage(ctx, spec);
    const second = await storeGeneratedImage(ctx, spec);
    expect(second).toBe(first);
    const rows = await t.app.db
      .select()
      .from(images)
      .where(eq(images.storageKey, generatedImageKey('recipe', 'jauhelihakastike')));
    expect(rows).toHaveLength(1);
  });

  it('gives the same id when two callers store the same image at once', async () => {
    const ctx = { db: t.app.db, files: t.app.files };
    const spec = { kind: 'card' as const, seed: 'together', alt: {} };
    const [a, b] = await Promise.all([
      storeGeneratedImage(ctx, spec),
      storeGeneratedImage(ctx, spec),
    ]);
    expect(a).toBe(b);
  });

  it('stores different seeds under different keys', async () => {
    expect(generatedImageKey('news', 'a')).not.toBe(generatedImageKey('news', 'b'));
    expect(generatedImageKey('news', 'a')).not.toBe(generatedImageKey('card', 'a'));
    expect(generatedImageKey('hero', 'x')).toMatch(/^images\/originals\/hero\/[0-9a-f]{24}\.jpg$/);
  });
});
