import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  type CreatedPayment,
  checkPaymentRequest,
  type PaymentProvider,
  type PaymentRequest,
  type PaymentReturn,
  verifyCheckoutReturn,
} from './provider.ts';
import { calculateSignature } from './signing.ts';

/**
 * The built-in test bank (decision 024): the embedded set-up's payment provider, for a shop with
 * no Paytrail account. Its `href` is a page of the shop that shows the sum with 'Hyväksy maksu'
 * and 'Peruuta'; either button sends the shopper back to the order's redirect URL with
 * `checkout-` parameters signed like Paytrail's, with a secret derived from the server's, so the
 * order code verifies both providers' returns the same way. No money moves and nothing is stored:
 * the page's link carries the payment, signed.
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

export class TestBankProvider implements PaymentProvider {
  readonly id = 'testbank' as const;

  constructor(
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  async createPayment(request: PaymentRequest): Promise<CreatedPayment> {
    const checked = checkPaymentRequest(request);
    const ticket: TestBankTicket = {
      transactionId: this.transactionIdOf(checked.stamp),
      stamp: checked.stamp,
      reference: checked.reference,
      amountCents: checked.amountCents,
      redirectUrls: checked.redirectUrls,
      expiresAt: this.now() + TEST_BANK_TICKET_TTL_MS,
    };
    // The page is on the shop the shopper returns to.
    const href = new URL(TEST_BANK_PATH, checked.redirectUrls.success);
    href.search = new URLSearchParams({ maksu: this.sealTicket(ticket) }).toString();
    return { transactionId: ticket.transactionId, href: href.toString(), providers: [] };
  }

  verifyReturn(query: Record<string, unknown>): PaymentReturn {
    return verifyCheckoutReturn(this.secret, TEST_BANK_ACCOUNT, query);
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
