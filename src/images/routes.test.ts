import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedImageKey, storeGeneratedImage } from '../../seed/pictures/store.ts';
import { createTestApp, type TestApp } from '../../tests/helpers/app.ts';
import { Unavailable } from '../server/errors.ts';
import { imageUrl, type PresetName, presetNames, presetSize } from './presets.ts';
import { DEFAULT_RESIZES, ResizePool, variantKey, variantStats } from './variants.server.ts';

let t: TestApp;
const originals: Record<'recipe' | 'person', { id: number; width: number; height: number }> = {
  recipe: { id: 0, width: 1600, height: 1200 },
  person: { id: 0, width: 900, height: 1200 },
};
let productId = 0;

const CHROME_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';

function get(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ url, headers });
}

beforeAll(async () => {
  t = await createTestApp();
  const ctx = { db: t.app.db, files: t.app.files };
  originals.recipe.id = await storeGeneratedImage(ctx, {
    kind: 'recipe',
    seed: 'routes-recipe',
    alt: { fi: 'Lautasellinen ruokaa' },
  });
  originals.person.id = await storeGeneratedImage(ctx, {
    kind: 'person',
    seed: 'routes-person',
    alt: {},
  });
  productId = await storeGeneratedImage(ctx, {
    kind: 'product',
    seed: 'routes-product',
    title: 'Grillimakkara 400 g',
    alt: {},
  });
});

afterAll(() => t.close());

describe('presets', () => {
  const cases = presetNames.flatMap((preset) =>
    (['recipe', 'person'] as const).map((kind) => [preset, kind] as const),
  );

  it.each(cases)('%s of a %s answers with the preset’s size', async (preset, kind) => {
    const original = originals[kind];
    const res = await get(imageUrl(original, preset));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(res.rawPayload).metadata();
    expect({ width: meta.width, height: meta.height }).toEqual(presetSize(preset, original));
  });

  it('answers without a preset with the default preset', async () => {
    const res = await get(`/images/${originals.recipe.id}/anything`);
    expect(res.statusCode).toBe(200);
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta.width).toBe(1200);
    expect(meta.height).toBe(900);
  });

  it('pads a product thumbnail to its square on white', async () => {
    const res = await get(imageUrl({ id: productId }, 'product-thumbnail-medium'));
    const { data, info } = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([160, 160]);
    // The top-left pixel is the original's light background, not a crop of the pack.
    expect(Math.min(data[0] ?? 0, data[1] ?? 0, data[2] ?? 0)).toBeGreaterThan(230);
  });
});

describe('formats', () => {
  it.each([
    [CHROME_ACCEPT, 'image/avif', 'heif'],
    ['image/webp,*/*', 'image/webp', 'webp'],
    ['image/avif;q=0,image/webp', 'image/webp', 'webp'],
    ['image/*,*/*;q=0.8', 'image/jpeg', 'jpeg'],
    ['', 'image/jpeg', 'jpeg'],
  ])('Accept %j gets %s', async (accept, mime, format) => {
    const res = await get(imageUrl(originals.recipe, 'third'), accept ? { accept } : {});
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(mime);
    expect(res.headers.vary).toMatch(/\bAccept\b/i);
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta.format).toBe(format);
    expect([meta.width, meta.height]).toEqual([600, 400]);
  });

  it('may be cached for a year, carries no cookies and no session', async () => {
    const res = await get(imageUrl(originals.recipe, 'small'), { accept: CHROME_ACCEPT });
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers.etag).toBe(`"${originals.recipe.id}-small-avif"`);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const url = imageUrl(originals.recipe, 'small');
    const first = await get(url);
    const again = await get(url, { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.vary).toMatch(/\bAccept\b/i);
  });
});

