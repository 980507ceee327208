import { useT } from '../../../i18n/react.tsx';
import { questionSchema } from '../schemas.ts';
import { FormShell, TextArea, useFormSender, useSchemaForm } from './kit.tsx';

/** One message (§2.5); after sending it is replaced by a success text. */
export function QuestionForm() {
  const t = useT();
  const methods = useSchemaForm(questionSchema, { Data: { Message: '' }, MTCaptchaToken: '' });
  const sender = useFormSender('question', methods);
  return (
    <FormShell
      sender={sender}
      title={t('form.question.title')}
      failureText={t('form.error.somethingWrong')}
      successText={t('form.question.success')}
    >
      <TextArea name="Data.Message" label={t('form.field.message')} />
    </FormShell>
  );
}
