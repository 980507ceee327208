import { dictionary } from '@zxcvbn-ts/language-common';
import { Invalid } from '../../../server/errors.ts';

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

/** Refuses a new password found in the list: 400 naming `password`. */
export function assertUncommonPassword(password: string): void {
  if (isCommonPassword(password)) {
    throw new Invalid(
      { password: 'account.error.passwordCommon' },
      'The password is one of the commonly used or breached passwords.',
    );
  }
}
