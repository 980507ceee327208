import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import {
  adminVisitor,
  auditCount,
  auditOf,
  type Enrolled,
  enrolledStaff,
  json,
  lastAudit,
  nextCode,
  reauth,
  signIn,
} from '../../../tests/helpers/staff.ts';
import { ADMIN_API } from './schemas.ts';
import { staffSessions } from './tables.ts';
import { stepAt, totpCode } from './totp.server.ts';

/**
 * Staff sign-in (decision 130): enrolment from the command's link, password then TOTP code or
 * recovery code, codes used once, the session's cookie and lifetimes, lockouts after wrong
 * answers, re-authentication, and what revokes a session.
 */
let t: TestApp;
let admin: Enrolled;

beforeAll(async () => {
  t = await createTestApp();
  admin = await enrolledStaff(t.app, [{ role: 'admin', sites: null, langs: null }]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** An administrator of their own: each has three codes a minute and a half to spend. */
const freshAdmin = () => enrolledStaff(t.app, [{ role: 'admin', sites: null, langs: null }]);

const session = (v: { get(url: string): Promise<{ statusCode: number }> }) =>
  v.get(`${ADMIN_API}/auth/session`).then((r) => r.statusCode);

describe('enrolment', () => {
  it('signs the new staff member in and shows ten recovery codes', async () => {
    expect(admin.recoveryCodes).toHaveLength(10);
    expect(new Set(admin.recoveryCodes).size).toBe(10);
    const me = await admin.visitor.get(`${ADMIN_API}/auth/session`);
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ email: admin.email, recoveryCodesLeft: 10 });
    expect(me.json().permissions).toContain('staff.manage');
    const [row] = await auditOf(t.app, 'staff.enrol');
    expect(row?.staffId).toBe(admin.id);
  });

  it('refuses a used link, and a code not of the offered secret', async () => {
    const other = await enrolledStaff(t.app, [
      { role: 'editor', sites: ['jyvabroiler'], langs: ['fi'] },
    ]);
    const v = await adminVisitor(t.app);
    const again = await v.post(`${ADMIN_API}/enrolment`, json({ token: 'x'.repeat(43) }));
    expect(again.statusCode).toBe(400);
    expect(again.json().errors).toEqual({ token: 'admin.error.token' });
    expect(other.secret).not.toBe(admin.secret);
  });

  it('refuses a common password at enrolment', async () => {
    const { createStaff, COMMAND_LINE } = await import('./index.server.ts');
    const made = await createStaff(
      t.app.db,
      { email: `yleinen-${Date.now()}@kattaus.example`, name: 'Y', lang: 'fi', grants: [] },
      { actor: COMMAND_LINE, adminUrl: 'http://localhost/admin' },
    );
    const token = made.enrolmentUrl.split('#')[1];
    const v = await adminVisitor(t.app);
    const { secret } = (await v.post(`${ADMIN_API}/enrolment`, json({ token }))).json();
    const res = await v.post(
      `${ADMIN_API}/enrolment/complete`,
      json({ token, password: 'passwordpassword', code: totpCode(secret, stepAt(Date.now())) }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ password: 'admin.error.passwordCommon' });
  });
});

describe('signing in', () => {
  it('needs the password and then a code; the password alone opens nothing', async () => {
    const v = await adminVisitor(t.app);
    const wrong = await v.post(
      `${ADMIN_API}/auth/login`,
      json({ email: admin.email, password: 'väärä salasana 123' }),
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['content-type']).toContain('application/problem+json');
    expect(wrong.json().errors).toEqual({ password: 'admin.error.login' });
    const unknown = await v.post(
      `${ADMIN_API}/auth/login`,
      json({ email: 'ei-ole@kattaus.example', password: admin.password }),
    );
    expect(unknown.statusCode).toBe(401);
    const first = await v.post(
      `${ADMIN_API}/auth/login`,
      json({ email: admin.email.toUpperCase(), password: admin.password }),
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ next: 'second-factor', methods: ['totp', 'recovery'] });
    expect(await session(v)).toBe(401);
    expect((await v.get(`${ADMIN_API}/staff`)).statusCode).toBe(401);
    const second = await v.post(
      `${ADMIN_API}/auth/totp`,
      json({ code: nextCode(admin.secret, admin.used) }),
    );
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().email).toBe(admin.email);
    expect(await session(v)).toBe(200);
  });

  it('sets its own cookie: HttpOnly, SameSite=Strict, on a new token after the code', async () => {
    const v = await adminVisitor(t.app);
    const first = await v.post(
      `${ADMIN_API}/auth/login`,
      json({ email: admin.email, password: admin.password }),
    );
    const pending = first.cookies.find((c) => c.name === 'kattaus_staff');
    expect(pending).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    const second = await v.post(
      `${ADMIN_API}/auth/totp`,
      json({ code: nextCode(admin.secret, admin.used) }),
    );
    const full = second.cookies.find((c) => c.name === 'kattaus_staff');
    expect(full).toMatchObject({ httpOnly: true, sameSite: 'Strict', maxAge: 12 * 60 * 60 });
    expect(full?.value).not.toBe(pending?.value);
  });

  it('takes a TOTP code once', async () => {
    const admin = await freshAdmin();
    const code = nextCode(admin.secret, admin.used);
    const a = await adminVisitor(t.app);
    await a.post(`${ADMIN_API}/auth/login`, json({ email: admin.email, password: admin.password }));
    expect((await a.post(`${ADMIN_API}/auth/totp`, json({ code }))).statusCode).toBe(200);
    const b = await adminVisitor(t.app);
    await b.post(`${ADMIN_API}/auth/login`, json({ email: admin.email, password: admin.password }));
    const reused = await b.post(`${ADMIN_API}/auth/totp`, json({ code }));
    expect(reused.statusCode).toBe(401);
    expect(reused.json().errors).toEqual({ code: 'admin.error.totpWrong' });
  });

  it('takes a recovery code once, and counts what is left', async () => {
    const person = await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }]);
    const code = person.recoveryCodes[3] ?? '';
    const use = async () => {
      const v = await adminVisitor(t.app);
      await v.post(
        `${ADMIN_API}/auth/login`,
        json({ email: person.email, password: person.password }),
      );
      return {
        v,
        res: await v.post(`${ADMIN_API}/auth/recovery`, json({ code: code.toUpperCase() })),
      };
    };
    const ok = await use();
    expect(ok.res.statusCode, ok.res.body).toBe(200);
    expect(ok.res.json().recoveryCodesLeft).toBe(9);
    const again = await use();
    expect(again.res.statusCode).toBe(401);
    expect(again.res.json().errors).toEqual({ code: 'admin.error.recoveryWrong' });
  });
});

