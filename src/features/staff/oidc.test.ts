import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import {
  adminVisitor,
  auditCount,
  type Enrolled,
  enrolledStaff,
  json,
  lastAudit,
  nextCode,
} from '../../../tests/helpers/staff.ts';
import type { Visitor } from '../../../tests/helpers/visitor.ts';
import { ADMIN_API } from './schemas.ts';

/**
 * Single sign-on for staff (decision 134) against an OpenID Connect provider this test starts on
 * loopback (`oidc-provider`): the provider's sign-in takes the place of the password, the
 * verified e-mail address names the staff member, the second factor is still asked; a person
 * unknown to Kattaus, or an unverified address, is refused with nothing written.
 */
const CALLBACK = 'http://localhost/api/admin/auth/oidc/callback';
let server: Server;
let issuer = '';
/** Who the provider signs in next, and whether it says their address is verified. */
let nextAccount = '';
const unverified = new Set<string>();
let t: TestApp;
let staff: Enrolled;

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'kattaus',
        client_secret: 'kattaus-test-client-secret-0123456789',
        redirect_uris: [CALLBACK],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => ({ sub: id, email: id, email_verified: !unverified.has(id) }),
    }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    conformIdTokenClaims: false,
    // Consent is given: the test is about Kattaus's side.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client?.clientId ?? '',
        accountId: ctx.oidc.session?.accountId ?? '',
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['kattaus-test-cookie-key-0123456789'] },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      void provider.interactionFinished(
        req,
        res,
        { login: { accountId: nextAccount } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    void handle(req, res);
  });
  t = await createTestApp({
    config: {
      adminUrl: 'http://localhost/admin',
      staffOidc: {
        issuer,
        clientId: 'kattaus',
        clientSecret: 'kattaus-test-client-secret-0123456789',
      },
    },
  });
  staff = await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }], {
    email: 'sso.kayttaja@kattaus.example',
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await new Promise((done) => server?.close(done));
});

/**
 * A browser going through the provider as `account`: from Kattaus's start to the provider and
 * back to Kattaus's callback. Answers the callback's answer.
 */
async function signInAt(v: Visitor, account: string) {
  nextAccount = account;
  const start = await v.get('/api/admin/auth/oidc');
  expect(start.statusCode, start.body).toBe(303);
  const jar = new Map<string, string>();
  let url = new URL(String(start.headers.location));
  expect(url.origin).toBe(issuer);
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  for (let hop = 0; hop < 10 && !url.href.startsWith(CALLBACK); hop++) {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, val]) => `${k}=${val}`).join('; ') },
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`the provider answered ${res.status}: ${await res.text()}`);
    url = new URL(location, url);
  }
  expect(url.href.startsWith(CALLBACK)).toBe(true);
  return v.get(`${url.pathname}${url.search}`);
}

describe('single sign-on with OpenID Connect', () => {
  it('says it is there', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${ADMIN_API}/auth/methods` });
    expect(res.json()).toEqual({ sso: true });
  });

  it('signs a known staff member in: the provider, then their code', async () => {
    const v = await adminVisitor(t.app);
    const before = await auditCount(t.app);
    const back = await signInAt(v, 'SSO.Kayttaja@kattaus.example');
    expect(back.statusCode, back.body).toBe(303);
    expect(back.headers.location).toBe('/admin/login#second-factor');
    expect((await lastAudit(t.app))?.action).toBe('auth.oidc');
    expect(await auditCount(t.app)).toBe(before + 1);
    expect((await v.get(`${ADMIN_API}/auth/session`)).statusCode).toBe(401);
    const code = await v.post(
      `${ADMIN_API}/auth/totp`,
      json({ code: nextCode(staff.secret, staff.used) }),
    );
    expect(code.statusCode, code.body).toBe(200);
    expect(code.json().email).toBe(staff.email);
  });

  it('refuses a person unknown to Kattaus, with nothing written', async () => {
    const v = await adminVisitor(t.app);
    const before = await auditCount(t.app);
    const back = await signInAt(v, 'vieras@example.com');
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/admin/login#sso-refused');
    expect(await auditCount(t.app)).toBe(before);
    const code = await v.post(`${ADMIN_API}/auth/totp`, json({ code: '123456' }));
    expect(code.statusCode).toBe(401);
  });

  it('refuses an address the provider has not verified', async () => {
    unverified.add(staff.email);
    try {
      const v = await adminVisitor(t.app);
      const back = await signInAt(v, staff.email);
      expect(back.headers.location).toBe('/admin/login#sso-refused');
    } finally {
      unverified.delete(staff.email);
    }
  });

  it('refuses a callback without the flow it started (forged or replayed)', async () => {
    const v = await adminVisitor(t.app);
    const back = await v.get('/api/admin/auth/oidc/callback?code=x&state=y');
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/admin/login#sso-refused');
  });

  it('is not there without STAFF_OIDC_*', async () => {
    const plain = await createTestApp();
    try {
      const res = await plain.app.inject({ method: 'GET', url: '/api/admin/auth/oidc' });
      expect(res.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
