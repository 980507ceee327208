import { createHmac, hkdfSync } from 'node:crypto';

/**
 * The keyed hash of an e-mail address (decision 159): what an encrypted row keeps beside its
 * sealed data so that a person's rows can be found by their address without opening every row,
 * and without the address in the clear. HMAC-SHA-256 of the normalised address, with a key
 * derived from the forms key (HKDF-SHA-256), so every process that can open the rows computes the
 * same hash and nobody without the key can test a guessed address against it.
 */

/** The address as it is compared: trimmed, in Unicode NFC, lower-cased. */
export function normaliseEmail(address: string): string {
  return address.trim().normalize('NFC').toLowerCase().normalize('NFC');
}

const derived = new WeakMap<Buffer, Buffer>();

/** The hash's own key, derived from the forms key (never the sealing key itself). */
function hashKeyOf(formsKey: Buffer): Buffer {
  let key = derived.get(formsKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', formsKey, '', 'kattaus e-mail hash v1', 32));
    derived.set(formsKey, key);
  }
  return key;
}

/** The keyed hash (base64url) of `address` after `normaliseEmail`. */
export function emailHash(formsKey: Buffer, address: string): string {
  return createHmac('sha256', hashKeyOf(formsKey))
    .update(normaliseEmail(address), 'utf8')
    .digest('base64url');
}

/** Something that looks like an e-mail address (one `@`, something either side). */
export function looksLikeEmail(value: unknown): value is string {
  return typeof value === 'string' && /^[^\s@]+@[^\s@]+$/.test(value.trim());
}

/**
 * A staff search as the audit log keeps it: the text typed (`q`, often an address or a name) as
 * its keyed hash, so the log, which is never rewritten, holds no one's address after an erasure,
 * while whether someone searched for a given text can still be checked with the key.
 */
export function auditedSearch<Q extends { q?: string | undefined }>(formsKey: Buffer, query: Q): Q {
  return query.q ? { ...query, q: `hash:${emailHash(formsKey, query.q)}` } : query;
}