describe('lockouts', () => {
  it('locks the password step after 10 wrong passwords, the right one too', async () => {
    const person = await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }]);
    for (let i = 0; i < 10; i++) {
      const v = await adminVisitor(t.app, `10.34.1.${i + 1}`);
      const res = await v.post(
        `${ADMIN_API}/auth/login`,
        json({ email: person.email, password: `väärä salasana ${i}` }),
      );
      expect(res.statusCode).toBe(401);
    }
    const v = await adminVisitor(t.app, '10.34.2.1');
    const locked = await v.post(
      `${ADMIN_API}/auth/login`,
      json({ email: person.email, password: person.password }),
    );
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(60);
    // Another account is not locked.
    const other = await v.post(
      `${ADMIN_API}/auth/login`,
      json({ email: admin.email, password: admin.password }),
    );
    expect(other.statusCode).toBe(200);
  });

  it('locks the code step after 5 wrong codes, the right one too', async () => {
    const person = await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }]);
    const v = await adminVisitor(t.app);
    await v.post(
      `${ADMIN_API}/auth/login`,
      json({ email: person.email, password: person.password }),
    );
    const right = nextCode(person.secret, person.used);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) {
      const res = await v.post(`${ADMIN_API}/auth/totp`, json({ code: wrong }));
      expect(res.statusCode).toBe(401);
    }
    const locked = await v.post(`${ADMIN_API}/auth/totp`, json({ code: right }));
    expect(locked.statusCode).toBe(429);
    const recovery = await v.post(
      `${ADMIN_API}/auth/recovery`,
      json({ code: person.recoveryCodes[0] }),
    );
    expect(recovery.statusCode).toBe(429);
  });
});

