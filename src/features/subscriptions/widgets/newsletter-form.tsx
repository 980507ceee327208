import { useState } from 'react';
import { z } from 'zod';
import { useLang, useT } from '../../../i18n/react.tsx';
import { emailSchema, NEWSLETTER_API } from '../schemas.ts';
import {
  EmailField,
  ErrorSummary,
  Frame,
  pushEvent,
  type Status,
  Submit,
  useSubscribeForm,
} from './fields.tsx';
import { postJson } from './post-json.ts';

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
  const lang = useLang();
  const methods = useSubscribeForm(schema, { email: '' });
  const [status, setStatus] = useState<Status>('idle');
  const send = async (values: { email: string }) => {
    setStatus('sending');
    const answer = await postJson(NEWSLETTER_API, lang, {
      email: values.email,
      source: props.source,
    });
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
    <Frame methods={methods} onValid={(values) => send(values as { email: string })}>
      <p>{t('subscribe.newsletter.intro')}</p>
      <EmailField />
      <p>{t('subscribe.consent.newsletter')}</p>
      <ErrorSummary />
      <Submit status={status} text={t('subscribe.newsletter.submit')} />
    </Frame>
  );
}
