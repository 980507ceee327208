/**
 * The `payment_type` of the `add_payment_info` and `purchase` analytics events (spec §7): the
 * payment method code FI54 is 'Mobile pay', FI50 'card payment', any other 'online bank'.
 * Browser-safe.
 */
export type PaymentTypeLabel = 'Mobile pay' | 'card payment' | 'online bank';

export function paymentTypeLabel(code: string | null | undefined): PaymentTypeLabel {
  const normalised = (code ?? '').trim().toUpperCase();
  if (normalised === 'FI54') return 'Mobile pay';
  if (normalised === 'FI50') return 'card payment';
  return 'online bank';
}
