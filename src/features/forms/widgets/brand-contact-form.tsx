import { useId } from 'react';
import { useT } from '../../../i18n/react.tsx';
import { brandContactSchema, fileRules } from '../schemas.ts';
import {
  ErrorSummary,
  FileField,
  FormFrame,
  SubmitRow,
  SuccessText,
  styles,
  TextArea,
  TextField,
  useFormSender,
  useSchemaForm,
} from './kit.tsx';

/** The master-chef brand's contact form (§2.7, `mfcontact`). */
export function BrandContactForm(props: { successPage?: string; privacyUrl?: string }) {
  const t = useT();
  const methods = useSchemaForm(brandContactSchema, {
    Data: {
      Email: '',
      FirstName: '',
      LastName: '',
      Phone: '',
      Message: '',
      City: '',
      StreetAddress: '',
      PostalCode: '',
    },
    Files: [],
    MTCaptchaToken: '',
  });
  const sender = useFormSender('brand-contact', methods, { successPage: props.successPage });
  const headingId = `${useId().replace(/[^\w-]/g, '')}-heading`;
  if (sender.status === 'success') return <SuccessText text={t('form.success')} />;
  return (
    <FormFrame
      methods={methods}
      labelledBy={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        if (!sender.hasToken()) return;
        void methods.handleSubmit(sender.send)(event);
      }}
    >
      <h2 id={headingId} className={styles.heading}>
        {t('form.brand-contact.title')}
      </h2>
      <TextField
        name="Data.FirstName"
        label={t('form.field.firstName')}
        autoComplete="given-name"
      />
      <TextField name="Data.LastName" label={t('form.field.lastName')} autoComplete="family-name" />
      <TextField
        name="Data.Email"
        label={t('form.field.email')}
        type="email"
        autoComplete="email"
      />
      <TextField name="Data.Phone" label={t('form.field.phone')} type="tel" autoComplete="tel" />
      <TextField
        name="Data.StreetAddress"
        label={t('form.field.streetAddress')}
        required={false}
        autoComplete="street-address"
      />
      <TextField
        name="Data.PostalCode"
        label={t('form.field.postalCode')}
        required={false}
        autoComplete="postal-code"
      />
      <TextField
        name="Data.City"
        label={t('form.field.city')}
        required={false}
        autoComplete="address-level2"
      />
      <TextArea name="Data.Message" label={t('form.field.message')} />
      <FileField
        name="Files"
        label={t('form.field.image')}
        rule={fileRules['brand-contact']}
        typesLabel="JPEG, PNG, GIF, WebP"
      />
      <p>
        <a href={props.privacyUrl ?? '/tietosuoja'} target="_blank" rel="noopener">
          {t('form.privacy')} <span className={styles.visuallyHidden}>{t('form.newTab')}</span>
        </a>
      </p>
      <ErrorSummary
        heading={t('form.summary.default')}
        fields={[
          { name: 'Data.FirstName', label: t('form.field.firstName') },
          { name: 'Data.LastName', label: t('form.field.lastName') },
          { name: 'Data.Email', label: t('form.field.email') },
          { name: 'Data.Phone', label: t('form.field.phone') },
          { name: 'Data.Message', label: t('form.field.message') },
          { name: 'Files', label: t('form.field.image') },
        ]}
      />
      {sender.captchaElement}
      <SubmitRow status={sender.status} errorText={t(sender.errorKey ?? 'form.error.general')} />
    </FormFrame>
  );
}
