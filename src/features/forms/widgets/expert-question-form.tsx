import { useId, useState } from 'react';
import { useT } from '../../../i18n/react.tsx';
import { expertQuestionSchema } from '../schemas.ts';
import { EmailField, PhoneField } from './contact-fields.tsx';
import {
  CustomerNumberField,
  FormShell,
  styles,
  TextArea,
  TextField,
  useFormSender,
  useSchemaForm,
} from './kit.tsx';

/** 'Kysy asiantuntijalta' (§2.8): closable; goes to the success page on success. */
export function ExpertQuestionForm(props: { successPage?: string; startClosed?: boolean }) {
  return <ExpertQuestion {...props} />;
}

/** The form itself; the floating overlay's dialog gives it `onClose`. */
export function ExpertQuestion(props: {
  successPage?: string | undefined;
  startClosed?: boolean;
  /** Its close button closes this instead of folding the form (the floating overlay's dialog). */
  onClose?: () => void;
}) {
  const t = useT();
  const [open, setOpen] = useState(!props.startClosed);
  const methods = useSchemaForm(expertQuestionSchema, {
    Data: {
      Subject: t('form.expert-question.subject'),
      FullName: '',
      Company: '',
      Message: '',
      Email: '',
      Phone: '',
      CustomerId: '',
    },
    Files: null,
    MTCaptchaToken: '',
  });
  const sender = useFormSender('expert-question', methods, { successPage: props.successPage });
  const panelId = `${useId().replace(/[^\w-]/g, '')}-panel`;
  if (!open) {
    return (
      <div className={styles.form}>
        <button
          type="button"
          className={styles.button}
          aria-expanded="false"
          aria-controls={panelId}
          onClick={() => setOpen(true)}
        >
          {t('form.expert-question.title')}
        </button>
      </div>
    );
  }
  return (
    <div id={panelId}>
      <FormShell
        sender={sender}
        title={t('form.expert-question.title')}
        headerAction={
          <button
            type="button"
            className={styles.secondary}
            onClick={() => (props.onClose ? props.onClose() : setOpen(false))}
          >
            {t('form.close')}
          </button>
        }
        summaryHeading={t('form.summary.expert')}
        summaryLabel={t('form.summary.expertLabel')}
        failureText={t('form.error.somethingWrong')}
      >
        <p>{t('form.expert-question.intro')}</p>
        <TextField name="Data.FullName" label={t('form.field.fullName')} autoComplete="name" />
        <TextField
          name="Data.Company"
          label={t('form.field.company')}
          required={false}
          autoComplete="organization"
        />
        <EmailField name="Data.Email" label={t('form.field.yourEmail')} />
        <PhoneField name="Data.Phone" required={false} />
        <CustomerNumberField name="Data.CustomerId" />
        <TextArea name="Data.Message" label={t('form.field.message')} />
      </FormShell>
    </div>
  );
}
