import { useId } from 'react';
import { useT } from '../../../i18n/react.tsx';
import { EXPORT_MESSAGE_MAX, exportContactSchema, fileRules } from '../schemas.ts';
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

/** The export contact request (§2.9), in English; the success and error texts are configurable. */
export function ExportContactForm(props: {
  successMessage?: string;
  errorMessage?: string;
  contentId?: number;
}) {
  const t = useT();
  const methods = useSchemaForm(exportContactSchema, {
    Data: {
      Subject: t('form.export-contact.subject'),
      FullName: '',
      Company: '',
      Message: '',
      Email: '',
      Phone: '',
      ...(props.contentId ? { ContentId: props.contentId } : {}),
      CustomerId: '',
    },
    Files: [],
    MTCaptchaToken: '',
  });
  const sender = useFormSender('export-contact', methods);
  const headingId = `${useId().replace(/[^\w-]/g, '')}-heading`;
  if (sender.status === 'success') {
    return <SuccessText text={props.successMessage ?? t('form.export.success')} />;
  }
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
      <h2 id={headingId} className={styles.heading} lang="en">
        {t('form.export-contact.title')}
      </h2>
      <TextField name="Data.FullName" label={t('form.export.fullName')} autoComplete="name" />
      <TextField name="Data.Company" label={t('form.export.company')} autoComplete="organization" />
      <TextField
        name="Data.Email"
        label={t('form.export.email')}
        type="email"
        autoComplete="email"
      />
      <TextField name="Data.Phone" label={t('form.export.phone')} type="tel" autoComplete="tel" />
      <TextArea
        name="Data.Message"
        label={t('form.export.message')}
        max={EXPORT_MESSAGE_MAX}
        remainingKey="form.export.remaining"
      />
      <FileField
        name="Files"
        label={t('form.export.file')}
        rule={fileRules['export-contact']}
        typesLabel="PDF, JPEG, PNG, GIF, WebP, DOCX, XLSX"
        noFileKey="form.export.noFile"
      />
      <ErrorSummary
        heading={t('form.summary.export')}
        fields={[
          { name: 'Data.FullName', label: t('form.export.fullName') },
          { name: 'Data.Company', label: t('form.export.company') },
          { name: 'Data.Email', label: t('form.export.email') },
          { name: 'Data.Phone', label: t('form.export.phone') },
          { name: 'Data.Message', label: t('form.export.message') },
          { name: 'Files', label: t('form.export.file') },
        ]}
      />
      {sender.captchaElement}
      <SubmitRow
        status={sender.status}
        errorText={
          sender.errorKey ? t(sender.errorKey) : (props.errorMessage ?? t('form.export.error'))
        }
        submitText={t('form.export.submit')}
        sendingText={t('form.export.sending')}
      />
    </FormFrame>
  );
}