describe('the session', () => {
  it('ends after 30 idle minutes and after 12 hours in all', async () => {
    const admin = await freshAdmin();
    const idle = await signIn(t.app, admin);
    const rows = await t.app.db
      .select({ id: staffSessions.id })
      .from(staffSessions)
      .where(eq(staffSessions.staffId, admin.id))
      .orderBy(sql`${staffSessions.createdAt} desc`)
      .limit(1);
    const id = rows[0]?.id ?? '';
    await t.app.db
      .update(staffSessions)
      .set({ lastSeenAt: new Date(Date.now() - 31 * 60 * 1000) })
      .where(eq(staffSessions.id, id));
    expect(await session(idle)).toBe(401);

    const old = await signIn(t.app, admin);
    const [latest] = await t.app.db
      .select({ id: staffSessions.id })
      .from(staffSessions)
      .where(eq(staffSessions.staffId, admin.id))
      .orderBy(sql`${staffSessions.createdAt} desc`)
      .limit(1);
    expect(await session(old)).toBe(200);
    await t.app.db
      .update(staffSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(staffSessions.id, latest?.id ?? ''));
    expect(await session(old)).toBe(401);
  });

  it('signs out', async () => {
    const v = (await freshAdmin()).visitor;
    const before = await auditCount(t.app);
    expect((await v.post(`${ADMIN_API}/auth/logout`)).statusCode).toBe(200);
    expect(await session(v)).toBe(401);
    expect(await auditCount(t.app)).toBe(before + 1);
    expect((await lastAudit(t.app))?.action).toBe('auth.logout');
  });

  it('ends the other sessions when the password changes; this one stays', async () => {
    const person = await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }]);
    const other = await signIn(t.app, person);
    const res = await person.visitor.post(
      `${ADMIN_API}/profile/password`,
      json({ currentPassword: person.password, newPassword: 'toinen hyvä salasana 77' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await session(person.visitor)).toBe(200);
    expect(await session(other)).toBe(401);
    const wrong = await person.visitor.post(
      `${ADMIN_API}/profile/password`,
      json({ currentPassword: 'ei tämä ole se 1', newPassword: 'kolmas hyvä salasana 88' }),
    );
    expect(wrong.json().errors).toEqual({ currentPassword: 'admin.error.currentPassword' });
  });

  it('ends every session of a person whose roles change', async () => {
    const person = await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }]);
    const v = (await freshAdmin()).visitor;
    const res = await v.request(
      'PUT',
      `${ADMIN_API}/staff/${person.id}/grants`,
      json({ grants: [{ role: 'publisher', sites: ['sibylla'], langs: ['sv'] }] }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await session(person.visitor)).toBe(401);
  });

  it('asks for the password or a code again for sensitive actions after 5 minutes', async () => {
    const admin = await freshAdmin();
    const v = admin.visitor;
    await t.app.db
      .update(staffSessions)
      .set({ verifiedAt: new Date(Date.now() - 6 * 60 * 1000) })
      .where(eq(staffSessions.staffId, admin.id));
    const refused = await v.post(`${ADMIN_API}/profile/recovery-codes`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().type).toBe('/problems/reauth');
    const wrong = await v.post(`${ADMIN_API}/auth/reauth`, json({ password: 'väärä salasana 9' }));
    expect(wrong.statusCode).toBe(401);
    expect((await reauth(v, admin)).statusCode).toBe(200);
    const codes = await v.post(`${ADMIN_API}/profile/recovery-codes`);
    expect(codes.statusCode, codes.body).toBe(200);
    expect(codes.json().recoveryCodes).toHaveLength(10);
    admin.recoveryCodes = codes.json().recoveryCodes;
    // A code does it too.
    await t.app.db
      .update(staffSessions)
      .set({ verifiedAt: new Date(Date.now() - 6 * 60 * 1000) })
      .where(eq(staffSessions.staffId, admin.id));
    const byCode = await v.post(
      `${ADMIN_API}/auth/reauth`,
      json({ code: nextCode(admin.secret, admin.used) }),
    );
    expect(byCode.statusCode, byCode.body).toBe(200);
  });
});
