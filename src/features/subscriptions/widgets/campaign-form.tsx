import { useState } from 'react';
import { z } from 'zod';
import { useLang, useT } from '../../../i18n/react.tsx';
import { CAMPAIGN_API, emailSchema, REQUIRED_ERROR } from '../schemas.ts';
import {
  CheckField,
  EmailField,
  ErrorSummary,
  Frame,
  type Status,
  Submit,
  SuccessText,
  useSubscribeForm,
} from './fields.tsx';
import { postJson } from './post-json.ts';

const schema = z.object({
  email: emailSchema,
  isAdult: z.literal(true, { error: REQUIRED_ERROR }),
  acceptRules: z.literal(true, { error: REQUIRED_ERROR }),
  subscribeToCinCinVinoNewsletter: z.boolean(),
});
type Values = z.infer<typeof schema>;

/**
 * The campaign participation block (spec §2, §5): the address, two required boxes (over 18, the
 * rules: 'Tämä kenttä on pakollinen') and the newsletter box; the booleans go as text (§7).
 */
export function CampaignForm(props: { campaignId: string; title?: string | undefined }) {
  const t = useT();
  const lang = useLang();
  const methods = useSubscribeForm(schema, {
    email: '',
    isAdult: false,
    acceptRules: false,
    subscribeToCinCinVinoNewsletter: false,
  });
  const [status, setStatus] = useState<Status>('idle');
  const send = async (values: Values) => {
    setStatus('sending');
    const answer = await postJson(CAMPAIGN_API, lang, {
      email: values.email,
      join: props.campaignId,
      isAdult: String(values.isAdult),
      acceptRules: String(values.acceptRules),
      subscribeToCinCinVinoNewsletter: String(values.subscribeToCinCinVinoNewsletter),
    });
    if (answer.ok) {
      setStatus('success');
      return;
    }
    for (const [name, key] of Object.entries(answer.errors ?? {})) {
      if (name !== 'join') methods.setError(name as never, { type: 'server', message: key });
    }
    setStatus('error');
  };
  if (status === 'success') return <SuccessText text={t('subscribe.campaign.thanks')} />;
  const headingId = `campaign-${props.campaignId}-title`;
  return (
    <section aria-labelledby={headingId}>
      <Frame methods={methods} labelledBy={headingId} onValid={(values) => send(values as Values)}>
        <h2 id={headingId}>{props.title ?? t('subscribe.campaign.title')}</h2>
        <p>{t('subscribe.required')}</p>
        <EmailField />
        <CheckField name="isAdult" label={t('subscribe.campaign.isAdult')} required />
        <CheckField name="acceptRules" label={t('subscribe.campaign.rules')} required />
        <CheckField
          name="subscribeToCinCinVinoNewsletter"
          label={t('subscribe.campaign.newsletter')}
        />
        <ErrorSummary />
        <Submit status={status} text={t('subscribe.campaign.submit')} />
      </Frame>
    </section>
  );
}
