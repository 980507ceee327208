import { STATUS_CODES } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, problemOf, Unavailable } from '../../server/errors.ts';
import { type Permit, permits } from '../../server/permits.ts';
import type { SharedCounters } from '../../server/redis.ts';
import { requestPath } from '../../server/request-path.ts';

/** Bodies above this count as large: they hold tens of megabytes while they are decoded. */
export const LARGE_BODY_BYTES = 1024 * 1024;
const RETRY_AFTER_SECONDS = 5;
/**
 * How much of a large body must arrive within each idle window: a body that stops, or trickles in
 * slower than this (32 KiB in 5 s is about 50 kbit/s), gives its slot back.
 */
export const MIN_BODY_PROGRESS_BYTES = 32 * 1024;

export interface GateOptions {
  /** Large bodies read at once: across all processes with Redis, in this process without. */
  max: number;
  /** A large body that brings less than `MIN_BODY_PROGRESS_BYTES` in this long is cut off. */
  idleTimeoutMs: number;
  /** Redis (`REDIS_URL`): the slots are shared by every process (decision 032). */
  shared?: SharedCounters | undefined;
  /** How long a slot held in Redis outlives a process that died holding it. */
  leaseMs?: number;
}

/**
 * Lets at most `max` large bodies be read and processed at once across the form endpoints. One
 * more is answered 503 with Retry-After before its body is parsed; its bytes are read and
 * dropped first (up to the route's limit), so the client gets the answer instead of a reset
 * connection while it is still sending.
 *
 * A slot is held only while its body keeps coming: one that goes quiet or trickles (headers
 * announcing 50 MB, then nothing) is answered 408 and its connection closed after
 * `idleTimeoutMs`, so a few idle connections cannot hold every slot and starve all uploads.
 *
 * With Redis the slots are permits in Redis shared by every process, each a lease renewed while
 * its body is read and processed: a process that dies holding slots frees them within one lease.
 * While Redis is down, each process counts its own slots (see `permits`).
 */
export function largeBodyGate(options: GateOptions) {
  const { idleTimeoutMs } = options;
  const slots = permits(options.shared, {
    name: 'forms-large-bodies',
    max: options.max,
    ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}),
  });
  const holding = new Map<FastifyRequest, { permit: Permit; stopWatching: () => void }>();
  const release = async (request: FastifyRequest) => {
    const held = holding.get(request);
    if (!held) return;
    holding.delete(request);
    held.stopWatching();
    await held.permit.release();
  };
  return {
    /** Slots this process holds. */
    get inFlight() {
      return slots.held;
    },
    onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      const length = Number(request.headers['content-length']);
      const large = !Number.isFinite(length) || length > LARGE_BODY_BYTES;
      if (!large) return;
      const permit = await slots.acquire();
      if (permit && request.raw.destroyed) {
        // Aborted while the permit was asked for: its abort hook found nothing to release.
        await permit.release();
        return;
      }
      if (permit) {
        holding.set(request, {
          permit,
          stopWatching: watchBody(request, idleTimeoutMs, () => {
            request.log.info('large body idle or too slow; slot freed');
            void release(request);
            answerTimeout(request, reply);
          }),
        });
        return;
      }
      await drain(request, request.routeOptions.bodyLimit ?? LARGE_BODY_BYTES, idleTimeoutMs);
      reply.header('connection', 'close');
      throw new Unavailable('Too many uploads at once. Try again shortly.', RETRY_AFTER_SECONDS);
    },
    release,
  };
}

/**
 * Calls `onIdle` once when less than `MIN_BODY_PROGRESS_BYTES` of the request's body has arrived
 * in `idleTimeoutMs`; stops by itself when the body is complete. Answers the function that stops
 * watching. Progress is read from the socket's byte count, so the body stream is left untouched
 * for the body parser.
 */
function watchBody(request: FastifyRequest, idleTimeoutMs: number, onIdle: () => void) {
  const socket = request.raw.socket as { bytesRead?: number } | undefined;
  if (!socket || typeof socket.bytesRead !== 'number') return () => {};
  let mark = socket.bytesRead;
  let markedAt = Date.now();
  const timer = setInterval(
    () => {
      if (request.raw.complete || request.raw.destroyed) return clearInterval(timer);
      const read = socket.bytesRead ?? 0;
      if (read - mark >= MIN_BODY_PROGRESS_BYTES) {
        mark = read;
        markedAt = Date.now();
      } else if (Date.now() - markedAt >= idleTimeoutMs) {
        clearInterval(timer);
        onIdle();
      }
    },
    Math.max(50, Math.floor(idleTimeoutMs / 5)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * 408 problem+json on the connection, which is then closed. The body parser is still waiting for
 * the rest of the body, so the answer is written to the socket directly and the reply is taken
 * over (hijacked): when the parser gives up on the closed connection, nothing is sent twice.
 */
function answerTimeout(request: FastifyRequest, reply: FastifyReply) {
  const res = reply.raw;
  if (!res.headersSent && !res.writableEnded) {
    reply.hijack();
    const problem = problemOf(
      new AppError(408, 'request-timeout', 'Request timeout', 'The body stopped arriving.'),
      requestPath(request),
    );
    const body = JSON.stringify({ ...problem, isSuccess: false });
    res.writeHead(408, STATUS_CODES[408], {
      'content-type': 'application/problem+json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
      connection: 'close',
    });
    res.end(body);
  }
  // Stop reading what is left of the body.
  request.raw.socket?.destroySoon?.();
  setTimeout(() => request.raw.socket?.destroy(), 1000).unref();
}

/** Reads and drops a refused body, up to `limit`, or until it stops arriving. */
function drain(request: FastifyRequest, limit: number, idleTimeoutMs: number): Promise<void> {
  const raw = request.raw;
  return new Promise((resolve) => {
    let received = 0;
    let idle: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(idle);
      raw.removeListener('data', onData);
      resolve();
    };
    const waitForMore = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        raw.pause();
        done();
      }, idleTimeoutMs);
      idle.unref();
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        raw.pause();
        done();
        return;
      }
      waitForMore();
    };
    raw.on('data', onData);
    raw.once('end', done);
    raw.once('error', done);
    raw.once('close', done);
    waitForMore();
    raw.resume();
  });
}
