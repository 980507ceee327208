import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import {
  adminVisitor,
  type Enrolled,
  enrolledStaff,
  json,
  nextCode,
} from '../../../tests/helpers/staff.ts';
import { ADMIN_API } from './schemas.ts';

/**
 * The sign-in lockouts counted across two server processes (decision 130): two apps on one Redis,
 * as two processes behind a load balancer, with the same staff member (same address and id) in
 * each. Runs when REDIS_URL is set; the run's keys live under a prefix of its own.
 */
const redisUrl = process.env.REDIS_URL;
const onRedis = Boolean(redisUrl);
const prefix = `kattaus-test-${randomBytes(6).toString('hex')}:`;

let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  if (!onRedis) return;
  const config = { redisUrl, redisPrefix: prefix };
  [a, b] = await Promise.all([createTestApp({ config }), createTestApp({ config })]);
}, 120_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
  if (!onRedis) return;
  const admin = new Redis(redisUrl ?? '');
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  await admin.quit();
});

/** One person known to both processes. */
async function inBoth(): Promise<[Enrolled, Enrolled]> {
  const id = randomUUID();
  const email = `jaettu-${id.slice(0, 8)}@kattaus.example`;
  const grants = [{ role: 'editor', sites: null, langs: null }];
  return [
    await enrolledStaff(a.app, grants, { id, email }),
    await enrolledStaff(b.app, grants, { id, email }),
  ];
}

describe('sign-in lockouts shared through Redis', () => {
  it.runIf(onRedis)('10 wrong passwords over both processes lock the step in both', async () => {
    const [inA, inB] = await inBoth();
    for (let i = 0; i < 10; i++) {
      const t = i % 2 === 0 ? a : b;
      const v = await adminVisitor(t.app, `10.34.9.${i + 1}`);
      const res = await v.post(
        `${ADMIN_API}/auth/login`,
        json({ email: inA.email, password: `väärä salasana ${i}` }),
      );
      expect(res.statusCode).toBe(401);
    }
    for (const [t, person] of [
      [a, inA],
      [b, inB],
    ] as const) {
      const v = await adminVisitor(t.app, '10.34.10.1');
      const res = await v.post(
        `${ADMIN_API}/auth/login`,
        json({ email: person.email, password: person.password }),
      );
      expect(res.statusCode).toBe(429);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
  });

  it.runIf(onRedis)('5 wrong codes over both processes lock the code step in both', async () => {
    const [inA, inB] = await inBoth();
    const atCode = async (t: TestApp, person: Enrolled) => {
      const v = await adminVisitor(t.app);
      const res = await v.post(
        `${ADMIN_API}/auth/login`,
        json({ email: person.email, password: person.password }),
      );
      expect(res.statusCode, res.body).toBe(200);
      return v;
    };
    const va = await atCode(a, inA);
    const vb = await atCode(b, inB);
    for (let i = 0; i < 5; i++) {
      const res = await (i % 2 === 0 ? va : vb).post(
        `${ADMIN_API}/auth/totp`,
        json({ code: '000000' }),
      );
      expect(res.statusCode).toBe(401);
    }
    const right = await va.post(
      `${ADMIN_API}/auth/totp`,
      json({ code: nextCode(inA.secret, inA.used) }),
    );
    expect(right.statusCode).toBe(429);
    const rightB = await vb.post(
      `${ADMIN_API}/auth/totp`,
      json({ code: nextCode(inB.secret, inB.used) }),
    );
    expect(rightB.statusCode).toBe(429);
  });
});
