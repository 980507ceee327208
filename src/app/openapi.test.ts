import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/helpers/app.ts';
import { OPENAPI_PATH } from '../server/plugins/openapi.ts';

interface Operation {
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  security?: Record<string, string[]>[];
}
interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

let t: TestApp;
let document: Document;

beforeAll(async () => {
  t = await createTestApp({
    extend(app) {
      // Two routes the document check must catch: one left out, one without declared answers.
      app.get('/api/test/hidden', { schema: { hide: true } }, async () => ({ ok: true }));
      app.post('/api/test/bare', async () => ({ ok: true }));
    },
  });
  document = (await t.app.inject(OPENAPI_PATH)).json();
});

afterAll(() => t.close());

/** `GET /api/x/{id}` for every route registered under /api (HEAD routes are Fastify's own). */
function registeredApiOperations(app: FastifyInstance): string[] {
  const operations: string[] = [];
  // A route whose path extends another's (`/delivery` and `/delivery-availability`) is printed as
  // the other's child with only the rest of its path: join it to its parent's by indentation.
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^(.*?)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!match?.[2]) continue;
    const depth = Math.floor((match[1] ?? '').length / 4);
    const full = (depth > 0 ? (parents[depth - 1] ?? '') : '') + match[2];
    parents[depth] = full;
    parents.length = depth + 1;
    if (!match[3]) continue;
    const path = full.replace(/:(\w+)/g, '{$1}');
    if (path !== '/api' && !path.startsWith('/api/')) continue;
    for (const method of match[3].split(', ')) {
      if (method !== 'HEAD') operations.push(`${method} ${path}`);
    }
  }
  return operations.sort();
}

/** What the document lacks for each registered /api operation. */
function documentationGaps(doc: Document, operations: string[]): string[] {
  const gaps: string[] = [];
  for (const operation of operations) {
    const [method = '', path = ''] = operation.split(' ');
    const declared = doc.paths[path]?.[method.toLowerCase()];
    if (!declared) {
      gaps.push(`${operation}: missing from the document`);
      continue;
    }
    const answers = Object.entries(declared.responses);
    // A 204 has no body by definition, a redirect (303: the single sign-on's hops) says where in
    // its Location; any other success must say what it answers.
    const success = answers.find(
      ([status, answer]) =>
        status === '204' || status === '303' || (status.startsWith('2') && answer.content),
    );
    const problems = answers.filter(([status]) => /^[45]/.test(status));
    if (!success || problems.length === 0) {
      gaps.push(`${operation}: declares no answer schema`);
      continue;
    }
    for (const [status, answer] of problems) {
      const schema = answer.content?.['application/problem+json']?.schema?.$ref;
      if (!/^#\/components\/schemas\/(Validation|Form)?Problem$/.test(schema ?? '')) {
        gaps.push(`${operation}: ${status} is not a problem+json component`);
      }
    }
    for (const name of path.match(/\{\w+\}/g) ?? []) {
      const param = declared.parameters?.find((p) => p.in === 'path' && `{${p.name}}` === name);
      if (!param?.required) gaps.push(`${operation}: path parameter ${name} not declared`);
    }
    if (method !== 'GET' && !declared.security?.some((s) => 'xsrf' in s)) {
      gaps.push(`${operation}: does not name the anti-forgery header`);
    }
  }
  return gaps;
}

const queryNames = (path: string, method = 'get') =>
  (document.paths[path]?.[method]?.parameters ?? [])
    .filter((p) => p.in === 'query')
    .map((p) => p.name);

/** The property names of a component, or of an answer's schema. */
const fieldsOf = (schema: Schema | undefined): string[] => {
  const resolved = schema?.$ref
    ? document.components.schemas[schema.$ref.replace('#/components/schemas/', '')]
    : schema;
  return Object.keys(resolved?.properties ?? {});
};
const answerOf = (path: string, method = 'get', status = '200') =>
  Object.values(document.paths[path]?.[method]?.responses[status]?.content ?? {})[0]?.schema;

describe(OPENAPI_PATH, () => {
  it('is served as JSON without session cookies, and may be cached briefly', async () => {
    const response = await t.app.inject(OPENAPI_PATH);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('public, max-age=300');
  });

  it('is a valid OpenAPI 3.1 document whose references resolve', async () => {
    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate({ ...structuredClone(document) });
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('lists every /api route with its parameters and answers, and nothing else', () => {
    const registered = registeredApiOperations(t.app);
    // The walk sees the routes: a broken parse must not pass as "nothing missing".
    expect(registered.length).toBeGreaterThan(25);
    expect(registered).toContain('GET /api/filtered-cards/{dropdownItemId}/{cardType}');
    expect(documentationGaps(document, registered)).toEqual([
      'GET /api/test/hidden: missing from the document',
      'POST /api/test/bare: declares no answer schema',
    ]);
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(registered.filter((o) => o !== 'GET /api/test/hidden'));
  });

  it('names the request parameters as the spec does', () => {
    expect(queryNames('/api/search/products')).toEqual(
      expect.arrayContaining([
        'language',
        'page',
        'pageSize',
        'sortOrder',
        'q',
        'contentGroup',
        'productGroup',
        'facetTags',
        'hideResults',
        'searchEquipments',
        'matchAnyCategoryIds',
        'authors',
        'skipPagination',
      ]),
    );
    expect(queryNames('/api/facets/recipetags')).toContain('recipeSearchBlockId');
    expect(queryNames('/api/nav/desktop').sort()).toEqual(['languageId', 'pageId', 'subDomainId']);
    expect(queryNames('/api/v1/lihakauppa/shoppingcart/add', 'post').sort()).toEqual([
      'code',
      'language',
      'quantity',
    ]);
    const complaint = document.paths['/api/contact/retail/reclamation']?.post?.requestBody;
    expect(fieldsOf(complaint?.content['application/json']?.schema)).toEqual([
      'Data',
      'Files',
      'MTCaptchaToken',
    ]);
    const sales = document.paths['/api/fs/salesform']?.post?.requestBody;
    expect(fieldsOf(sales?.content['application/json']?.schema)).toContain('captchaToken');
  });

  it('names the answers’ fields as the spec does, problems included', () => {
    // The spec's five fields, then one additive field: which search step answered (decision 046).
    expect(fieldsOf(answerOf('/api/search/content/'))).toEqual([
      'query',
      'facetCategories',
      'hits',
      'totalCount',
      'hasMore',
      'matchedBy',
    ]);
    expect(fieldsOf(answerOf('/api/nav/desktop'))).toEqual([
      'topTabs',
      'bottomTabs',
      'languageMenu',
    ]);
    expect(fieldsOf(answerOf('/api/nav/mobile'))).toEqual([
      'barLinks',
      'navAccordions',
      'navLinks',
      'languageMenu',
    ]);
    expect(fieldsOf(answerOf('/api/v1/lihakauppa/shoppingcart/load'))).toEqual(
      expect.arrayContaining(['lineItems', 'lineItemCount', 'total', 'couponCodes']),
    );
    expect(fieldsOf(answerOf('/api/filtered-cards/{dropdownItemId}/{cardType}')?.items)).toEqual(
      expect.arrayContaining(['type', 'link', 'header', 'image']),
    );
    expect(fieldsOf(answerOf('/api/search/content/', 'get', '400'))).toEqual(
      expect.arrayContaining(['type', 'title', 'status', 'detail', 'errors']),
    );
    expect(fieldsOf(answerOf('/api/facets/recipetags', 'get', '404'))).toEqual(
      expect.arrayContaining(['type', 'title', 'status', 'detail']),
    );
  });
});
