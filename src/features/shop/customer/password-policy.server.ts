import { dictionary } from '@zxcvbn-ts/language-common';
import { Invalid } from '../../../server/errors.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from './schemas.ts';

/**
 * The common and breached passwords a customer may not choose (decision 074, OWASP ASVS 4.0
 * 2.1.7): the 49,000 passwords of `@zxcvbn-ts/language-common` (zxcvbn's list, drawn from leaked
 * password sets), shipped with the code and checked offline. Compared without regard to case and
 * Unicode form, so `PasswordPassword` counts as `passwordpassword`.
 */
const common = new Set(dictionary['passwords-common']);

const comparable = (password: string) => password.normalize('NFKC').toLowerCase();

export function isCommonPassword(password: string): boolean {
  return common.has(comparable(password));
}

/** Refuses a new password found in the list: 400 naming `field`. */
export function assertUncommonPassword(password: string, field = 'password'): void {
  if (isCommonPassword(password)) {
    throw new Invalid(
      { [field]: 'account.error.passwordCommon' },
      'The password is one of the commonly used or breached passwords.',
    );
  }
}

/**
 * Whether a password would be taken if it were set now: a login checks the password given
 * (ASVS 2.1.7), so an account made under an older rule is asked to change it. Counted in
 * characters, as the schemas count.
 */
export function meetsPasswordRules(password: string): boolean {
  const length = [...password].length;
  return length >= PASSWORD_MIN && length <= PASSWORD_MAX && !isCommonPassword(password);
}
