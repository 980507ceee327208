import { useT } from '../../../i18n/react.tsx';
import { TextField } from './kit.tsx';

/**
 * The person and contact fields the forms share, with their labels and autofill names. Each form
 * passes its own field names (the payloads spell them differently: `Firstname`, `FirstName`,
 * `firstName`) and whether a field is required.
 */

export function NameFields(props: { first: string; last: string }) {
  const t = useT();
  return (
    <>
      <TextField name={props.first} label={t('form.field.firstName')} autoComplete="given-name" />
      <TextField name={props.last} label={t('form.field.lastName')} autoComplete="family-name" />
    </>
  );
}

export function EmailField(props: { name: string; label?: string; required?: boolean }) {
  const t = useT();
  return (
    <TextField
      name={props.name}
      label={props.label ?? t('form.field.email')}
      type="email"
      autoComplete="email"
      required={props.required ?? true}
    />
  );
}

export function PhoneField(props: { name: string; label?: string; required?: boolean }) {
  const t = useT();
  return (
    <TextField
      name={props.name}
      label={props.label ?? t('form.field.phone')}
      type="tel"
      autoComplete="tel"
      required={props.required ?? true}
    />
  );
}

/** The first values of `PersonFields` under their default names: all empty. */
export const emptyPerson = { Email: '', FirstName: '', LastName: '', Phone: '' };

/** First name, last name, e-mail and phone under `prefix`, all required. */
export function PersonFields(props: { prefix: string; firstName?: string; lastName?: string }) {
  const { prefix, firstName = 'FirstName', lastName = 'LastName' } = props;
  return (
    <>
      <NameFields first={`${prefix}.${firstName}`} last={`${prefix}.${lastName}`} />
      <EmailField name={`${prefix}.Email`} />
      <PhoneField name={`${prefix}.Phone`} />
    </>
  );
}

/** Street address, postal code and city: `<prefix>.StreetAddress`, `.PostalCode`, `.City`. */
export function AddressFields(props: { prefix: string; required?: boolean }) {
  const t = useT();
  const required = props.required ?? true;
  return (
    <>
      <TextField
        name={`${props.prefix}.StreetAddress`}
        label={t('form.field.streetAddress')}
        required={required}
        autoComplete="street-address"
      />
      <TextField
        name={`${props.prefix}.PostalCode`}
        label={t('form.field.postalCode')}
        required={required}
        autoComplete="postal-code"
      />
      <TextField
        name={`${props.prefix}.City`}
        label={t('form.field.city')}
        required={required}
        autoComplete="address-level2"
      />
    </>
  );
}
