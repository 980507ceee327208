import { useT } from '../../../i18n/react.tsx';
import { EXPORT_MESSAGE_MAX, exportContactSchema, fileRules } from '../schemas.ts';
import { EmailField, PhoneField } from './contact-fields.tsx';
import { FileField, FormShell, TextArea, TextField, useFilesForm } from './kit.tsx';

/**
 * The export contact request (§2.9), in English. Its block may configure the success and error
 * texts and the `ContentId` the request carries; without one it carries its page's content id.
 */
export function ExportContactForm(props: {
  successMessage?: string;
  errorMessage?: string;
  contentId?: number | string;
}) {
  const t = useT();
  const { sender } = useFilesForm('export-contact', exportContactSchema, {
    Subject: t('form.export-contact.subject'),
    FullName: '',
    Company: '',
    Message: '',
    Email: '',
    Phone: '',
    ...(props.contentId !== undefined ? { ContentId: props.contentId } : {}),
    CustomerId: '',
  });
  return (
    <FormShell
      sender={sender}
      title={t('form.export-contact.title')}
      headingLang="en"
      requiredNote={t('form.export.requiredMark')}
      summaryHeading={t('form.summary.export')}
      failureText={props.errorMessage ?? t('form.export.error')}
      submitText={t('form.export.submit')}
      sendingText={t('form.export.sending')}
      successText={props.successMessage ?? t('form.export.success')}
    >
      <TextField name="Data.FullName" label={t('form.export.fullName')} autoComplete="name" />
      <TextField name="Data.Company" label={t('form.export.company')} autoComplete="organization" />
      <EmailField name="Data.Email" label={t('form.export.email')} />
      <PhoneField name="Data.Phone" label={t('form.export.phone')} />
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
    </FormShell>
  );
}
