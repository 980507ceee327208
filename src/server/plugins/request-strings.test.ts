import { PassThrough } from 'node:stream';
import { DrizzleQueryError, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPage, createProduct } from '../../../tests/factories/content.ts';
import {
  cookieHeader,
  cookieValue,
  createTestApp,
  type TestApp,
} from '../../../tests/helpers/app.ts';
import {
  dataUrl,
  png,
  testFormsConfig,
  validPayload,
} from '../../features/forms/forms.test-support.ts';
import { forms } from '../../features/forms/forms.ts';
import { CART_API } from '../../features/shop/schemas.ts';
import { serializeError } from '../log.ts';
import { nulFieldOf } from './request-strings.ts';

const MARKER = 'nulmarker';
let t: TestApp;
const logLines: string[] = [];
let headers: Record<string, string> = {};

beforeAll(async () => {
  const logStream = new PassThrough();
  logStream.on('data', (chunk) => logLines.push(...String(chunk).split('\n').filter(Boolean)));
  t = await createTestApp({ config: { forms: testFormsConfig() }, logStream });
  const db = t.app.db;
  await createPage(db, { siteId: 'jyvabroiler', path: '/haku', type: 'search', title: 'Haku' });
  await createPage(db, {
    siteId: 'jyvabroiler',
    path: '/tuotteet',
    type: 'content',
    title: 'Tuotteet',
    settings: { widget: 'product-search' },
  });
  await createProduct(db, {
    siteId: 'lihakauppa',
    kind: 'shop-product',
    path: '/tuotteet/pihvi',
    code: '5300001',
    priceCents: 990,
  });
  const page = await t.app.inject({ url: '/', headers: { host: 'lihakauppa.localhost' } });
  headers = {
    host: 'lihakauppa.localhost',
    cookie: cookieHeader(page),
    'x-xsrf-token': cookieValue(page, 'XSRF-TOKEN') ?? '',
  };
});
afterAll(() => t.close());

async function storedRows() {
  const result = (await t.app.db.execute(
    sql`select (select count(*)::int from sessions) as sessions,
               (select count(*)::int from cart_line_items) as lines,
               (select count(*)::int from form_submissions) as submissions`,
  )) as unknown as { rows: Record<string, number>[] };
  return result.rows[0];
}

function expectRefused(
  res: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  field: string,
) {
  expect(res.statusCode).toBe(400);
  expect(res.headers['content-type']).toContain('application/problem+json');
  expect(res.json()).toMatchObject({
    type: '/problems/validation',
    status: 400,
    errors: { [field]: 'validation.invalid' },
  });
}