describe('cache', () => {
  it('serves a repeated request from the cache without resizing again', async () => {
    const url = imageUrl(originals.person, 'card-wide');
    const before = variantStats.renders;
    const first = await get(url, { accept: 'image/webp' });
    expect(first.headers['x-image-cache']).toBe('miss');
    expect(variantStats.renders).toBe(before + 1);
    expect(await t.app.files.exists(variantKey(originals.person.id, 'card-wide', 'webp'))).toBe(
      true,
    );

    const second = await get(url, { accept: 'image/webp' });
    expect(second.headers['x-image-cache']).toBe('hit');
    expect(variantStats.renders).toBe(before + 1);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it('resizes once for concurrent misses of the same variant', async () => {
    const url = imageUrl(originals.recipe, 'card-xtra-tall');
    const before = variantStats.renders;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => get(url, { accept: CHROME_ACCEPT })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(variantStats.renders).toBe(before + 1);
  });

  it('keeps serving a cached variant without the original; a new variant then fails as problem+json', async () => {
    const ctx = { db: t.app.db, files: t.app.files };
    const id = await storeGeneratedImage(ctx, { kind: 'card', seed: 'routes-cache', alt: {} });
    const url = imageUrl({ id }, 'card-square');
    expect((await get(url)).statusCode).toBe(200);
    await t.app.files.delete(generatedImageKey('card', 'routes-cache'));

    const cached = await get(url);
    expect(cached.statusCode).toBe(200);
    expect(cached.headers['x-image-cache']).toBe('hit');

    const fresh = await get(imageUrl({ id }, 'card-tall'));
    expect(fresh.statusCode).toBe(500);
    expect(fresh.headers['content-type']).toContain('application/problem+json');
    expect(fresh.body).not.toContain('images/originals');
  });
});

describe('errors', () => {
  it('answers an unknown preset with 400 problem+json', async () => {
    const res = await get(`/images/${originals.recipe.id}/x.jpg?preset=enormous`);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({
      status: 400,
      type: '/problems/validation',
      errors: { preset: 'validation.invalid' },
    });
  });

  it.each([
    ['an unknown id', '/images/987654/x.jpg'],
    ['a non-numeric id', '/images/abc/x.jpg'],
    ['a bad file name', '/images/1/..%2Fsecret'],
  ])('answers %s with a small 404 problem+json, not a page', async (_, url) => {
    const res = await get(url, { host: 'sibylla.localhost' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).not.toContain('<html');
    expect(res.body.length).toBeLessThan(300);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('one URL per picture', () => {
  it.each([
    ['hexadecimal', (id: number) => `0x${id.toString(16)}`],
    ['an exponent', (id: number) => `${id / 10}e1`],
    ['a leading zero', (id: number) => `0${id}`],
    ['a plus sign', (id: number) => `+${id}`],
    ['a decimal point', (id: number) => `${id}.0`],
    ['a space', (id: number) => `%20${id}`],
  ])('refuses an id written with %s', async (_name, write) => {
    const { id } = originals.recipe;
    const canonical = await get(`/images/${id}/x.jpg`);
    expect(canonical.statusCode).toBe(200);
    const other = await get(`/images/${write(id)}/x.jpg`);
    expect(other.statusCode).toBe(404);
    expect(other.headers['content-type']).toContain('application/problem+json');
  });
});

describe('resizes at once', () => {
  it('runs at most the pool’s number of resizes at once, however many misses arrive', async () => {
    const ctx = { db: t.app.db, files: t.app.files };
    const id = await storeGeneratedImage(ctx, { kind: 'recipe', seed: 'routes-pool', alt: {} });
    const before = variantStats.renders;
    variantStats.peakRunning = 0;
    const misses = presetNames.flatMap((preset) =>
      ['image/webp', 'image/*'].map((accept) => get(imageUrl({ id }, preset), { accept })),
    );
    const answers = await Promise.all(misses);
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(variantStats.renders - before).toBe(misses.length);
    expect(variantStats.peakRunning).toBeGreaterThan(0);
    expect(variantStats.peakRunning).toBeLessThanOrEqual(DEFAULT_RESIZES);
  });

  it('refuses what the queue cannot hold with 503, and runs the rest in turn', async () => {
    const pool = new ResizePool(1, 2);
    let running = 0;
    let peak = 0;
    const task = () =>
      pool.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
        return 'done';
      });
    const results = await Promise.allSettled([task(), task(), task(), task(), task()]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
    ]);
    const refused = results[3] as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(Unavailable);
    expect(peak).toBe(1);
    // Once the queue has drained, the pool takes work again.
    await expect(task()).resolves.toBe('done');
  });
});

describe('limits per client', () => {
  const LIMIT = 5;
  let limited: TestApp;
  let cachedUrl = '';

  beforeAll(async () => {
    limited = await createTestApp({ config: { imageMissRateLimit: LIMIT } });
    const ctx = { db: limited.app.db, files: limited.app.files };
    const id = await storeGeneratedImage(ctx, { kind: 'card', seed: 'routes-limit', alt: {} });
    cachedUrl = imageUrl({ id }, 'small');
  });
  afterAll(() => limited?.close());

  const fetchFrom = (url: string, remoteAddress = '203.0.113.1') =>
    limited.app.inject({ url, remoteAddress });

  it('counts cache misses, answering 429 problem+json over the limit, and never hits', async () => {
    // The first request of the cached picture is itself a miss.
    expect((await fetchFrom(cachedUrl)).statusCode).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      statuses.push((await fetchFrom(`/images/${900_000 + i}/x.jpg`)).statusCode);
    }
    expect(statuses).toEqual([404, 404, 404, 404, 429, 429, 429]);
    const refused = await fetchFrom('/images/900100/x.jpg');
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.json()).toMatchObject({ status: 429, type: '/problems/too-many-requests' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Hits still answer, for this client too.
    for (let i = 0; i < LIMIT + 2; i++) {
      const hit = await fetchFrom(cachedUrl);
      expect(hit.statusCode).toBe(200);
      expect(hit.headers['x-image-cache']).toBe('hit');
    }
    // Another client has its own budget.
    expect((await fetchFrom('/images/900200/x.jpg', '203.0.113.2')).statusCode).toBe(404);
  });
});

describe('imageUrl', () => {
  it('names the preset and a cosmetic slug; an unknown preset falls back to default', () => {
    expect(imageUrl({ id: 7, slug: 'Grillimakkara 400 g' }, 'third')).toBe(
      '/images/7/grillimakkara-400-g.jpg?preset=third',
    );
    expect(imageUrl({ id: 7 }, 'no-such-preset' as PresetName)).toBe(
      '/images/7/image.jpg?preset=default',
    );
  });
});
