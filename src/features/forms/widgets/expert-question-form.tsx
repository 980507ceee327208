import { useId, useState } from 'react';
import { useT } from '../../../i18n/react.tsx';
import { expertQuestionSchema } from '../schemas.ts';
import {
  ErrorSummary,
  FormFrame,
  SubmitRow,
  SuccessText,
  styles,
  TextArea,
  TextField,
  useFormSender,
  useSchemaForm,
} from './kit.tsx';

/** 'Kysy asiantuntijalta' (§2.8): closable; goes to the success page on success. */
export function ExpertQuestionForm(props: { successPage?: string; startClosed?: boolean }) {
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
  const id = useId().replace(/[^\w-]/g, '');
  if (!open) {
    return (
      <div className={styles.form}>
        <button
          type="button"
          className={styles.button}
          aria-expanded="false"
          aria-controls={`${id}-panel`}
          onClick={() => setOpen(true)}
        >
          {t('form.expert-question.title')}
        </button>
      </div>
    );
  }
  if (sender.status === 'success') return <SuccessText text={t('form.success')} />;
  return (
    <div id={`${id}-panel`}>
      <FormFrame
        methods={methods}
        labelledBy={`${id}-heading`}
        onSubmit={(event) => {
          event.preventDefault();
          if (!sender.hasToken()) return;
          void methods.handleSubmit(sender.send)(event);
        }}
      >
        <div className={styles.actions}>
          <h2 id={`${id}-heading`} className={styles.heading}>
            {t('form.expert-question.title')}
          </h2>
          <button type="button" className={styles.secondary} onClick={() => setOpen(false)}>
            {t('form.close')}
          </button>
        </div>
        <p>{t('form.expert-question.intro')}</p>
        <TextField name="Data.FullName" label={t('form.field.fullName')} autoComplete="name" />
        <TextField
          name="Data.Company"
          label={t('form.field.company')}
          required={false}
          autoComplete="organization"
        />
        <TextField
          name="Data.Email"
          label={t('form.field.yourEmail')}
          type="email"
          autoComplete="email"
        />
        <TextField
          name="Data.Phone"
          label={t('form.field.phone')}
          type="tel"
          required={false}
          autoComplete="tel"
        />
        <TextField name="Data.CustomerId" label={t('form.field.customerId')} required={false} />
        <TextArea name="Data.Message" label={t('form.field.message')} />
        <ErrorSummary
          heading={t('form.summary.expert')}
          label={t('form.summary.expertLabel')}
          fields={[
            { name: 'Data.FullName', label: t('form.field.fullName') },
            { name: 'Data.Email', label: t('form.field.yourEmail') },
            { name: 'Data.Message', label: t('form.field.message') },
          ]}
        />
        {sender.captchaElement}
        <SubmitRow
          status={sender.status}
          errorText={t(sender.errorKey ?? 'form.error.somethingWrong')}
        />
      </FormFrame>
    </div>
  );
}
