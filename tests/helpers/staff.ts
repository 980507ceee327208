import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { COMMAND_LINE, createStaff } from '../../src/features/staff/index.server.ts';
import { ADMIN_API, type Grant } from '../../src/features/staff/index.ts';
import { auditLog } from '../../src/features/staff/tables.ts';
import { stepAt, totpCode } from '../../src/features/staff/totp.server.ts';
import { Visitor } from './visitor.ts';

/** Staff in the tests: made as the `npm run staff` command makes them, enrolled through the API. */

export const STAFF_PASSWORD = 'pitkä ja hyvä salasana 42';
let made = 0;

export const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

/** A browser at the back office: it has the anti-forgery cookie the API's writes need. */
export async function adminVisitor(app: FastifyInstance, ip?: string): Promise<Visitor> {
  const v = new Visitor(app);
  if (ip) {
    const request = v.request.bind(v);
    v.request = (method, url, options = {}) =>
      request(method, url, { remoteAddress: ip, ...options });
  }
  await v.get(`${ADMIN_API}/auth/session`);
  if (!v.xsrfToken) throw new Error('no anti-forgery cookie');
  return v;
}

/** The code of the step after `lastStep` that is still accepted (each code works once). */
export function nextCode(secret: string, after: { step: number }): string {
  const now = stepAt(Date.now());
  const step = Math.max(now - 1, after.step + 1);
  if (step > now + 1) throw new Error('no unused code left in the window');
  after.step = step;
  return totpCode(secret, step);
}

export interface Enrolled {
  id: string;
  email: string;
  password: string;
  secret: string;
  recoveryCodes: string[];
  /** Signed in right after the enrolment. */
  visitor: Visitor;
  /** The last TOTP step used (pass to `nextCode`). */
  used: { step: number };
}

/** A staff member made with `grants` and enrolled: password, authenticator, signed in. */
export async function enrolledStaff(
  app: FastifyInstance,
  grants: Grant[],
  options: { email?: string; id?: string; ip?: string } = {},
): Promise<Enrolled> {
  made += 1;
  const email = options.email ?? `henkilo${made}-${Date.now()}@kattaus.example`;
  const { enrolmentUrl, id } = await createStaff(
    app.db,
    {
      ...(options.id ? { id: options.id } : {}),
      email,
      name: `Henkilö ${made}`,
      lang: 'fi',
      grants,
    },
    { actor: COMMAND_LINE, adminUrl: 'http://localhost/admin' },
  );
  const token = enrolmentUrl.split('#')[1] ?? '';
  const visitor = await adminVisitor(app, options.ip);
  const opened = await visitor.post(`${ADMIN_API}/enrolment`, json({ token }));
  if (opened.statusCode !== 200) throw new Error(`enrolment: ${opened.body}`);
  const { secret } = opened.json() as { secret: string };
  const used = { step: -1 };
  const done = await visitor.post(
    `${ADMIN_API}/enrolment/complete`,
    json({ token, password: STAFF_PASSWORD, code: nextCode(secret, used) }),
  );
  if (done.statusCode !== 200) throw new Error(`enrolment complete: ${done.body}`);
  return {
    id,
    email,
    password: STAFF_PASSWORD,
    secret,
    recoveryCodes: (done.json() as { recoveryCodes: string[] }).recoveryCodes,
    visitor,
    used,
  };
}

/** Signs in through both steps in a new browser; answers it. */
export async function signIn(
  app: FastifyInstance,
  staff: Enrolled,
  options: { ip?: string } = {},
): Promise<Visitor> {
  const v = await adminVisitor(app, options.ip);
  const first = await v.post(
    `${ADMIN_API}/auth/login`,
    json({ email: staff.email, password: staff.password }),
  );
  if (first.statusCode !== 200) throw new Error(`login: ${first.body}`);
  const second = await v.post(
    `${ADMIN_API}/auth/totp`,
    json({ code: nextCode(staff.secret, staff.used) }),
  );
  if (second.statusCode !== 200) throw new Error(`totp: ${second.body}`);
  return v;
}

/** Gives the password again, for the sensitive actions (re-authentication). */
export async function reauth(v: Visitor, staff: Enrolled): Promise<LightMyRequestResponse> {
  return v.post(`${ADMIN_API}/auth/reauth`, json({ password: staff.password }));
}

export async function auditCount(app: FastifyInstance): Promise<number> {
  return app.db.$count(auditLog);
}

export async function lastAudit(app: FastifyInstance) {
  const [row] = await app.db.select().from(auditLog).orderBy(sql`${auditLog.id} desc`).limit(1);
  return row;
}

export async function auditOf(app: FastifyInstance, action: string) {
  return app.db.select().from(auditLog).where(eq(auditLog.action, action));
}
