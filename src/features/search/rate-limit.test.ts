import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';

const LIMIT = 6;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ config: { searchRateLimit: LIMIT } });
});
afterAll(() => t.close());

const ask = (url: string, remoteAddress = '203.0.113.10') =>
  t.app.inject({ url, remoteAddress, headers: { host: 'jyvabroiler.localhost' } });

describe('search requests per client', () => {
  it('share one budget across the search and facet endpoints; over it 429 problem+json', async () => {
    const urls = [
      '/api/search/suggestions/?q=kana',
      '/api/search/content/?q=kana',
      '/api/search/products?q=kana',
      '/api/search/recipes?q=kana',
      '/api/facets/groups',
      '/api/facets/custom',
      '/api/search/all-products',
      '/api/search/newsroom',
    ];
    const statuses: number[] = [];
    for (const url of urls) statuses.push((await ask(url)).statusCode);
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429, 429]);
    const refused = await ask('/api/search/content/?q=x');
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.json()).toMatchObject({ status: 429, type: '/problems/too-many-requests' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Refused before any query runs, cached by nobody.
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('keeps each client’s budget apart', async () => {
    expect((await ask('/api/search/content/?q=kana', '203.0.113.11')).statusCode).toBe(200);
  });
});
