import { Invalid } from '../../../server/errors.ts';
import { isCommonPassword } from '../../../server/passwords.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from './schemas.ts';

/**
 * The common and breached passwords a customer may not choose (decision 074): the list is shared
 * with the back office's staff (`src/server/passwords.ts`).
 */
export { isCommonPassword };

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
