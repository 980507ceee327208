import { createHmac } from 'node:crypto';

/**
 * What "one per customer" counts (decision 082): not the account, which costs nothing to make
 * again, but the mailbox the account proved it reads and the address the goods go to. Both are
 * normalised so that the usual ways of writing one mailbox or one home again count as the same,
 * and stored only as keyed hashes (HMAC-SHA-256 with the server's secret): the limit tables hold
 * no address in the clear, and a hash cannot be checked against a guessed address without the
 * secret.
 */

/** Providers that deliver `first.last@` and `firstlast@` to one mailbox. */
const DOTS_IGNORED = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address delivers to: trimmed and lower-cased, without a `+tag` in the local
 * part (Gmail, Outlook, iCloud, Fastmail and most others deliver `maija+1@` to `maija@`), and for
 * Gmail without dots in the local part and with `googlemail.com` as `gmail.com`.
 */
export function canonicalMailbox(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 1) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (DOTS_IGNORED.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/** Words that only say "flat" in a street address (`Lihakuja 3 A as 5`, `Köttgränd 3 lgh 5`). */
const FLAT_WORDS = new Set(['as', 'asunto', 'lgh', 'lägenhet', 'apt', 'flat']);

/**
 * A delivery address as one home: the street address and the postal code, compatibility-folded
 * (NFKC), lower-cased, with the words that only say "flat" and every character that is not a
 * letter or a digit left out, so `Lihakuja 3 A 5`, `lihakuja 3a5` and `Lihakuja 3 a as. 5` are
 * one home and `Lihakuja 3 A 6` another. The name is not part of it: a household shares a home.
 */
export function canonicalAddress(address: { streetAddress: string; postalCode: string }): string {
  const words = address.streetAddress
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '' && !FLAT_WORDS.has(word));
  const postalCode = address.postalCode.replace(/\s+/g, '').toUpperCase();
  return `${words.join('')}|${postalCode}`;
}

const keyOf = (secret: string, kind: string, value: string) =>
  `${kind}:${createHmac('sha256', secret).update(`customer-limit:${kind}:${value}`).digest('base64url')}`;

/** The key a mailbox is counted under (`mailbox:<hmac>`). */
export function mailboxKey(secret: string, email: string): string {
  return keyOf(secret, 'mailbox', canonicalMailbox(email));
}

/** The key a delivery address is counted under (`address:<hmac>`). */
export function addressKey(
  secret: string,
  address: { streetAddress: string; postalCode: string },
): string {
  return keyOf(secret, 'address', canonicalAddress(address));
}
