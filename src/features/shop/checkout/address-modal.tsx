import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import type { MessageKey } from '../../../i18n/fi.ts';
import { useT } from '../../../i18n/react.tsx';
import { ShopApiError } from '../api.ts';
import {
  ADDRESS_FIELDS,
  type Customer,
  FINNISH_PHONE,
  normalisePhone,
} from '../customer/schemas.ts';
import shop from '../shop.module.css';
import {
  type AddressFormValues,
  refreshCustomer,
  saveCustomerAddress,
  storedCustomer,
} from './api.ts';
import styles from './checkout.module.css';

/**
 * The address modal (spec §2, §4, §5; issue 13 "Customer API"): a logged-in customer without a
 * delivery street gives the delivery address, phone number and the private-customer box. Every
 * field is required; 'Tallenna' is enabled only when every field has something and the box is
 * ticked. The phone is checked for a Finnish number ('Väärän muotoinen puhelinnumero') before it
 * is sent; a refusal of the server shows beside its field, any other failure 'Jotain meni vikaan'.
 *
 * A React Aria modal dialog: the focus moves in and stays inside, and goes back to what had it
 * when the dialog closes. Escape closes it also when the address is still missing (decision 029):
 * the shopper may keep browsing the cart, and the checkout asks again, since its delivery step
 * cannot go on without a street address (its 'Lisää toimitusosoite' button opens the modal again).
 * A press outside does not close it, so what was typed is not lost by a stray click.
 */

type Field = Exclude<keyof AddressFormValues, 'isPrivateCustomer'>;

/** The form's first values: the customer's own, the country code +358 by default (spec §9). */
export function initialAddressValues(customer: Customer | null): AddressFormValues {
  const address = customer?.deliveryAddress;
  return {
    firstName: address?.firstName ?? '',
    lastName: address?.lastName ?? '',
    streetAddress: address?.streetAddress ?? '',
    postalCode: address?.postalCode ?? '',
    city: address?.city ?? '',
    phoneCountryCode: customer?.phoneCountryCode || '+358',
    phoneNumber: customer?.phoneNumber ?? '',
    isPrivateCustomer: customer?.isPrivateCustomer ?? false,
  };
}

/** Spec §4: save only when every field has something and the private-customer box is ticked. */
export function canSaveAddress(values: AddressFormValues): boolean {
  return values.isPrivateCustomer && ADDRESS_FIELDS.every(({ name }) => values[name].trim() !== '');
}

/** The field errors the browser finds before sending: the phone's format (spec §5). */
export function addressErrors(values: AddressFormValues): Partial<Record<Field, MessageKey>> {
  return FINNISH_PHONE.test(normalisePhone(values.phoneNumber.trim()))
    ? {}
    : { phoneNumber: 'account.error.phone' };
}

/**
 * Spec §4: the modal shows in the cart's context once the cart is loaded and the logged-in
 * customer's delivery street is empty.
 */
export function addressModalWanted(cartLoaded: boolean, customer: Customer | null): boolean {
  return cartLoaded && customer?.loggedIn === true && customer.deliveryAddress.streetAddress === '';
}

export interface AddressModalProps {
  customer: Customer | null;
  onClose(): void;
  onSaved(customer: Customer): void;
}