describe('a NUL character in a request string', () => {
  it.each([
    ['/api/search/content/?q=a%00b', 'q'],
    [`/api/search/content/?q=${MARKER}%00`, 'q'],
    ['/api/search/suggestions/?q=kana%00', 'q'],
    ['/api/search/products?productGroup=%00', 'productGroup'],
    ['/api/search/products?authors=x%00', 'authors'],
    ['/api/search/newsroom?authors[]=ok&authors[]=x%00', 'authors'],
    ['/api/search/recipes?searchEquipments[0]=%00pannu', 'searchEquipments'],
    ['/api/search/lihakauppa-products?q=ok&facetTags=1%002', 'facetTags'],
    // The query parser keeps `%zz%00` undecoded; the search pages' URLSearchParams would not.
    ['/api/search/content/?q=a%zz%00', 'q'],
    ['/api/search/all-products?language=fi%00', 'language'],
    ['/api/facets/recipetags?recipeSearchBlockId=1%00', 'recipeSearchBlockId'],
    ['/api/nav/desktop?languageId=%00', 'languageId'],
    ['/api/filtered-cards/1%00/recipeCard', 'path'],
    [`${CART_API}/load?language=%00`, 'language'],
    ['/api/search/content/?%00=1', '_query'],
  ])('%s answers 400 naming %s', async (url, field) => {
    const res = await t.app.inject({ url, headers: { host: 'jyvabroiler.localhost' } });
    expectRefused(res, field);
  });

  it('refuses a cart change with a NUL in its code, storing nothing', async () => {
    const before = await storedRows();
    const res = await t.app.inject({
      method: 'POST',
      url: `${CART_API}/add?code=5300001%00&quantity=1&language=fi`,
      headers,
    });
    expectRefused(res, 'code');
    expect(await storedRows()).toEqual(before);
  });

  it('refuses an upload whose file name holds a NUL, storing nothing', async () => {
    const before = await storedRows();
    const payload = await validPayload('complaint');
    payload.Files = [{ Name: 'kuva\u0000.png', Data: dataUrl('image/png', await png()) }];
    const res = await t.app.inject({
      method: 'POST',
      url: forms.complaint.path,
      headers: { ...headers, host: 'localhost', 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
    expectRefused(res, 'Files.0.Name');
    expect(res.json()).toMatchObject({ isSuccess: false });
    expect(await storedRows()).toEqual(before);
  });

  it('refuses a NUL in a form field and in a JSON key', async () => {
    const payload = await validPayload('feedback');
    (payload.Data as Record<string, unknown>).Message = 'Hyvää\u0000';
    const field = await t.app.inject({
      method: 'POST',
      url: forms.feedback.path,
      headers: { ...headers, host: 'localhost', 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
    expectRefused(field, 'Data.Message');
    const key = await t.app.inject({
      method: 'POST',
      url: forms.feedback.path,
      headers: { ...headers, host: 'localhost', 'content-type': 'application/json' },
      payload: JSON.stringify({ Data: { 'x\u0000': 1 } }),
    });
    expectRefused(key, 'Data');
  });

  it.each([
    '/haku?q=kana%00',
    '/haku?q=a%zz%00',
    '/tuotteet?q=%00',
    '/tuotteet?facetTags=1&q=x%00',
  ])('answers the search page %s with the 400 page, not 500', async (url) => {
    const res = await t.app.inject({ url, headers: { host: 'jyvabroiler.localhost' } });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('Virheellinen osoite');
    expect(res.body).toContain('data-site="jyvabroiler"');
  });

  it('still searches ordinary text, and the search pages still answer', async () => {
    const api = await t.app.inject({
      url: '/api/search/content/?q=kana%25zz',
      headers: { host: 'jyvabroiler.localhost' },
    });
    expect(api.statusCode).toBe(200);
    const page = await t.app.inject({
      url: '/haku?q=kana',
      headers: { host: 'jyvabroiler.localhost' },
    });
    expect(page.statusCode).toBe(200);
  });

  it('leaves no error and no query in the log', () => {
    expect(logLines.filter((line) => line.includes('"level":50'))).toEqual([]);
    expect(logLines.filter((line) => line.includes(MARKER))).toEqual([]);
  });
});

describe('nulFieldOf', () => {
  it('names the dotted path of the first string holding a NUL', () => {
    expect(nulFieldOf({ a: 'x', b: [{ c: 'ok' }, { c: 'n\u0000' }] })).toBe('b.1.c');
    expect(nulFieldOf('\u0000')).toBe('_');
    expect(nulFieldOf({ a: ['x', 1, null, true] })).toBeUndefined();
  });

  it('walks a deeply nested body without overflowing the stack', () => {
    let body: unknown = 'end\u0000';
    for (let i = 0; i < 100_000; i++) body = [body];
    expect(nulFieldOf(body)).toMatch(/^0(\.0)+$/);
  });
});

describe('the error log of a failed query', () => {
  it('keeps the SQL and the database’s message but not the bound values', () => {
    const cause = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: '22021',
      detail: `value ${MARKER}`,
      where: `unnamed portal parameter $1 = '${MARKER}'`,
    });
    const error = new DrizzleQueryError(
      'select * from search_documents where title = $1',
      [`${MARKER}\u0000`],
      cause,
    );
    const logged = JSON.stringify(serializeError(error));
    expect(logged).not.toContain(MARKER);
    expect(logged).toContain('select * from search_documents');
    expect(logged).toContain('22021');
    expect(logged).toContain('invalid byte sequence');
    expect(logged).toContain('request-strings.test.ts');
  });
});
