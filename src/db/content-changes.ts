import { randomUUID } from 'node:crypto';

/**
 * Tables whose rows never show on a page that anonymous visitors share: sessions, carts, orders,
 * customers, form submissions and the like. A write to any other table (content, products,
 * stock, reviews, prices, images, search documents, or one added later) is a content change.
 * The list names what is safe to leave out, so a table nobody thought of invalidates.
 */
const PRIVATE_TABLES = new Set([
  'sessions',
  'carts',
  'cart_line_items',
  'cart_handovers',
  'cart_coupons',
  'cart_gift_cards',
  'customers',
  'password_reset_tokens',
  'customer_registrations',
  'form_submissions',
  'form_submission_files',
  'mail_outbox',
  'used_captcha_tokens',
  'checkout_holds',
  'checkout_hold_lines',
  'orders',
  'order_lines',
  // Refunds, the test bank's own books and staff's order timeline (decisions 122, 141).
  'order_refunds',
  'order_events',
  'test_bank_payments',
  'test_bank_refunds',
  'gift_card_adjustments',
  'order_coupons',
  'order_payments',
  'order_gift_cards',
  'coupon_customer_uses',
  'delivery_slot_bookings',
  // Who liked what; the count it raises (recipes, products) is content.
  'content_likes',
  // Marketing lists (decision 038): addresses, their mails and campaign entries; the campaigns
  // and the news-release categories themselves show on pages.
  'subscriptions',
  'subscription_mails',
  'campaign_participations',
  // A saved lunch menu shows only at its own `?menuId=` address, which answers 404 (never kept)
  // until the save (decision 042); the votes' totals only in the vote's answer (decision 044).
  'lunch_menus',
  'school_votes',
  // The back office's staff, sessions, roles and audit log (decisions 130–132).
  'staff_members',
  'staff_recovery_codes',
  'staff_tokens',
  'staff_sessions',
  'staff_roles',
  'staff_grants',
  'staff_passkeys',
  'audit_log',
  // The customer-service inbox's handling of submissions (decision 137).
  'submission_handling',
  'submission_events',
  // Drafts, versions and who has an item open (decision 162): a site shows only the live rows,
  // which publishing writes; a draft save must not void every cached page.
  'content_items',
  'content_versions',
  'content_presence',
  // Scheduled publishing (decision 167): the order waits here; its run writes the live rows.
  'content_schedules',
]);

const WRITE =
  /^\s*(insert\s+into|update|delete\s+from|truncate(?:\s+table)?|merge\s+into)\s+(?:only\s+)?((?:"[^"]+"|[\w.]+)(?:\s*,\s*(?:"[^"]+"|[\w.]+))*)/i;
const SELECT = /^\s*select\b/i;
const DDL = /^\s*(create|alter|drop|comment|cluster|refresh)\b/i;
const TRANSACTION_END = /^\s*(commit|end|rollback|abort)\b/i;

/**
 * The tables a statement writes: `[]` for a plain read, `'any'` for a schema change or a write
 * the pattern cannot read (a data-modifying CTE or another form it does not know), to be safe.
 */