export function AddressModal(props: AddressModalProps) {
  const t = useT();
  const id = useId();
  const [values, setValues] = useState(() => initialAddressValues(props.customer));
  const [errors, setErrors] = useState<Partial<Record<string, MessageKey>>>({});
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  const set = (name: keyof AddressFormValues, value: string | boolean) => {
    setValues((old) => ({ ...old, [name]: value }));
    setFailed(false);
  };

  const focusFirstError = (fields: Partial<Record<string, MessageKey>>) => {
    const first = Object.keys(fields)[0];
    if (first) form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !canSaveAddress(values)) return;
    const found = addressErrors(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstError(found);
      return;
    }
    setBusy(true);
    setFailed(false);
    try {
      const customer = await saveCustomerAddress(values);
      props.onSaved(customer);
    } catch (error) {
      const fields =
        error instanceof ShopApiError && error.status === 400 ? error.body.errors : null;
      if (fields && typeof fields === 'object' && Object.keys(fields).length > 0) {
        const known = fields as Record<string, MessageKey>;
        setErrors(known);
        focusFirstError(known);
      } else {
        setFailed(true);
      }
    } finally {
      setBusy(false);
    }
  };

  const ready = canSaveAddress(values);
  return (
    <ModalOverlay
      className={shop.overlay}
      isOpen
      isDismissable={false}
      isKeyboardDismissDisabled={false}
      onOpenChange={(open) => {
        if (!open) props.onClose();
      }}
    >
      <Modal className={shop.modalFrame}>
        <Dialog className={shop.modal} data-address-modal>
          <Heading slot="title" className={shop.modalTitle}>
            {t('checkout.address.title')}
          </Heading>
          <p>{t('checkout.address.intro')}</p>
          <form ref={form} onSubmit={submit} noValidate aria-busy={busy}>
            <div className={styles.addressGrid}>
              {ADDRESS_FIELDS.map((field) => (
                <AddressField
                  key={field.name}
                  id={`${id}-${field.name}`}
                  field={field}
                  value={values[field.name]}
                  error={errors[field.name]}
                  onChange={(value) => set(field.name, value)}
                />
              ))}
            </div>
            <p className={styles.checkboxRow}>
              <input
                id={`${id}-private`}
                type="checkbox"
                name="isPrivateCustomer"
                required
                checked={values.isPrivateCustomer}
                onChange={(event) => set('isPrivateCustomer', event.target.checked)}
              />
              <label htmlFor={`${id}-private`}>{t('account.field.isPrivateCustomer')}</label>
            </p>
            <p id={`${id}-hint`} className={styles.hint}>
              {t('checkout.address.allRequired')}
            </p>
            <div role="alert" className={styles.formError}>
              {failed ? t('checkout.address.failed') : null}
            </div>
            <div className={styles.actions}>
              <button
                type="submit"
                className={shop.primary}
                disabled={!ready}
                aria-describedby={`${id}-hint`}
                aria-disabled={busy || undefined}
              >
                {busy ? t('checkout.address.saving') : t('checkout.address.save')}
              </button>
              <button type="button" className={shop.secondary} onClick={props.onClose}>
                {t('checkout.address.later')}
              </button>
            </div>
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

/** One field of the address: its label, input and error. */
function AddressField(props: {
  id: string;
  field: (typeof ADDRESS_FIELDS)[number];
  value: string;
  error: MessageKey | undefined;
  onChange: (value: string) => void;
}) {
  const t = useT();
  const { field, error, id: fieldId } = props;
  return (
    <p className={styles.field} data-field={field.name}>
      <label htmlFor={fieldId}>{t(field.label)}</label>
      <input
        id={fieldId}
        name={field.name}
        type={field.type ?? 'text'}
        className={shop.textInput}
        required
        aria-required="true"
        autoComplete={field.autoComplete}
        value={props.value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${fieldId}-error` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {error ? (
        <span id={`${fieldId}-error`} className={shop.fieldError}>
          {t(error)}
        </span>
      ) : null}
    </p>
  );
}

/**
 * The modal in the cart's context: reads the customer kept in session storage first, refreshes
 * it from `GET /api/lk/customer`, and opens once the cart is loaded and the street is empty.
 * `open` and `onOpenChange` let the page open it again (the checkout's address summary).
 */
export function useCustomer() {
  const [customer, setCustomer] = useState<Customer | null>(null);
  useEffect(() => {
    setCustomer(storedCustomer());
    let current = true;
    refreshCustomer().then(
      (fresh) => current && setCustomer(fresh),
      () => {
        // the stored one (if any) stays; the page works without it
      },
    );
    return () => {
      current = false;
    };
  }, []);
  return [customer, setCustomer] as const;
}

export function CartAddressModal(props: {
  cartLoaded: boolean;
  customer: Customer | null;
  onCustomer(customer: Customer): void;
  /** Opened by the page (an edit button), also when the street is not empty. */
  open?: boolean;
  onOpenChange?(open: boolean): void;
}) {
  const [dismissed, setDismissed] = useState(false);
  const automatic = !dismissed && addressModalWanted(props.cartLoaded, props.customer);
  if (!props.open && !automatic) return null;
  return (
    <AddressModal
      customer={props.customer}
      onClose={() => {
        setDismissed(true);
        props.onOpenChange?.(false);
      }}
      onSaved={(customer) => {
        setDismissed(true);
        props.onCustomer(customer);
        props.onOpenChange?.(false);
      }}
    />
  );
}
