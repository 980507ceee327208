import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImage, createPage } from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { pageBlocks } from '../blocks.ts';

let t: TestApp;
let imageIds: number[];

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  imageIds = [(await createImage(db)).id, (await createImage(db)).id];
  await createPage(db, {
    siteId: 'jyvabroiler',
    path: '/',
    type: 'home',
    title: 'Jyväbroiler',
    translationKey: 'home',
    blocks: [
      {
        type: 'image-carousel',
        slides: [
          { imageId: imageIds[0], imgText: 'Broileriwokki <b>tulinen</b>' },
          { imageId: imageIds[1], imgText: 'Kanakeitto' },
        ],
        autoplaySeconds: 5,
      },
    ],
  });
});

afterAll(() => t.close());

describe('image-carousel block', () => {
  it('renders as a lazily hydrated island with its pictures and captions as text', async () => {
    const res = await t.app.inject({ url: '/', headers: { host: 'jyvabroiler.localhost' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('data-name="image-carousel"');
    expect(res.body).toMatch(/data-name="image-carousel" data-hydrate="visible"/);
    expect(res.body).toContain('aria-label="Kuvakaruselli"');
    for (const id of imageIds)
      expect(res.body).toMatch(new RegExp(`/images/${id}/[^"]*preset=three-by-two-crop`));
    // Captions are plain text: markup in them is shown, never run.
    expect(res.body).toContain('Broileriwokki &lt;b&gt;tulinen&lt;/b&gt;');
    expect(res.body).toContain('aria-label="2 / 2"');
  });

  it('takes 1 to 10 slides with image ids, autoplay 2 to 60 s, 5 s by default', () => {
    const parse = (block: object) => pageBlocks.safeParse([{ type: 'image-carousel', ...block }]);
    const parsed = parse({ slides: [{ imageId: 1 }] });
    expect(parsed.success).toBe(true);
    expect(parsed.data?.[0]).toEqual({
      type: 'image-carousel',
      slides: [{ imageId: 1, imgText: '' }],
      autoplaySeconds: 5,
    });
    expect(parse({ slides: [] }).success).toBe(false);
    expect(parse({ slides: Array.from({ length: 11 }, () => ({ imageId: 1 })) }).success).toBe(
      false,
    );
    expect(parse({ slides: [{ imageId: 0 }] }).success).toBe(false);
    expect(parse({ slides: [{ imageId: 1 }], autoplaySeconds: 1 }).success).toBe(false);
    expect(parse({ slides: [{ imageId: 1, imgText: 'x'.repeat(301) }] }).success).toBe(false);
  });
});
