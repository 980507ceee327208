import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptFormPosts, FORM_TOKEN_FIELD } from '../form-posts.ts';
import { localReturnPath } from '../return-path.ts';
import { errorsPlugin } from './errors.ts';
import { SESSION_COOKIE, sessionsPlugin } from './sessions.ts';
import { xsrfPlugin } from './xsrf.ts';

/**
 * The form-post guard of `xsrf.ts` on a tiny app of its own: the session and error plugins it
 * builds on, and a route of each kind a feature declares. The features' own tests show that their
 * routes declare it; the rule itself, and each header case, is tested here.
 */

const HOST = 'shop.example';
let app: FastifyInstance;
/** Calls of the private route's own preValidation hook and handler. */
const reached: string[] = [];

/** 303 back to the posted `return` when it is a local path of this site, else to `/`. */
const back = (body: unknown) =>
  localReturnPath((body as Record<string, unknown> | undefined)?.return) ?? '/';

beforeAll(async () => {
  app = Fastify();
  app.decorate('config', {
    sessionTtlDays: 1,
    sessionSecret: 'form-post-guard-test-secret-0123456789',
  } as never);
  app.decorate('db', {} as never);
  app.decorate('database', {} as never);
  app.decorate('errorPage', { render: undefined });
  await app.register(errorsPlugin);
  await app.register(cookie);
  await app.register(sessionsPlugin);
  await app.register(xsrfPlugin);
  await app.register(async (forms) => {
    acceptFormPosts(forms, 4096);
    forms.get('/token', async (request) => request.session.derive('xsrf'));
    forms.post(
      '/private',
      {
        config: { formPost: true },
        schema: {
          body: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string', pattern: '^[a-z]+$' } },
          },
        },
        preValidation: async () => {
          reached.push('preValidation');
        },
      },
      async (request, reply) => {
        reached.push('handler');
        return reply.redirect(back(request.body), 303);
      },
    );
    forms.post('/shared', { config: { formPost: { sharedPage: true } } }, async (request, reply) =>
      reply.redirect(back(request.body), 303),
    );
    forms.post(
      '/shared-add',
      { config: { formPost: { sharedPage: (fields) => fields.action === 'add' } } },
      async (_request, reply) => reply.redirect('/', 303),
    );
    forms.post(
      '/own-refusal',
      {
        config: {
          formPost: {
            refused: (_request, reply) =>
              reply.status(403).type('text/html').send('<p role="alert">expired</p>'),
          },
        },
      },
      async (_request, reply) => reply.redirect('/', 303),
    );
    forms.post('/not-a-form', async () => 'taken');
  });
  await app.ready();
});
afterAll(() => app.close());

/** A visitor with a session: its cookie and the anti-forgery token its pages carry. */
async function visitor() {
  const page = await app.inject({ url: '/token', headers: { host: HOST } });
  const session = page.cookies.find((c) => c.name === SESSION_COOKIE)?.value ?? '';
  return { cookie: `${SESSION_COOKIE}=${session}`, token: page.body };
}

function post(
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
  options: Partial<InjectOptions> = {},
) {
  return app.inject({
    method: 'POST',
    url,
    headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
    ...options,
  });
}

function expectRefused(res: Awaited<ReturnType<typeof post>>) {
  expect(res.statusCode, res.body).toBe(403);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.json()).toMatchObject({ type: '/problems/xsrf', status: 403 });
  expect(res.headers.location).toBeUndefined();
}

