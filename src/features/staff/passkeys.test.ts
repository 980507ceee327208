import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { softAuthenticator } from '../../../tests/helpers/soft-authenticator.ts';
import {
  adminVisitor,
  auditCount,
  enrolledStaff,
  json,
  lastAudit,
} from '../../../tests/helpers/staff.ts';
import { ADMIN_API } from './schemas.ts';

/**
 * Passkeys as the second factor (decision 135), with a software authenticator: registered from
 * the profile, given at the code step instead of a code; another key, or a replayed answer, is
 * refused.
 */
let t: TestApp;
const ORIGIN = 'http://localhost:80';

beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('passkeys', () => {
  it('are registered from the profile and then sign in instead of a code', async () => {
    const person = await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }]);
    const key = softAuthenticator(ORIGIN);
    const options = await person.visitor.get(`${ADMIN_API}/profile/passkeys/options`);
    expect(options.statusCode, options.body).toBe(200);
    expect(options.json().rp.id).toBe('localhost');
    const before = await auditCount(t.app);
    const added = await person.visitor.post(
      `${ADMIN_API}/profile/passkeys`,
      json({ response: key.register(options.json()) }),
    );
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().passkeys.map((p: { id: string }) => p.id)).toEqual([key.id]);
    expect(await auditCount(t.app)).toBe(before + 1);
    expect((await lastAudit(t.app))?.action).toBe('staff.passkey-add');

    const v = await adminVisitor(t.app);
    const first = await v.post(
      `${ADMIN_API}/auth/login`,
      json({ email: person.email, password: person.password }),
    );
    expect(first.json().methods).toContain('passkey');
    const signIn = await v.get(`${ADMIN_API}/auth/passkey/options`);
    expect(signIn.json().allowCredentials.map((c: { id: string }) => c.id)).toEqual([key.id]);
    const answer = key.signIn(signIn.json());
    const done = await v.post(`${ADMIN_API}/auth/passkey`, json({ response: answer }));
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().email).toBe(person.email);
    expect((await lastAudit(t.app))?.changes).toEqual({ method: { after: 'passkey' } });

    // The same answer again, in another browser at the code step: its challenge is gone.
    const other = await adminVisitor(t.app);
    await other.post(
      `${ADMIN_API}/auth/login`,
      json({ email: person.email, password: person.password }),
    );
    await other.get(`${ADMIN_API}/auth/passkey/options`);
    const replay = await other.post(`${ADMIN_API}/auth/passkey`, json({ response: answer }));
    expect(replay.statusCode).toBe(401);
    expect(replay.json().errors).toEqual({ response: 'admin.error.passkey' });
  });

  it('refuse a key that was never registered, and need the password step first', async () => {
    const person = await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }]);
    const stranger = softAuthenticator(ORIGIN);
    const nobody = await adminVisitor(t.app);
    expect((await nobody.get(`${ADMIN_API}/auth/passkey/options`)).statusCode).toBe(401);
    const v = await adminVisitor(t.app);
    await v.post(
      `${ADMIN_API}/auth/login`,
      json({ email: person.email, password: person.password }),
    );
    const options = await v.get(`${ADMIN_API}/auth/passkey/options`);
    const res = await v.post(
      `${ADMIN_API}/auth/passkey`,
      json({ response: stranger.signIn(options.json()) }),
    );
    expect(res.statusCode).toBe(401);
    expect((await v.get(`${ADMIN_API}/auth/session`)).statusCode).toBe(401);
  });

  it('are removed by their owner only, and a removed key no longer signs in', async () => {
    const person = await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }]);
    const other = await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }]);
    const key = softAuthenticator(ORIGIN);
    const options = await person.visitor.get(`${ADMIN_API}/profile/passkeys/options`);
    await person.visitor.post(
      `${ADMIN_API}/profile/passkeys`,
      json({ response: key.register(options.json()) }),
    );
    const url = `${ADMIN_API}/profile/passkeys/${key.id}`;
    // Someone else's key is unknown to them: 404, and nothing is written.
    const before = await auditCount(t.app);
    const foreign = await other.visitor.delete(url, json({}));
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect(await auditCount(t.app)).toBe(before);
    // Not an id at all: 400 naming it.
    const bad = await person.visitor.delete(`${ADMIN_API}/profile/passkeys/${'%20'.repeat(3)}`);
    expect(bad.statusCode).toBe(400);

    const removed = await person.visitor.delete(url, json({}));
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().passkeys).toEqual([]);
    expect(await auditCount(t.app)).toBe(before + 1);
    const row = await lastAudit(t.app);
    expect(row?.action).toBe('staff.passkey-remove');
    expect(row?.changes).toEqual({ passkey: { before: key.id } });
    expect((await person.visitor.delete(url, json({}))).statusCode).toBe(404);

    const v = await adminVisitor(t.app);
    const first = await v.post(
      `${ADMIN_API}/auth/login`,
      json({ email: person.email, password: person.password }),
    );
    expect(first.json().methods).not.toContain('passkey');
  });
});
