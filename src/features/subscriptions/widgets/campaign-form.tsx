import { useState } from 'react';
import { z } from 'zod';
import { useT } from '../../../i18n/react.tsx';
import {
  Checkbox,
  ErrorSummary,
  FormFrame,
  type Status,
  SuccessText,
  TextField,
  useSchemaForm,
} from '../../forms/widgets/kit.tsx';
import { CAMPAIGN_API, emailSchema, REQUIRED_ERROR } from '../schemas.ts';
import { postJson, Submit } from './kit.tsx';

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
  const methods = useSchemaForm(schema, {
    email: '',
    isAdult: false,
    acceptRules: false,
    subscribeToCinCinVinoNewsletter: false,
  });
  const [status, setStatus] = useState<Status>('idle');
  const send = async (values: Values) => {
    setStatus('sending');
    const answer = await postJson(CAMPAIGN_API, {
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
      <FormFrame
        methods={methods}
        labelledBy={headingId}
        onSubmit={(event) => {
          event.preventDefault();
          void methods.handleSubmit((values) => send(values as Values))(event);
        }}
      >
        <h2 id={headingId}>{props.title ?? t('subscribe.campaign.title')}</h2>
        <p>{t('subscribe.required')}</p>
        <TextField
          name="email"
          type="email"
          label={t('subscribe.field.email')}
          autoComplete="email"
          maxLength={254}
        />
        <Checkbox name="isAdult" label={t('subscribe.campaign.isAdult')} required />
        <Checkbox name="acceptRules" label={t('subscribe.campaign.rules')} required />
        <Checkbox
          name="subscribeToCinCinVinoNewsletter"
          label={t('subscribe.campaign.newsletter')}
        />
        <ErrorSummary heading={t('subscribe.error.summary')} />
        <Submit status={status} text={t('subscribe.campaign.submit')} />
      </FormFrame>
    </section>
  );
}
