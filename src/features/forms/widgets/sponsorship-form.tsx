import { useId } from 'react';
import { useT } from '../../../i18n/react.tsx';
import { fileRules, sponsorshipSchema, sponsorshipSubjects } from '../schemas.ts';
import {
  DateField,
  ErrorSummary,
  FileField,
  FormFrame,
  RadioGroup,
  SubmitRow,
  SuccessText,
  styles,
  TextArea,
  TextField,
  useFormSender,
  useSchemaForm,
} from './kit.tsx';

/** Sponsorship application (§2.4). */
export function SponsorshipForm(props: { successPage?: string }) {
  const t = useT();
  const methods = useSchemaForm(sponsorshipSchema, {
    Data: {
      Subject: '',
      Groupname: '',
      EventDate: '',
      Message: '',
      Firstname: '',
      Lastname: '',
      Email: '',
      Phone: '',
    },
    Files: [],
    MTCaptchaToken: '',
  });
  const sender = useFormSender('sponsorship', methods, { successPage: props.successPage });
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
        {t('form.sponsorship.title')}
      </h2>
      <RadioGroup
        name="Data.Subject"
        legend={t('form.field.subject')}
        options={sponsorshipSubjects.map((value) => ({
          value,
          label: t(`form.sponsorship.subject.${value}`),
        }))}
      />
      <TextField name="Data.Groupname" label={t('form.field.groupName')} />
      <DateField name="Data.EventDate" label={t('form.field.eventDate')} required={false} />
      <TextArea name="Data.Message" label={t('form.field.purpose')} />
      <FileField
        name="Files"
        label={t('form.field.attachment')}
        rule={fileRules.sponsorship}
        typesLabel="PDF"
      />
      <TextField
        name="Data.Firstname"
        label={t('form.field.firstName')}
        autoComplete="given-name"
      />
      <TextField name="Data.Lastname" label={t('form.field.lastName')} autoComplete="family-name" />
      <TextField
        name="Data.Email"
        label={t('form.field.email')}
        type="email"
        autoComplete="email"
      />
      <TextField name="Data.Phone" label={t('form.field.phone')} type="tel" autoComplete="tel" />
      <ErrorSummary
        heading={t('form.summary.default')}
        fields={[
          { name: 'Data.Subject', label: t('form.field.subject') },
          { name: 'Data.Groupname', label: t('form.field.groupName') },
          { name: 'Data.EventDate', label: t('form.field.eventDate') },
          { name: 'Data.Message', label: t('form.field.purpose') },
          { name: 'Files', label: t('form.field.attachment') },
          { name: 'Data.Firstname', label: t('form.field.firstName') },
          { name: 'Data.Lastname', label: t('form.field.lastName') },
          { name: 'Data.Email', label: t('form.field.email') },
          { name: 'Data.Phone', label: t('form.field.phone') },
        ]}
      />
      {sender.captchaElement}
      <SubmitRow status={sender.status} errorText={t(sender.errorKey ?? 'form.error.general')} />
    </FormFrame>
  );
}
