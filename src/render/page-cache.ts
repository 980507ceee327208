import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { COUNTS_STALE_MS, type ContentVersion } from '../db/content-changes.ts';
import { fillHoles, findHoles, type HoleSpan } from './holes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whole pages anonymous visitors share (decision 033). */
    pageCache: PageCache;
  }
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * How hard kept pages are compressed: a shared page once for many visitors, a visitor's own page
 * (which lives seconds) about as hard as the server compresses any answer.
 */
const SHARED_COMPRESSION = { brotli: 9, gzip: 9 };
const OWN_COMPRESSION = { brotli: 4, gzip: 6 };

/** A visitor who sees a shared page as it is kept. */
const GUEST: PageVisitor = { variant: '', fills: () => ({}) };

/** Cookies that do not change a page: the session's own and its anti-forgery token. */
const NEUTRAL_COOKIES = new Set(['kattaus_session', 'XSRF-TOKEN']);

/**
 * How long after changes stopped being heard (the database went away) the last good copies may
 * still be served while the database is unavailable (decision 140): a restart or a failover takes
 * seconds to a minute; after this the pages answer 503 like everything else, and the copies are
 * dropped.
 */
export const STALE_IF_ERROR_MS = 15 * 60_000;

/**
 * How long a visitor's own page (the cart page, the checkout) may be answered again from memory
 * at the most (decision 163): what it shows that moves by time alone (a delivery day's order
 * cut-off, a held time's or a coupon's end) is then as old as a page the visitor loaded this
 * long ago.
 */
export const OWN_PAGE_MS = 5_000;

/** One page as every anonymous visitor gets it, with its compressed forms made once. */
interface Entry {
  version: number;
  /** When the page's making began (ms since the epoch): a like counted after it makes it due. */
  madeAt: number;
  status: number;
  contentType: string;
  html: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  /** The page's holes (decision 157), found when it was kept; none on a page filled for a visitor. */
  holes: HoleSpan[];
  /** A visitor's own page (decision 163): what it was made for, and until when it may answer. */
  own?: { visitors: number; until: number; cacheControl: string };
}

/** The versions a page was made at, read before it was begun. */
export interface Made {
  version: number;
  visitors: number;
  at: number;
}

/**
 * The visitor's side of a shared page (decision 157): `variant` names what they see in its holes
 * ('' for a guest, who gets the page as kept), `fills` renders their fragments.
 */
export interface PageVisitor {
  variant: string;
  fills: () => Record<string, string>;
}

export interface PageCacheOptions {
  /** What all entries may hold together, compressed forms included; 0 turns the cache off. */
  maxBytes: number;
  version: ContentVersion;
}

/**
 * Whole pages that visitors share (decisions 033 and 157). A request may be answered from it,
 * and its answer kept in it, only when nothing about the visitor but the page's holes can change
 * the page:
 *
 * - a GET or HEAD of a content page, with no cookie but the session's and its anti-forgery token;
 * - kept only when the page was made without asking the session anything (`Session.asked`), set
 *   no cookie of its own, was marked shareable by its loader, its holes are found, and its HTML
 *   holds neither the session's token nor its anti-forgery token (a last guard against a form
 *   that embeds one);
 * - a visitor who is not a guest (a cart, a login) gets the kept page with their fragments in its
 *   holes, kept as a variant named by what the fragments show (`serve`).
 *
 * Entries are keyed by protocol, host and path with query (the site, the language and the links
 * to other sites follow from them) and carry the content version they were made at: after any
 * content change (decision 033: every committed write outside the shop's private tables, in any
 * process) they are void. Memory is bounded by an LRU of `maxBytes`.
 */
export class PageCache {
  private readonly entries: LRUCache<string, Entry>;
  readonly enabled: boolean;
  hits = 0;
  misses = 0;
  /** Pages served from a last good copy while the database was unavailable. */
  staleHits = 0;
  /**
   * Since when (ms since the epoch) other processes' changes cannot be heard: the entries are the
   * last good copies from before, no longer current but kept for `serveStale`. Undefined while
   * the content version is heard.
   */
  private unheardSince: number | undefined;
  /** Requests of the page route that may get a last good copy (`offer`). */
  private readonly offered = new WeakSet<FastifyRequest>();
  /** Requests whose page its visitor may get again from memory, with until when (`keepForVisitor`). */
  private readonly ownUntil = new WeakMap<FastifyRequest, number>();
  /** A visitor's own pages answered from memory (decision 163). */
  ownHits = 0;

