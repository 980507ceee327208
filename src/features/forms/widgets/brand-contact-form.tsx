import { useT } from '../../../i18n/react.tsx';
import { brandContactSchema, fileRules } from '../schemas.ts';
import { AddressFields, emptyPerson, PersonFields } from './contact-fields.tsx';
import { FileField, FormShell, PrivacyLink, TextArea, useFilesForm } from './kit.tsx';

/** The master-chef brand's contact form (§2.7, `mfcontact`). */
export function BrandContactForm(props: { successPage?: string; privacyUrl?: string }) {
  const t = useT();
  const { sender } = useFilesForm(
    'brand-contact',
    brandContactSchema,
    { ...emptyPerson, Message: '', City: '', StreetAddress: '', PostalCode: '' },
    { successPage: props.successPage },
  );
  return (
    <FormShell sender={sender} title={t('form.brand-contact.title')}>
      <PersonFields prefix="Data" />
      <AddressFields prefix="Data" required={false} />
      <TextArea name="Data.Message" label={t('form.field.message')} />
      <FileField
        name="Files"
        label={t('form.field.image')}
        rule={fileRules['brand-contact']}
        typesLabel="JPEG, PNG, GIF, WebP"
      />
      <PrivacyLink href={props.privacyUrl} />
    </FormShell>
  );
}
