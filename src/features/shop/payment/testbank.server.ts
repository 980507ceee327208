import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { testBankPayments, testBankRefunds } from '../tables.ts';
import { verifyCheckoutReturn } from './paytrail-returns.ts';
import {
  type CreatedPayment,
  checkPaymentRequest,
  type PaymentProvider,
  PaymentProviderRefused,
  type PaymentRef,
  type PaymentRequest,
  type PaymentReturn,
  type RefundAnswer,
  type RefundRequest,
  refundRequestSchema,
} from './provider.ts';
import { calculateSignature } from './signing.ts';

/**
 * The built-in test bank (decision 024): the embedded set-up's payment provider, for a shop with
 * no Paytrail account. Its `href` is a page of the shop that shows the sum with 'Hyväksy maksu'
 * and 'Peruuta'; either button sends the shopper back to the order's redirect URL with
 * `checkout-` parameters signed like Paytrail's, with a secret derived from the server's, so the
 * order code verifies both providers' returns the same way. No money moves. The page's link
 * carries the payment, signed; like a real provider the bank also keeps its payments, the
 * shopper's decision and the refunds in its own tables (decision 122), so that it can answer a
 * payment's status and take refunds.
 */

export const TEST_BANK_PATH = '/maksu/testipankki';
/** The `checkout-account` and `checkout-provider` of the test bank's returns. */
export const TEST_BANK_ACCOUNT = 'testbank';
/** How long the test bank's page takes its link. */
export const TEST_BANK_TICKET_TTL_MS = 60 * 60 * 1000;

/** The payment a test bank link carries. */
export interface TestBankTicket {
  transactionId: string;
  stamp: string;
  reference: string;
  amountCents: number;
  redirectUrls: { success: string; cancel: string };
  expiresAt: number;
}

/** The test bank's own key: derived from the server secret, so it is never the secret itself. */
export function testBankSecret(serverSecret: string): string {
  return createHmac('sha256', serverSecret).update('kattaus payment test bank').digest('base64url');
}

/** The bank's own row of the payment a link carries. */
function paymentRowOf(ticket: TestBankTicket) {
  const { transactionId, stamp, reference, amountCents } = ticket;
  return { transactionId, stamp, reference, amountCents };
}

export class TestBankProvider implements PaymentProvider {
  readonly id = 'testbank' as const;

