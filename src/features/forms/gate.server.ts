import type { FastifyReply, FastifyRequest } from 'fastify';
import { Unavailable } from '../../server/errors.ts';

/** Bodies above this count as large: they hold tens of megabytes while they are decoded. */
export const LARGE_BODY_BYTES = 1024 * 1024;
const RETRY_AFTER_SECONDS = 5;

/**
 * Lets at most `max` large bodies be read and processed at once across the form endpoints. One
 * more is answered 503 with Retry-After before its body is parsed; its bytes are read and
 * dropped first (up to the route's limit), so the client gets the answer instead of a reset
 * connection while it is still sending.
 */
export function largeBodyGate(max: number) {
  let inFlight = 0;
  const holding = new WeakSet<FastifyRequest>();
  const release = async (request: FastifyRequest) => {
    if (holding.delete(request)) inFlight--;
  };
  return {
    get inFlight() {
      return inFlight;
    },
    onRequest: async (request: FastifyRequest, _reply: FastifyReply) => {
      const length = Number(request.headers['content-length']);
      const large = !Number.isFinite(length) || length > LARGE_BODY_BYTES;
      if (!large) return;
      if (inFlight < max) {
        inFlight++;
        holding.add(request);
        return;
      }
      await drain(request, request.routeOptions.bodyLimit ?? LARGE_BODY_BYTES);
      throw new Unavailable('Too many uploads at once. Try again shortly.', RETRY_AFTER_SECONDS);
    },
    release,
  };
}

function drain(request: FastifyRequest, limit: number): Promise<void> {
  const raw = request.raw;
  return new Promise((resolve) => {
    let received = 0;
    const done = () => {
      raw.removeListener('data', onData);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        raw.pause();
        done();
      }
    };
    raw.on('data', onData);
    raw.once('end', done);
    raw.once('error', done);
    raw.once('close', done);
    raw.resume();
  });
}