function writtenTables(statement: string): string[] | 'any' {
  // Most statements are plain reads: answered without looking further.
  if (SELECT.test(statement)) return [];
  if (DDL.test(statement)) return 'any';
  const match = WRITE.exec(statement);
  if (!match) {
    return /\b(insert\s+into|update\s+\S+\s+set|delete\s+from|truncate)\b/i.test(statement)
      ? 'any'
      : [];
  }
  return (match[2] ?? '').split(',').map((t) => t.trim().replace(/"/g, '').split('.').pop() ?? '');
}

/**
 * Whether a statement may change what a shared page shows: a write to a table not in
 * `PRIVATE_TABLES`, schema changes, or a write the pattern cannot read (counted as a change).
 */
export function changesContent(statement: string): boolean {
  const tables = writtenTables(statement);
  if ((tables !== 'any' && tables.length === 0) || raisesCountOnly(statement)) return false;
  return tables === 'any' || tables.some((t) => !PRIVATE_TABLES.has(t));
}

/**
 * Tables whose rows decide what a page shows of its visitor (decisions 157 and 163): the session
 * (a login), the shop cart with its lines, codes and gift cards, the customer, and what the cart
 * page and the checkout show of the delivery (a held time, the slots others have booked). A write
 * to one of them moves `ContentVersion.visitors`, so a process's memory of visitors' header parts
 * and of their own pages is void.
 */
const VISITOR_TABLES = new Set([
  'sessions',
  'carts',
  'cart_line_items',
  'cart_coupons',
  'cart_gift_cards',
  'cart_handovers',
  'customers',
  'checkout_holds',
  'checkout_hold_lines',
  'delivery_slot_bookings',
]);

/** Whether a statement may change what a page shows of some visitor (see `VISITOR_TABLES`). */
export function changesVisitors(statement: string): boolean {
  const tables = writtenTables(statement);
  return tables === 'any' || tables.some((t) => VISITOR_TABLES.has(t));
}

/**
 * A like raising a recipe's or product's count and changing nothing else (likes.server.ts). Shared
 * pages show that count, but a like is no editorial change: it does not void every page at once,
 * it only makes pages made before it due for a remake after `COUNTS_STALE_MS` (decision 053).
 */
const COUNT_RAISE =
  /^\s*update\s+"?(recipes|products)"?\s+set\s+"?like_count"?\s*=\s*(?:"?\1"?\.)?"?like_count"?\s*\+\s*1\s+where\s[^;]*$/i;

/** How long a shared page may show a like count older than the last counted like. */
export const COUNTS_STALE_MS = 60_000;

export function raisesCountOnly(statement: string): boolean {
  return COUNT_RAISE.test(statement);
}

export function endsTransaction(statement: string): boolean {
  return TRANSACTION_END.test(statement);
}

/**
 * The version of the content as this process knows it: a number that grows after every content
 * change this process commits, and after every change another process announces (PostgreSQL's
 * NOTIFY, see client.ts). Caches of rendered content keep the version they were made at and are
 * void when it has moved on.
 */
export class ContentVersion {
  /** Tells other processes apart from this one in notifications. */
  readonly instance = randomUUID();
  private value = 1;
  /**
   * False while changes of other processes may go unheard (PostgreSQL before its LISTEN
   * connection is up, or after it was lost): caches must then neither serve nor keep anything.
   */
  complete = true;

  /**
   * Resolves once every change another process committed before the call is known here
   * (PostgreSQL: one round trip on the listening connection, shared by the callers that arrive
   * while it runs; see client.ts). At once on PGlite, where no other process writes.
   */
  sync: () => Promise<void> = () => Promise.resolve();
  private readonly listeners = new Set<(version: number, reason: VersionMove) => void>();

  get current(): number {
    return this.value;
  }

  /**
   * Content changed, or may have: every cache made before now is void. `reason` says which
   * (see `VersionMove`); caches may keep a last good copy only through `unheard`.
   */
  bump(reason: VersionMove = 'content'): void {
    this.value += 1;
    for (const listener of this.listeners) listener(this.value, reason);
  }

  /**
   * Moves after every committed write to a table of `VISITOR_TABLES`, here or in another process
   * (decisions 157 and 163): what was kept of any visitor before it is void.
   */
  private visitorValue = 1;

  get visitors(): number {
    return this.visitorValue;
  }

  visitorsChanged(): void {
    this.visitorValue += 1;
  }

  /** When a like count last rose here or in another process (ms since the epoch); 0: never. */
  countsChangedAt = 0;

  /** A like count rose: pages made before now are due for a remake once `COUNTS_STALE_MS` old. */
  countsChanged(at = Date.now()): void {
    this.countsChangedAt = Math.max(this.countsChangedAt, at);
  }

  onChange(listener: (version: number, reason: VersionMove) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * Why the version moved: `content` — a change committed here or announced by another process;
 * `unheard` — changes of other processes can no longer be heard (the listening connection was
 * lost or could not be opened: the database is restarting or unreachable), so nothing is known to
 * have changed, but nothing is known to be current either; `heard` — the listening connection is
 * up again after such a gap, in which changes may have been missed.
 */
export type VersionMove = 'content' | 'unheard' | 'heard';

const versionsOfDatabases = new WeakMap<object, ContentVersion>();

/**
 * The content version of the handle a database object belongs to (client.ts registers each), for
 * caches below the request that hold content read from the database (search synonyms, decision
 * 164). undefined: a database object no handle registered (a transaction's).
 */
export function contentVersionOf(db: object): ContentVersion | undefined {
  return versionsOfDatabases.get(db);
}

export function registerContentVersion(db: object, version: ContentVersion): void {
  versionsOfDatabases.set(db, version);
}

export const CONTENT_CHANNEL = 'kattaus_content';
/** The notification payload's prefix for a raised like count (the rest is the instance). */
export const COUNTS_PAYLOAD_PREFIX = 'counts:';
/** The notification payload's prefix for a write to visitors' sessions or carts. */
export const VISITORS_PAYLOAD_PREFIX = 'visitors:';
