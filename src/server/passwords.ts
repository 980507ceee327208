import { randomBytes } from 'node:crypto';
import { dictionary } from '@zxcvbn-ts/language-common';
import argon2 from 'argon2';

/**
 * Password hashing and the list of refused passwords, shared by shop customers (decisions 025,
 * 074) and back-office staff (decision 130): one set of rules, one place to raise the cost.
 */

/** argon2id with OWASP's minimum (19 MiB, 2 passes, 1 lane): ten logins at once stay in memory. */
export const PASSWORD_HASH_OPTIONS = {
  type: argon2.argon2id as 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, PASSWORD_HASH_OPTIONS);
}

let dummyHash: Promise<string> | undefined;
/** A hash to verify against when the account is unknown, so both take the same time. */
function dummy(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

/**
 * Whether `password` matches `hash`; with no hash (an unknown account, or one without a password
 * yet) a dummy hash is verified, so the answer takes as long and is false.
 */
export async function verifyPassword(hash: string | null | undefined, password: string) {
  const ok = await argon2.verify(hash ?? (await dummy()), password);
  return Boolean(hash) && ok;
}

/** Whether a stored hash was made with weaker settings than today's (rehash after a login). */
export function passwordNeedsRehash(hash: string): boolean {
  return argon2.needsRehash(hash, PASSWORD_HASH_OPTIONS);
}

/**
 * The common and breached passwords nobody may choose (decision 074, OWASP ASVS 4.0 2.1.7): the
 * 49,000 passwords of `@zxcvbn-ts/language-common` (zxcvbn's list, drawn from leaked password
 * sets), shipped with the code and checked offline. Compared without regard to case and Unicode
 * form, so `PasswordPassword` counts as `passwordpassword`.
 */
const common = new Set(dictionary['passwords-common']);

export function isCommonPassword(password: string): boolean {
  return common.has(password.normalize('NFKC').toLowerCase());
}
