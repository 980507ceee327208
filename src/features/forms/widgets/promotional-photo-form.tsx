import { useId } from 'react';
import { useT } from '../../../i18n/react.tsx';
import { fileRules, promotionalPhotoSchema } from '../schemas.ts';
import {
  Checkbox,
  ErrorSummary,
  FileField,
  FormFrame,
  RadioGroup,
  SubmitRow,
  SuccessText,
  styles,
  TextField,
  useFormSender,
  useSchemaForm,
} from './kit.tsx';

/** The photo raffle (§2.6): contact details, method of contact, one image, the rules. */
export function PromotionalPhotoForm(props: { successPage?: string; privacyUrl?: string }) {
  const t = useT();
  const methods = useSchemaForm(promotionalPhotoSchema, {
    Data: {
      Email: '',
      FirstName: '',
      LastName: '',
      Phone: '',
      MethodOfContact: 'email',
      AcceptRules: false,
    },
    Files: [],
    MTCaptchaToken: '',
  });
  const sender = useFormSender('promotional-photo', methods, { successPage: props.successPage });
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
        {t('form.promotional-photo.title')}
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
      <RadioGroup
        name="Data.MethodOfContact"
        legend={t('form.field.methodOfContact')}
        options={[
          { value: 'email', label: t('form.promotional-photo.method.email') },
          { value: 'phone', label: t('form.promotional-photo.method.phone') },
        ]}
      />
      <FileField
        name="Files"
        label={t('form.field.photo')}
        rule={fileRules['promotional-photo']}
        typesLabel="JPEG, PNG, GIF, WebP, HEIC"
      />
      <Checkbox name="Data.AcceptRules" label={t('form.field.rules')} required />
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
          { name: 'Files', label: t('form.field.photo') },
          { name: 'Data.AcceptRules', label: t('form.field.rules') },
        ]}
      />
      {sender.captchaElement}
      <SubmitRow status={sender.status} errorText={t(sender.errorKey ?? 'form.error.general')} />
    </FormFrame>
  );
}
