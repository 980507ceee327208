import { useState } from 'react';
import { z } from 'zod';
import { useT } from '../../../i18n/react.tsx';
import { pushEvent } from '../../forms/widgets/api.ts';
import {
  ErrorSummary,
  FormFrame,
  type Status,
  TextField,
  useSchemaForm,
} from '../../forms/widgets/kit.tsx';
import { emailSchema, NEWSLETTER_API } from '../schemas.ts';
import { postJson, Submit } from './kit.tsx';

const schema = z.object({ email: emailSchema });

/** The analytics event of the food-service sites (spec §7). */
export const NEWSLETTER_EVENT = { event: 'fs_newsletter_form_submit', formName: 'uutiskirje' };

/**
 * The newsletter's e-mail form (spec §3, §5): 'Syötä sähköpostiosoite.' for an empty or invalid
 * address, 'Jotain meni vikaan' when the post fails; `onDone` after a 200 with the success flag.
 */
export function NewsletterForm(props: {
  source: 'newsletter-modal' | 'overlay';
  /** Push `fs_newsletter_form_submit` on success (the food-service sites). */
  event: boolean;
  onDone: () => void;
}) {
  const t = useT();
  const methods = useSchemaForm(schema, { email: '' });
  const [status, setStatus] = useState<Status>('idle');
  const send = async (values: { email: string }) => {
    setStatus('sending');
    const answer = await postJson(NEWSLETTER_API, { email: values.email, source: props.source });
    if (answer.ok) {
      if (props.event) pushEvent({ ...NEWSLETTER_EVENT });
      setStatus('success');
      props.onDone();
      return;
    }
    for (const [name, key] of Object.entries(answer.errors ?? {})) {
      methods.setError(name as never, { type: 'server', message: key });
    }
    setStatus('error');
  };
  return (
    <FormFrame
      methods={methods}
      onSubmit={(event) => {
        event.preventDefault();
        void methods.handleSubmit((values) => send(values as { email: string }))(event);
      }}
    >
      <p>{t('subscribe.newsletter.intro')}</p>
      <TextField
        name="email"
        type="email"
        label={t('subscribe.field.email')}
        autoComplete="email"
        maxLength={254}
      />
      <p>{t('subscribe.consent.newsletter')}</p>
      <ErrorSummary heading={t('subscribe.error.summary')} />
      <Submit status={status} text={t('subscribe.newsletter.submit')} />
    </FormFrame>
  );
}