  /**
   * Visitors' own pages (decision 163), apart from the shared ones so that many shoppers cannot
   * push the pages everybody shares out: a quarter of the budget, each entry for `OWN_PAGE_MS`.
   */
  private readonly own: LRUCache<string, Entry>;

  constructor(private readonly options: PageCacheOptions) {
    this.enabled = options.maxBytes > 0;
    const sizeCalculation = (entry: Entry) =>
      entry.html.length + (entry.br?.length ?? 0) + (entry.gzip?.length ?? 0) + 200;
    this.entries = new LRUCache<string, Entry>({
      maxSize: Math.max(1, options.maxBytes),
      sizeCalculation,
    });
    this.own = new LRUCache<string, Entry>({
      maxSize: Math.max(1, Math.floor(options.maxBytes / 4)),
      sizeCalculation,
      ttl: OWN_PAGE_MS,
    });
    options.version.onChange((_version, reason) => {
      // The database went away: nothing is known to have changed; the entries stay as the last
      // good copies (no longer served as current, their version has moved).
      if (reason === 'unheard') {
        this.unheardSince ??= Date.now();
        return;
      }
      // A change, or hearing again after a gap in which changes may have been missed.
      this.unheardSince = undefined;
      this.entries.clear();
      this.own.clear();
    });
  }

  /** Bytes held now (compressed forms included). */
  get size(): number {
    return this.entries.calculatedSize;
  }

  get count(): number {
    return this.entries.size;
  }

  /**
   * The request's key when it may be answered from the cache and its answer kept; undefined
   * otherwise. A visitor with a stored session (a cart, a login) shares the page too: what the
   * page shows of them stands in its holes, filled per request (decision 157).
   */
  async keyOf(request: FastifyRequest): Promise<string | undefined> {
    if (!this.enabled) return undefined;
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    for (const name of Object.keys(request.cookies ?? {})) {
      if (!NEUTRAL_COOKIES.has(name)) return undefined;
    }
    // Every change committed anywhere before this request is known before the cache is asked.
    await this.options.version.sync();
    if (!this.options.version.complete) return undefined;
    return this.keyFor(request);
  }

  /**
   * A like count rose after the page was begun and the page is `COUNTS_STALE_MS` old: it is made
   * again (decision 053). A storm of likes remakes each page at most once in that time, instead of
   * voiding every page of every site on each like.
   */
  private countsDue(entry: Entry): boolean {
    return (
      this.options.version.countsChangedAt >= entry.madeAt &&
      Date.now() - entry.madeAt >= COUNTS_STALE_MS
    );
  }

  /**
   * Marks a request of the page route as one that may get the last good copy of its page when
   * the database is unavailable (`serveStale`, from the error handler).
   */
  offer(request: FastifyRequest): void {
    if (this.enabled) this.offered.add(request);
  }

  /**
   * Answers an offered request with the last good copy of its page while the database is
   * unavailable, as a CDN's stale-if-error does (decision 140); false when there is none. Only for
   * requests that could share a page at all (GET or HEAD, no cookie but the session's and its
   * anti-forgery token): the session cannot be read now, and a copy holds nothing of anyone's, so
   * a visitor with a stored session gets the shared page too. Copies are served for at most
   * `STALE_IF_ERROR_MS` after changes stopped being heard, never kept downstream (`no-store`), and
   * are dropped once changes are heard again.
   */
  serveStale(request: FastifyRequest, reply: FastifyReply): boolean {
    if (!this.offered.has(request)) return false;
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    for (const name of Object.keys(request.cookies ?? {})) {
      if (!NEUTRAL_COOKIES.has(name)) return false;
    }
    const now = Date.now();
    if (this.unheardSince !== undefined && now - this.unheardSince > STALE_IF_ERROR_MS) {
      this.entries.clear();
      return false;
    }
    const entry = this.entries.get(this.keyFor(request));
    if (!entry) return false;
    this.staleHits += 1;
    const goodUntil = this.unheardSince ?? now;
    reply
      .status(entry.status)
      .type(entry.contentType)
      .header('cache-control', 'no-store')
      .header('age', String(Math.max(0, Math.floor((now - goodUntil) / 1000))))
      .header('x-page-cache', 'stale');
    void reply.send(entry.html);
    return true;
  }