  constructor(
    private readonly secret: string,
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  async start(request: PaymentRequest): Promise<CreatedPayment> {
    const checked = checkPaymentRequest(request);
    const ticket: TestBankTicket = {
      transactionId: this.transactionIdOf(checked.stamp),
      stamp: checked.stamp,
      reference: checked.reference,
      amountCents: checked.amountCents,
      redirectUrls: checked.redirectUrls,
      expiresAt: this.now() + TEST_BANK_TICKET_TTL_MS,
    };
    await this.db.insert(testBankPayments).values(paymentRowOf(ticket)).onConflictDoNothing();
    // The page is on the shop the shopper returns to.
    const href = new URL(TEST_BANK_PATH, checked.redirectUrls.success);
    href.search = new URLSearchParams({ maksu: this.sealTicket(ticket) }).toString();
    return { transactionId: ticket.transactionId, href: href.toString(), providers: [] };
  }

  parseReturn(query: Record<string, unknown>): PaymentReturn {
    return verifyCheckoutReturn(this.secret, TEST_BANK_ACCOUNT, query);
  }

  /** The payment as the bank keeps it; an unknown transaction is refused, as Paytrail's 404. */
  async status({ transactionId }: PaymentRef): Promise<PaymentReturn> {
    const [row] = await this.db
      .select()
      .from(testBankPayments)
      .where(eq(testBankPayments.transactionId, transactionId));
    if (!row) throw new PaymentProviderRefused('The test bank has no such payment.');
    return {
      status: row.status,
      stamp: row.stamp,
      reference: row.reference,
      transactionId: row.transactionId,
      amountCents: row.amountCents,
      method: row.status === 'new' ? undefined : TEST_BANK_ACCOUNT,
    };
  }

  /**
   * Records the shopper's press on the bank's page: `ok` is final, `fail` may still become `ok`
   * (the link can be opened again), as the attempt lifecycle takes them (decision 120).
   */
  async decide(ticket: TestBankTicket, status: 'ok' | 'fail'): Promise<void> {
    await this.db
      .insert(testBankPayments)
      .values({ ...paymentRowOf(ticket), status })
      .onConflictDoUpdate({
        target: testBankPayments.transactionId,
        set: { status, updatedAt: sql`now()` },
        setWhere: ne(testBankPayments.status, 'ok'),
      });
  }

  /**
   * Refunds part or all of a paid payment, once per refund stamp: a repeated stamp answers the
   * first refund. More than is left to refund, or an unpaid payment, is answered `fail`.
   */
  async refund(request: RefundRequest): Promise<RefundAnswer> {
    const r = refundRequestSchema.parse(request);
    const [payment] = await this.db
      .select({ id: testBankPayments.transactionId })
      .from(testBankPayments)
      .where(eq(testBankPayments.transactionId, r.transactionId));
    if (!payment) throw new PaymentProviderRefused('The test bank has no such payment.');
    return this.db.transaction(async (tx) => {
      const [made] = await tx
        .insert(testBankRefunds)
        .values({
          refundStamp: r.refundStamp,
          transactionId: r.transactionId,
          amountCents: r.amountCents,
          status: 'fail',
        })
        .onConflictDoNothing()
        .returning();
      if (!made) {
        const [first] = await tx
          .select()
          .from(testBankRefunds)
          .where(eq(testBankRefunds.refundStamp, r.refundStamp));
        if (
          !first ||
          first.transactionId !== r.transactionId ||
          first.amountCents !== r.amountCents
        ) {
          throw new PaymentProviderRefused('This refund stamp was used for another refund.');
        }
        return { status: first.status, refundTransactionId: first.refundTransactionId };
      }
      const [taken] = await tx
        .update(testBankPayments)
        .set({
          refundedCents: sql`${testBankPayments.refundedCents} + ${r.amountCents}`,
          updatedAt: sql`now()`,
        })
        .where(
          and(
            eq(testBankPayments.transactionId, r.transactionId),
            eq(testBankPayments.status, 'ok'),
            sql`${testBankPayments.refundedCents} + ${r.amountCents} <= ${testBankPayments.amountCents}`,
          ),
        )
        .returning({ id: testBankPayments.transactionId });
      if (taken) {
        await tx
          .update(testBankRefunds)
          .set({ status: 'ok' })
          .where(eq(testBankRefunds.refundStamp, r.refundStamp));
      }
      return { status: taken ? 'ok' : 'fail', refundTransactionId: made.refundTransactionId };
    });
  }

  /** The payment of a link the test bank made, unless it was changed or has expired. */
  openTicket(sealed: unknown): TestBankTicket | undefined {
    if (typeof sealed !== 'string' || sealed.length > 4000) return undefined;
    const [payload = '', mac = '', ...rest] = sealed.split('.');
    if (rest.length > 0) return undefined;
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const ticket = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TestBankTicket;
    return ticket.expiresAt > this.now() ? ticket : undefined;
  }

  /** Where the shopper goes after pressing 'Hyväksy maksu' (`ok`) or 'Peruuta' (`fail`). */
  returnUrl(ticket: TestBankTicket, status: 'ok' | 'fail'): string {
    const params: Record<string, string> = {
      'checkout-account': TEST_BANK_ACCOUNT,
      'checkout-algorithm': 'sha256',
      'checkout-amount': String(ticket.amountCents),
      'checkout-stamp': ticket.stamp,
      'checkout-reference': ticket.reference,
      'checkout-transaction-id': ticket.transactionId,
      'checkout-status': status,
      'checkout-provider': TEST_BANK_ACCOUNT,
    };
    params.signature = calculateSignature(this.secret, params);
    const target = new URL(
      status === 'ok' ? ticket.redirectUrls.success : ticket.redirectUrls.cancel,
    );
    for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
    return target.toString();
  }

  /** One stamp, one transaction: opening the same payment again gives the same id. */
  private transactionIdOf(stamp: string): string {
    const hex = createHmac('sha256', this.secret).update(`transaction\n${stamp}`).digest('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  }

  private sealTicket(ticket: TestBankTicket): string {
    const payload = Buffer.from(JSON.stringify(ticket), 'utf8').toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.secret).update(`ticket\n${payload}`).digest('base64url');
  }
}