describe('a form that carries the token field', () => {
  it('goes on with the session’s token, from this site or a browser that does not say', async () => {
    const v = await visitor();
    const fields = { [FORM_TOKEN_FIELD]: v.token, name: 'ok', return: '/page' };
    const cases: Record<string, string>[] = [
      {},
      { 'sec-fetch-site': 'same-origin' },
      { origin: `http://${HOST}` },
      // An opaque origin (a no-referrer page) says nothing; the token decides.
      { origin: 'null' },
    ];
    for (const headers of cases) {
      const res = await post('/private', fields, { cookie: v.cookie, ...headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(303);
      expect(res.headers.location).toBe('/page');
    }
  });

  it('is refused with a wrong token, another visitor’s, none, or one that is not a string', async () => {
    const v = await visitor();
    const other = await visitor();
    const sameOrigin = { cookie: v.cookie, 'sec-fetch-site': 'same-origin' };
    expectRefused(
      await post('/private', { [FORM_TOKEN_FIELD]: 'x'.repeat(43), name: 'ok' }, sameOrigin),
    );
    expectRefused(
      await post('/private', { [FORM_TOKEN_FIELD]: other.token, name: 'ok' }, sameOrigin),
    );
    expectRefused(await post('/private', { name: 'ok' }, sameOrigin));
    expectRefused(
      await app.inject({
        method: 'POST',
        url: '/private',
        headers: { host: HOST, ...sameOrigin },
        payload: { [FORM_TOKEN_FIELD]: [v.token], name: 'ok' },
      }),
    );
  });

  it('is refused, right token and all, when the browser says it comes from another site', async () => {
    const v = await visitor();
    const fields = { [FORM_TOKEN_FIELD]: v.token, name: 'ok' };
    const cases: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'none' },
      // Without Sec-Fetch-Site (an older browser), the Origin tells.
      { origin: 'https://evil.example' },
      { origin: `http://${HOST}:8080` },
      { origin: 'not a url' },
      // Sec-Fetch-Site is the browser's own word; an Origin beside it does not overrule it.
      { 'sec-fetch-site': 'cross-site', origin: `http://${HOST}` },
    ];
    for (const headers of cases) {
      expectRefused(await post('/private', fields, { cookie: v.cookie, ...headers }));
    }
  });

  it('is refused before the route reads or validates anything', async () => {
    reached.length = 0;
    // Invalid fields: with the token a 400, without it the same 403 as any forged post.
    expectRefused(await post('/private', { name: 'NOT VALID' }));
    expect(reached).toEqual([]);
    const v = await visitor();
    const valid = await post(
      '/private',
      { [FORM_TOKEN_FIELD]: v.token, name: 'NOT VALID' },
      { cookie: v.cookie },
    );
    expect(valid.statusCode).toBe(400);
    expect(reached).toEqual(['preValidation']);
  });

  it('goes on a shared page too when it carries the token, and only with the right one', async () => {
    const v = await visitor();
    const res = await post('/shared', { [FORM_TOKEN_FIELD]: v.token }, { cookie: v.cookie });
    expect(res.statusCode).toBe(303);
    // A wrong token is not taken for no token: the browser's word does not stand in for it.
    expectRefused(
      await post(
        '/shared',
        { [FORM_TOKEN_FIELD]: 'x'.repeat(43) },
        { 'sec-fetch-site': 'same-origin' },
      ),
    );
  });
});

describe('a form on a shared page, without the token field (decisions 055, 073)', () => {
  it('goes on when the browser says the post comes from this site, or a client says nothing', async () => {
    const cases: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin' },
      { origin: `http://${HOST}` },
      {},
    ];
    for (const headers of cases) {
      const res = await post('/shared', { return: '/recipe' }, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(303);
      expect(res.headers.location).toBe('/recipe');
    }
  });

  it('is refused from another site, by Sec-Fetch-Site or by Origin, and from an opaque origin', async () => {
    const cases: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: `https://${HOST}.evil.example` },
      { origin: 'null' },
    ];
    for (const headers of cases) {
      expectRefused(await post('/shared', { return: '/recipe' }, headers));
    }
  });

  it('goes back only to this site: a tab in the return path does not lead away', async () => {
    // A browser drops the tab: `/<TAB>/evil.example/` would be `//evil.example/`, another host.
    const taken = await post(
      '/shared',
      { return: '/\t/evil.example/' },
      { 'sec-fetch-site': 'same-origin' },
    );
    expect(taken.statusCode).toBe(303);
    expect(taken.headers.location).toBe('/');
    // A forged post is not sent anywhere at all.
    expectRefused(
      await post('/shared', { return: '/\t/evil.example/' }, { origin: 'https://evil.example' }),
    );
  });

  it('is decided per post by the route: here only the add goes without the token', async () => {
    const sameOrigin = { 'sec-fetch-site': 'same-origin' };
    expect((await post('/shared-add', { action: 'add' }, sameOrigin)).statusCode).toBe(303);
    expectRefused(await post('/shared-add', { action: 'remove' }, sameOrigin));
    expectRefused(await post('/shared-add', { action: 'add' }, { 'sec-fetch-site': 'cross-site' }));
  });

  it('is refused where the route does not say its page is shared', async () => {
    expectRefused(await post('/private', { name: 'ok' }, { 'sec-fetch-site': 'same-origin' }));
  });
});

describe('the answer to a refused post', () => {
  it('is the route’s own when it names one', async () => {
    const res = await post('/own-refusal', {}, { 'sec-fetch-site': 'cross-site' });
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toBe('<p role="alert">expired</p>');
    const v = await visitor();
    const taken = await post('/own-refusal', { [FORM_TOKEN_FIELD]: v.token }, { cookie: v.cookie });
    expect(taken.statusCode).toBe(303);
  });

  it('leaves routes that declare no form post alone', async () => {
    const res = await post('/not-a-form', {}, { 'sec-fetch-site': 'cross-site' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('taken');
  });
});