  private keyFor(request: FastifyRequest): string {
    return `${request.protocol}://${request.headers.host ?? ''}${request.url}`;
  }

  /** The entry kept for `key` while it is current. */
  private current(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== this.options.version.current || this.countsDue(entry)) {
      return undefined;
    }
    return entry;
  }

  /**
   * Answers from the cache; false when it has no current entry for `key`. A visitor who is not
   * a guest gets the page with their fragments in its holes: filled from the kept page the first
   * time a variant is asked for, then kept as that variant (compressed once, like the page).
   * Two visitors of one variant see the same bytes; a variant holds only what its name says.
   */
  serve(
    key: string,
    request: FastifyRequest,
    reply: FastifyReply,
    visitor: PageVisitor = GUEST,
  ): boolean {
    if (visitor.variant === '') return this.send(this.current(key), request, reply);
    const variantKey = `${key}\n${visitor.variant}`;
    const kept = this.current(variantKey);
    if (kept) return this.send(kept, request, reply);
    const base = this.current(key);
    if (!base) return this.send(undefined, request, reply);
    const filled: Entry = {
      ...base,
      html: this.fill(base.html, base.holes, visitor),
      br: undefined,
      gzip: undefined,
      holes: [],
    };
    this.keep(variantKey, filled);
    return this.send(filled, request, reply);
  }

  /**
   * The page made for a request, as the visitor gets it: the kept page's bytes for a guest,
   * their fragments in its holes otherwise. A page whose holes cannot be found is an error: it
   * would show the guest's header to a customer.
   */
  fillFor(html: Buffer, visitor: PageVisitor): Buffer {
    if (visitor.variant === '') return html;
    const holes = findHoles(html.toString('utf8'));
    if (!holes) throw new Error('page holes not found');
    return this.fill(html, holes, visitor);
  }

  private fill(html: Buffer, holes: HoleSpan[], visitor: PageVisitor): Buffer {
    return Buffer.from(fillHoles(html.toString('utf8'), holes, visitor.fills()), 'utf8');
  }

  private send(entry: Entry | undefined, request: FastifyRequest, reply: FastifyReply): boolean {
    if (!entry) {
      this.misses += 1;
      return false;
    }
    if (entry.own) this.ownHits += 1;
    else this.hits += 1;
    const accepts = String(request.headers['accept-encoding'] ?? '');
    reply
      .status(entry.status)
      .type(entry.contentType)
      // As the page made afresh is sent (send-html.ts); the session plugin makes it private
      // when the answer sets a cookie.
      .header('cache-control', entry.own?.cacheControl ?? 'no-cache')
      .header('vary', 'accept-encoding')
      .header('x-page-cache', entry.own ? 'own' : 'hit');
    let body = entry.html;
    if (entry.br && /\bbr\b/.test(accepts)) {
      reply.header('content-encoding', 'br');
      body = entry.br;
    } else if (entry.gzip && /\bgzip\b/.test(accepts)) {
      reply.header('content-encoding', 'gzip');
      body = entry.gzip;
    }
    void reply.send(body);
    return true;
  }

  /**
   * Keeps a page made for `key` when nothing in it or around it belongs to the visitor; the
   * version is the one read before the page was made, so a page made from content that changed
   * meanwhile is void at once.
   */
  store(
    key: string,
    made: { version: number; at: number },
    request: FastifyRequest,
    reply: FastifyReply,
    page: { status: number; html: Buffer; shareable: boolean },
  ): void {
    const { version } = made;
    if (!page.shareable || page.status !== 200) return;
    if (version !== this.options.version.current || !this.options.version.complete) return;
    if (reply.getHeader('set-cookie') !== undefined) return;
    const session = request.session;
    // Made without asking the session anything: the same for every visitor but for its holes.
    if (session?.asked) return;
    if (session) {
      const text = page.html.toString('latin1');
      if (text.includes(session.token) || text.includes(session.derive('xsrf'))) return;
    }
    const holes = findHoles(page.html.toString('utf8'));
    if (!holes) return;
    this.keep(key, {
      version,
      madeAt: made.at,
      status: page.status,
      contentType: 'text/html; charset=utf-8',
      html: page.html,
      holes,
    });
  }

  /**
   * The key of a visitor's own page (decision 163): the request's page with the session it was
   * made for, so that no other session's request can find it. Undefined when the request has no
   * session cookie, any other cookie (a notice of a refused post), or asks with another method.
   */
  async ownKeyOf(request: FastifyRequest): Promise<string | undefined> {
    const session = request.session;
    if (!this.enabled || !session || session.isNew) return undefined;
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    for (const name of Object.keys(request.cookies ?? {})) {
      if (!NEUTRAL_COOKIES.has(name)) return undefined;
    }
    await this.options.version.sync();
    if (!this.options.version.complete) return undefined;
    return `${this.keyFor(request)}\n@${session.id}`;
  }

  /**
   * Says that the page being made for `request` shows its visitor only what the tables of
   * visitors and content hold and the clock: its visitor may get it again from memory until
   * `until` (at most `OWN_PAGE_MS` after it was begun), unless any of those tables changes first.
   * A page that shows a notice, or anything else read once, must not say so.
   */
  keepForVisitor(request: FastifyRequest, until = Number.POSITIVE_INFINITY): void {
    if (this.enabled) this.ownUntil.set(request, until);
  }

  /** The versions to make a page at: read before it is begun (see `store`, `storeOwn`). */
  made(): Made {
    const version = this.options.version;
    return { version: version.current, visitors: version.visitors, at: Date.now() };
  }

  /**
   * Answers a visitor's request with their own page from memory (decision 163); false when there
   * is none made since the last change to content or to any visitor's tables, or it is too old.
   */
  serveOwn(key: string, request: FastifyRequest, reply: FastifyReply): boolean {
    const entry = this.own.get(key);
    const version = this.options.version;
    if (
      !entry?.own ||
      entry.version !== version.current ||
      entry.own.visitors !== version.visitors ||
      Date.now() >= entry.own.until
    ) {
      return false;
    }
    return this.send(entry, request, reply);
  }

  /**
   * Keeps a page made for its visitor, as they got it, when its maker said it may be
   * (`keepForVisitor`), it answered 200 without setting a cookie, and nothing it was made from
   * changed while it was made.
   */
  storeOwn(
    key: string,
    made: Made,
    request: FastifyRequest,
    reply: FastifyReply,
    page: { status: number; html: Buffer },
  ): void {
    const until = this.ownUntil.get(request);
    const version = this.options.version;
    if (until === undefined || page.status !== 200) return;
    if (made.version !== version.current || made.visitors !== version.visitors) return;
    if (!version.complete || reply.getHeader('set-cookie') !== undefined) return;
    this.keep(
      key,
      {
        version: made.version,
        madeAt: made.at,
        status: 200,
        contentType: 'text/html; charset=utf-8',
        html: page.html,
        holes: [],
        own: {
          visitors: made.visitors,
          until: Math.min(until, made.at + OWN_PAGE_MS),
          cacheControl: String(reply.getHeader('cache-control') ?? 'no-cache'),
        },
      },
      this.own,
      OWN_COMPRESSION,
    );
  }

  /** Keeps an entry and compresses it once, in the background. */
  private keep(
    key: string,
    entry: Entry,
    into = this.entries,
    compression = SHARED_COMPRESSION,
  ): void {
    into.set(key, entry);
    // Compressed once, in the background; until then hits are sent uncompressed (or compressed
    // by the server's compression on the way, as any answer).
    void Promise.all([
      brotli(entry.html, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: compression.brotli,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: entry.html.length,
        },
      }),
      gzipAsync(entry.html, { level: compression.gzip }),
    ])
      .then(([br, gz]) => {
        if (into.peek(key) !== entry) return;
        entry.br = br;
        entry.gzip = gz;
        // Set again, so the LRU counts the compressed forms in the entry's size.
        into.set(key, entry);
      })
      .catch(() => undefined);
  }
}
