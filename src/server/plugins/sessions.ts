import { createHash, createHmac, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, Transaction } from '../../db/client.ts';
import { startJob } from '../jobs.ts';
import { routedPath } from '../request-path.ts';
import { sessions } from '../tables.ts';

export const SESSION_COOKIE = 'kattaus_session';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const CLEAN_INTERVAL_MS = 60 * 60 * 1000;

/**
 * A visitor's session. The browser keeps a random token in an HttpOnly cookie; the database row
 * (keyed by the token's hash) is written only when a feature stores something.
 *
 * The first store under a token gets a fresh token: a token the server has no row for may have
 * been planted by someone else (session fixation), so data is never attached to it.
 */
export class Session {
  private currentToken: string;
  private currentId: string;
  private loaded: Record<string, unknown> | undefined;
  private persisted = false;
  /** True when the response must carry the session cookie (new, rotated or renewed). */
  cookieChanged: boolean;
  /** True once the request has read a stored session: its answer may show that visitor's data. */
  readStored = false;
  /**
   * True once anything asked for the session's data (`get`), stored or not: a page made so may
   * differ for another visitor, and no one else may be given it (decision 157).
   */
  asked = false;

  constructor(
    token: string,
    readonly isNew: boolean,
    private readonly db: Database,
    private readonly ttlMs: number,
    private readonly secret: string,
  ) {
    this.currentToken = token;
    this.currentId = hashToken(token);
    this.cookieChanged = isNew;
  }

  get token(): string {
    return this.currentToken;
  }

  /** The row key: SHA-256 of the token. */
  get id(): string {
    return this.currentId;
  }

  /** A value derived from the session and the server secret, for purpose-bound tokens. */
  derive(purpose: string): string {
    return createHmac('sha256', this.secret)
      .update(`${purpose}:${this.currentToken}`)
      .digest('base64url');
  }

  /** The session's data; once a stored session is read, the answer is this visitor's own. */
  async get(): Promise<Record<string, unknown>> {
    this.asked = true;
    const data = await this.peek();
    if (this.persisted) this.readStored = true;
    return data;
  }

  /**
   * The session's data without making the answer the visitor's own: for the few named fragments
   * a shared page leaves open and fills per request (decision 157), which are never kept.
   */
  async peek(): Promise<Record<string, unknown>> {
    if (this.loaded) return this.loaded;
    if (this.isNew) {
      this.loaded = {};
      return this.loaded;
    }
    const [row] = await this.db
      .select({ data: sessions.data })
      .from(sessions)
      .where(and(eq(sessions.id, this.currentId), gt(sessions.expiresAt, sql`now()`)));
    this.persisted = row !== undefined;
    this.loaded = row?.data ?? {};
    return this.loaded;
  }

  /** Whether a stored session stands behind the token (after `get` or `peek`). */
  get stored(): boolean {
    return this.persisted;
  }

  /** Stores the session's data and renews its lifetime (and the cookie's). */
  async set(data: Record<string, unknown>): Promise<void> {
    await this.get();
    if (!this.persisted) this.rotate();
    const expiresAt = new Date(Date.now() + this.ttlMs);
    await this.db
      .insert(sessions)
      .values({ id: this.currentId, data, expiresAt })
      .onConflictDoUpdate({ target: sessions.id, set: { data, expiresAt } });
    this.loaded = data;
    this.persisted = true;
    this.cookieChanged = true;
  }

  /**
   * Moves the session to a new token, as after logging in (session fixation: a token someone
   * planted before the login is worthless after it); the old token stops working. `data` replaces
   * the session's data (the current data by default). In one transaction: the new row is written,
   * then `move` runs (it may re-point rows that refer to the old session, such as its cart, to the
   * new one), then the old row is deleted. Nothing changes when `move` throws.
   */
  async regenerate(
    data?: Record<string, unknown>,
    move?: (tx: Transaction, oldId: string | null, newId: string) => Promise<void>,
  ): Promise<void> {
    const current = await this.get();
    const next = data ?? current;
    const oldId = this.persisted ? this.currentId : null;
    const token = newToken();
    const newId = hashToken(token);
    const expiresAt = new Date(Date.now() + this.ttlMs);
    await this.db.transaction(async (tx) => {
      await tx.insert(sessions).values({ id: newId, data: next, expiresAt });
      if (move) await move(tx, oldId, newId);
      if (oldId) await tx.delete(sessions).where(eq(sessions.id, oldId));
    });
    this.currentToken = token;
    this.currentId = newId;
    this.loaded = next;
    this.persisted = true;
    this.readStored = true;
    this.cookieChanged = true;
  }

