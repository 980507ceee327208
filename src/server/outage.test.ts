import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseOutage, logDegraded } from './outage.ts';

/** A logger that keeps what it was told, by level. */
function recordingLog() {
  const lines: { level: string; message: string }[] = [];
  const at =
    (level: string) =>
    (_obj: unknown, message = '') =>
      lines.push({ level, message });
  const log = {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    fatal: at('fatal'),
    child: () => log,
    level: 'debug',
    silent: () => {},
  } as unknown as FastifyBaseLogger;
  return { log, lines };
}

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('logDegraded', () => {
  const outages: DatabaseOutage[] = [];
  afterEach(() => {
    for (const outage of outages.splice(0)) outage.close();
  });

  function requestWith() {
    const server = recordingLog();
    const request = recordingLog();
    const outage = new DatabaseOutage(() => Promise.reject(refused()), server.log);
    outages.push(outage);
    const fake = {
      log: request.log,
      server: { databaseOutage: outage },
    } as unknown as FastifyRequest;
    return { fake, outage, serverLines: server.lines, requestLines: request.lines };
  }

  it('an unreachable database begins the outage once and each request logs at debug only', () => {
    const { fake, outage, serverLines, requestLines } = requestWith();
    for (let i = 0; i < 3; i++) logDegraded(fake, refused(), 'navigation tree unavailable');
    expect(outage.active).toBe(true);
    expect(serverLines.filter((l) => l.message === 'database unavailable')).toHaveLength(1);
    expect(requestLines.map((l) => l.level)).toEqual(['debug', 'debug', 'debug']);
  });

  it('any other failure is a warning and begins no outage', () => {
    const { fake, outage, serverLines, requestLines } = requestWith();
    logDegraded(fake, new Error('relation "nav" does not exist'), 'navigation tree unavailable');
    expect(outage.active).toBe(false);
    expect(serverLines).toEqual([]);
    expect(requestLines).toEqual([{ level: 'warn', message: 'navigation tree unavailable' }]);
  });
});
