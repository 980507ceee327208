import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { Unavailable } from '../../server/errors.ts';
import { largeBodyGate } from './gate.server.ts';

function request(length: number | undefined) {
  const raw = new PassThrough();
  return {
    headers: length === undefined ? {} : { 'content-length': String(length) },
    raw,
    routeOptions: { bodyLimit: 100 * 1024 * 1024 },
  } as unknown as FastifyRequest & { raw: PassThrough };
}
const reply = {} as FastifyReply;

describe('large body gate', () => {
  it('lets small bodies through and at most `max` large ones at once', async () => {
    const gate = largeBodyGate(2);
    await gate.onRequest(request(1000), reply);
    const a = request(50e6);
    const b = request(undefined);
    await gate.onRequest(a, reply);
    await gate.onRequest(b, reply);
    expect(gate.inFlight).toBe(2);

    const c = request(50e6);
    const refused = gate.onRequest(c, reply);
    c.raw.end(Buffer.alloc(1000));
    await expect(refused).rejects.toBeInstanceOf(Unavailable);
    await refused.catch((e: Unavailable) => expect(e.retryAfterSeconds).toBeGreaterThan(0));

    await gate.release(a);
    await gate.release(a);
    expect(gate.inFlight).toBe(1);
    const d = request(50e6);
    await gate.onRequest(d, reply);
    expect(gate.inFlight).toBe(2);
  });
});
