import { formatPrice } from '../../i18n/format.ts';
import { centsOfMoney } from './schemas.ts';

/** Money of the contract as the visitor reads it: `12,90` → `12,90 €`. */
export function money(value: string): string {
  const cents = centsOfMoney(value);
  return cents === null ? value : formatPrice(cents);
}