  async clear(): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.id, this.currentId));
    this.loaded = {};
    this.persisted = false;
  }

  private rotate(): void {
    this.currentToken = newToken();
    this.currentId = hashToken(this.currentToken);
    this.cookieChanged = true;
  }
}

function newToken(): string {
  return randomBytes(32).toString('base64url');
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Whether the request comes from a page framed by another site: the shop's cart-sync frame inside
 * a brand site (shop spec §4). The frame's own document says so by its fetch metadata, its cart
 * calls by a header of their own (a same-origin fetch inside the frame cannot be told apart
 * otherwise; the header changes only how the sender's own cookies are set).
 */
export function isFramedRequest(request: FastifyRequest): boolean {
  const h = request.headers;
  return (
    (h['sec-fetch-dest'] === 'iframe' && h['sec-fetch-site'] === 'cross-site') ||
    h['x-kattaus-frame'] === 'cart-sync'
  );
}

/**
 * SameSite and Secure of the session's cookies. Lax normally. In a frame under another site
 * browsers send no Lax cookie, and block third-party cookies (Chromium, Safari, Firefox), but
 * keep partitioned ones (CHIPS): there the cookies are `SameSite=None; Secure; Partitioned`, a
 * jar of the frame's own per top-level site. Secure is accepted over HTTPS and on `localhost`
 * and its subdomains (potentially trustworthy origins), so local development works over HTTP.
 */
export function cookieSiteOptions(request: FastifyRequest) {
  if (isFramedRequest(request)) {
    return { sameSite: 'none' as const, secure: true, partitioned: true };
  }
  return { sameSite: 'lax' as const, secure: request.protocol === 'https' };
}

export function sessionCookieOptions(request: FastifyRequest, maxAgeSeconds: number) {
  return {
    path: '/',
    httpOnly: true,
    ...cookieSiteOptions(request),
    maxAge: maxAgeSeconds,
  };
}

/** Requests that carry no session: files and health checks. */
export function wantsSession(request: FastifyRequest): boolean {
  return (
    request.routeOptions.config?.session !== false && !routedPath(request).startsWith('/assets/')
  );
}

/**
 * An answer that sets a cookie, or that was made from a stored session, belongs to one visitor:
 * a shared cache must never keep it (it could hand one visitor's session token, or their cart, to
 * the next). Its `Cache-Control` becomes `private` (`public` and `s-maxage` dropped), unless it is
 * already `private` or `no-store`. Called on the way out, after the last cookie is set.
 */
export function keepPersonalAnswersPrivate(request: FastifyRequest, reply: FastifyReply): void {
  if (reply.getHeader('set-cookie') === undefined && !request.session?.readStored) return;
  const directives = String(reply.getHeader('cache-control') ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  if (directives.some((d) => /^(private|no-store)$/i.test(d))) return;
  const kept = directives.filter((d) => !/^(public|s-maxage=.*)$/i.test(d));
  reply.header('cache-control', ['private', ...kept].join(', '));
}

export const sessionsPlugin = fp(
  async (app: FastifyInstance) => {
    const ttlSeconds = app.config.sessionTtlDays * 24 * 60 * 60;
    app.decorateRequest('session', null as never);
    app.addHook('onRequest', async (request: FastifyRequest) => {
      if (!wantsSession(request)) return;
      const existing = request.cookies[SESSION_COOKIE];
      const valid = existing !== undefined && TOKEN_PATTERN.test(existing);
      const token = valid ? existing : newToken();
      request.session = new Session(
        token,
        !valid,
        app.db,
        ttlSeconds * 1000,
        app.config.sessionSecret,
      );
    });
    app.addHook('onSend', async (request, reply) => {
      const session = request.session;
      if (session?.cookieChanged) {
        reply.setCookie(SESSION_COOKIE, session.token, sessionCookieOptions(request, ttlSeconds));
      }
    });

    startJob(app, {
      name: 'session-clean-up',
      everyMs: CLEAN_INTERVAL_MS,
      run: async (db) => {
        await db.delete(sessions).where(lt(sessions.expiresAt, sql`now()`));
      },
    });
  },
  { name: 'sessions', dependencies: ['@fastify/cookie'] },
);
