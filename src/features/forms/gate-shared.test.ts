import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { Unavailable } from '../../server/errors.ts';
import { permits } from '../../server/permits.ts';
import { openSharedCounters, type SharedCounters } from '../../server/redis.ts';
import { largeBodyGate } from './gate.server.ts';

/**
 * The forms' upload gate shared through Redis (decision 032): two processes' gates spend one set
 * of slots, give them back, and a process that dies holding slots loses them after one lease.
 * Runs when REDIS_URL is set; each run writes under its own key prefix and deletes it afterwards.
 */
const redisUrl = process.env.REDIS_URL;
const onRedis = Boolean(redisUrl);
const prefix = `kattaus-test-${randomBytes(6).toString('hex')}:`;
const quiet = { warn() {}, info() {} } as unknown as FastifyBaseLogger;
const opened: SharedCounters[] = [];

/** One "process": its own connection to the shared Redis. */
async function processCounters(): Promise<SharedCounters> {
  const counters = await openSharedCounters(redisUrl ?? '', { keyPrefix: prefix, log: quiet });
  opened.push(counters);
  return counters;
}

afterAll(async () => {
  for (const counters of opened) await counters.close();
  if (!onRedis) return;
  const admin = new Redis(redisUrl ?? '');
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  await admin.quit();
});

function upload() {
  const raw = new PassThrough();
  return {
    headers: { 'content-length': String(50e6) },
    raw,
    routeOptions: { bodyLimit: 100 * 1024 * 1024 },
  } as unknown as FastifyRequest & { raw: PassThrough };
}
const reply = { header: () => reply } as unknown as FastifyReply;

/** The gate refuses: 503 once the refused body has been read. */
async function refused(gate: ReturnType<typeof largeBodyGate>) {
  const request = upload();
  const answer = gate.onRequest(request, reply);
  request.raw.end(Buffer.alloc(1000));
  await expect(answer).rejects.toBeInstanceOf(Unavailable);
}

describe('the upload gate across processes (Redis)', () => {
  it.runIf(onRedis)('two gates share their slots and give them back', async () => {
    const gateA = largeBodyGate({ max: 2, idleTimeoutMs: 5000, shared: await processCounters() });
    const gateB = largeBodyGate({ max: 2, idleTimeoutMs: 5000, shared: await processCounters() });
    const first = upload();
    const second = upload();
    await gateA.onRequest(first, reply);
    await gateB.onRequest(second, reply);
    expect([gateA.inFlight, gateB.inFlight]).toEqual([1, 1]);
    // Both slots are taken: either process refuses the third.
    await refused(gateA);
    await refused(gateB);

    await gateA.release(first);
    await gateA.release(first);
    expect(gateA.inFlight).toBe(0);
    const third = upload();
    await gateB.onRequest(third, reply);
    expect(gateB.inFlight).toBe(2);
    await refused(gateA);

    await gateB.release(second);
    await gateB.release(third);
    const fourth = upload();
    await gateA.onRequest(fourth, reply);
    expect(gateA.inFlight).toBe(1);
    await gateA.release(fourth);
  });

  it.runIf(onRedis)(
    'a held permit is renewed past its lease; a dead holder loses it after one lease',
    async () => {
      const leaseMs = 300;
      const alive = permits(await processCounters(), { name: 'lease', max: 1, leaseMs });
      const other = permits(await processCounters(), { name: 'lease', max: 1, leaseMs });
      const held = await alive.acquire();
      expect(held?.where).toBe('shared');
      await new Promise((resolve) => setTimeout(resolve, leaseMs * 3));
      // Still held: its process renews the lease.
      expect(await other.acquire()).toBeUndefined();
      await held?.release();
      const taken = await other.acquire();
      expect(taken?.where).toBe('shared');
      await taken?.release();

      // A process that dies holding a permit (its connection gone, nothing renews it).
      const dying = await processCounters();
      const lost = await permits(dying, { name: 'lease', max: 1, leaseMs }).acquire();
      expect(lost?.where).toBe('shared');
      dying.redis.disconnect();
      expect(await other.acquire()).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, leaseMs + 100));
      const after = await other.acquire();
      expect(after?.where).toBe('shared');
      await after?.release();
      await lost?.release();
    },
  );

  it.runIf(onRedis)(
    'Redis gone: the gate counts its own slots with the same limit (no 500, no free-for-all)',
    async () => {
      const counters = await processCounters();
      const gate = largeBodyGate({ max: 2, idleTimeoutMs: 5000, shared: counters });
      const ended = new Promise((resolve) => counters.redis.once('end', resolve));
      counters.redis.disconnect();
      await ended;
      const first = upload();
      const second = upload();
      await gate.onRequest(first, reply);
      await gate.onRequest(second, reply);
      expect(gate.inFlight).toBe(2);
      await refused(gate);
      await gate.release(first);
      await gate.onRequest(upload(), reply);
      expect(gate.inFlight).toBe(2);
    },
  );
});
