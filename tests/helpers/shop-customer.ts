import { ACCOUNT_API, CUSTOMER_API } from '../../src/features/shop/customer/schemas.ts';
import type { Visitor } from './visitor.ts';

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

/**
 * Registers `v` as a shop customer (logged in after it) and saves a private customer's delivery
 * address at `postalCode` in Helsinki (`streetAddress`, by default Lihakuja 3). Throws with the
 * answer when either call is refused; free of the test runner, so the benchmarks use it too.
 */
export async function registerWithAddress(
  v: Visitor,
  email: string,
  password: string,
  postalCode: string,
  streetAddress = 'Lihakuja 3',
): Promise<void> {
  const registered = await v.post(`${ACCOUNT_API}/register`, json({ email, password }));
  if (registered.statusCode !== 200) {
    throw new Error(`register answered ${registered.statusCode}: ${registered.body}`);
  }
  const address = await v.post(
    CUSTOMER_API,
    json({
      firstName: 'Maija',
      lastName: 'Meikäläinen',
      streetAddress,
      postalCode,
      city: 'Helsinki',
      phoneNumber: '040 123 4567',
      isPrivateCustomer: true,
    }),
  );
  if (address.statusCode !== 200) {
    throw new Error(`delivery address answered ${address.statusCode}: ${address.body}`);
  }
}
