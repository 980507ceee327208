import { useId } from 'react';
import { useT } from '../../../i18n/react.tsx';
import { questionSchema } from '../schemas.ts';
import {
  ErrorSummary,
  FormFrame,
  SubmitRow,
  SuccessText,
  styles,
  TextArea,
  useFormSender,
  useSchemaForm,
} from './kit.tsx';

/** One message (§2.5); after sending it is replaced by a success text. */
export function QuestionForm() {
  const t = useT();
  const methods = useSchemaForm(questionSchema, { Data: { Message: '' }, MTCaptchaToken: '' });
  const sender = useFormSender('question', methods);
  const headingId = `${useId().replace(/[^\w-]/g, '')}-heading`;
  if (sender.status === 'success') return <SuccessText text={t('form.question.success')} />;
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
        {t('form.question.title')}
      </h2>
      <TextArea name="Data.Message" label={t('form.field.message')} />
      <ErrorSummary
        heading={t('form.summary.default')}
        fields={[{ name: 'Data.Message', label: t('form.field.message') }]}
      />
      {sender.captchaElement}
      <SubmitRow
        status={sender.status}
        errorText={t(sender.errorKey ?? 'form.error.somethingWrong')}
      />
    </FormFrame>
  );
}
