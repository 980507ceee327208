import http from 'node:http';
import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * HTTP spoken by hand over a TCP socket to a listening app, for what `inject` cannot send: request
 * targets in absolute form, broken framing, oversized headers, bodies that stop half way.
 */

/** Starts the app on a free loopback port and answers the port. */
export async function listenOnLoopback(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface RawResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with ', ' (set-cookie with '\n'). */
  headers: Record<string, string>;
  body: string;
}

/** Parses the first response in `text`, or undefined while it is incomplete. */
export function parseResponse(text: string): RawResponse | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const status = Number(statusLine.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const previous = headers[name];
    headers[name] =
      previous === undefined ? value : `${previous}${name === 'set-cookie' ? '\n' : ', '}${value}`;
  }
  const rest = text.slice(end + 4);
  const length = headers['content-length'];
  if (length !== undefined) {
    // Content-Length counts bytes; the body is read as UTF-8.
    const bytes = Buffer.from(rest);
    if (bytes.length < Number(length)) return undefined;
    return { status, headers, body: bytes.subarray(0, Number(length)).toString() };
  }
  if (headers['transfer-encoding'] === 'chunked') {
    const body = dechunk(rest);
    return body === undefined ? undefined : { status, headers, body };
  }
  return undefined;
}

function dechunk(text: string): string | undefined {
  let body = '';
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    if (lineEnd === -1) return undefined;
    const size = Number.parseInt(text.slice(at, lineEnd), 16);
    if (size === 0) return body;
    const start = lineEnd + 2;
    if (text.length < start + size + 2) return undefined;
    body += text.slice(start, start + size);
    at = start + size + 2;
  }
}

/** Opens a connection; `response` resolves with the first complete answer, or on close. */
export function rawConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  let received = '';
  const response = new Promise<RawResponse | undefined>((resolve) => {
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const parsed = parseResponse(Buffer.from(received, 'latin1').toString());
      if (parsed) resolve(parsed);
    });
    socket.on('close', () => resolve(parseResponse(Buffer.from(received, 'latin1').toString())));
    socket.on('error', () => undefined);
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return { socket, response, closed };
}

/** Sends `text` as it is on a new connection and answers the response. */
export async function rawRequest(
  port: number,
  text: string | Buffer,
  timeoutMs = 5000,
): Promise<RawResponse> {
  const { socket, response } = rawConnection(port);
  socket.write(text);
  const timer = setTimeout(() => socket.destroy(), timeoutMs);
  try {
    const res = await response;
    if (!res) throw new Error('no response');
    return res;
  } finally {
    clearTimeout(timer);
    socket.destroy();
  }
}

/** A request to `host` on the server, with the cookies kept in `jar` (the anti-forgery one too). */
export function requestWithJar(
  port: number,
  host: string,
  jar: Map<string, string>,
  method: string,
  target: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const xsrf = jar.get('XSRF-TOKEN');
  const headers: Record<string, string> = {
    host,
    cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(method !== 'GET' && xsrf ? { 'x-xsrf-token': decodeURIComponent(xsrf) } : {}),
  };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: target, headers }, (res) => {
      for (const cookie of res.headers['set-cookie'] ?? []) {
        const [pair = ''] = cookie.split(';');
        const at = pair.indexOf('=');
        jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
